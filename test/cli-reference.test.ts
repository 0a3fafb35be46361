import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCliReference } from '../src/cli/cli-reference.js';
import { createProgram } from '../src/cli/main.js';
import { DIAGNOSTIC_CODES, docsAnchor, isDiagnosticCode, severityOf } from '../src/core/diagnostic-codes.js';
import type { Diagnostic } from '../src/core/diagnostics.js';
import { ROOT, runCli } from './support/cli.js';

const commandNames = () => createProgram().commands.map((c) => c.name());

describe('CLI reference (docs/cli.md)', () => {
  it('is what the commander definitions generate: run `npm run docs:cli` after changing a command', async () => {
    const committed = await readFile(join(ROOT, 'docs/cli.md'), 'utf8');
    const generated = await renderCliReference(createProgram(), join(ROOT, 'docs/cli.md'));
    expect(committed, 'docs/cli.md is stale: run npm run docs:cli').toBe(generated);
  });

  it('documents every command and every option', async () => {
    const text = await readFile(join(ROOT, 'docs/cli.md'), 'utf8');
    for (const command of createProgram().commands) {
      expect(text).toContain(`## pipewright ${command.name()}\n`);
      for (const option of command.options) expect(text, `${command.name()} ${option.flags}`).toContain(option.flags);
    }
  });
});

describe('help', () => {
  it.each(commandNames())('`%s --help` shows usage and at least one example', async (name) => {
    const result = await runCli([name, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: pipewright ${name} `);
    expect(result.stdout).toMatch(new RegExp(`\\nExamples?:\\n(.*\\n)*\\s+\\$ (npx )?pipewright ${name}\\b`));
  });
});

describe('usage errors', () => {
  it('suggests the closest command for an unknown one and exits 2', async () => {
    const result = await runCli(['compil']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: unknown command 'compil'\n(Did you mean compile?)\n",
    });
  });

  it('suggests the closest option for an unknown one and exits 2', async () => {
    const result = await runCli(['compile', '--chek']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: "error: unknown option '--chek'\n(Did you mean --check?)\n",
    });
  });

  it('does not suggest anything for a word that is nothing like a command', async () => {
    const result = await runCli(['xyzzy']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: unknown command 'xyzzy'\n");
  });
});

/**
 * Diagnostic codes as the sources write them: `code: 'x'` / `code = "x"` (every kebab literal on that line,
 * for ternaries), a zod issue mapped in schema-issues.ts, `DiagnosticError.of('x', ...)`, and the rule helpers'
 * `error(document, path, 'x', ...)`.
 */
async function diagnosticCodes(): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  const kebab = /['"]([a-z0-9]+(?:-[a-z0-9]+)+)['"]/g;
  const files = (await readdir(join(ROOT, 'src'), { recursive: true })).filter((f) => f.endsWith('.ts')).sort();
  for (const file of files) {
    const text = await readFile(join(ROOT, 'src', file), 'utf8');
    const add = (code: string) => codes.has(code) || codes.set(code, file);
    for (const [line] of text.matchAll(/\bcode\s*[:=][^\n]*/g)) for (const [, code] of line.matchAll(kebab)) add(code!);
    if (file.endsWith('schema-issues.ts'))
      for (const [, code] of text.matchAll(/^\s+\w+: ['"]([a-z]+(?:-[a-z]+)+)['"],$/gm)) add(code!);
    for (const [, code] of text.matchAll(
      /\b(?:DiagnosticError\.of|diagnosticOf)\(\s*['"]([a-z0-9]+(?:-[a-z0-9]+)*)['"]/g,
    ))
      add(code!);
    // Rule helpers (`error(document, path, 'code', ...)`, `ruleError(...)`): the first kebab literal of the call.
    for (const [, code] of text.matchAll(
      /\b(?:error|ruleError)\(\s*document,[^'"`]*?(?:['"][\w.]*['"][^'"`]*?)*?['"]([a-z]+(?:-[a-z]+)+)['"]/g,
    ))
      add(code!);
  }
  return codes;
}

describe('troubleshooting (docs/troubleshooting.md) and the table of codes', () => {
  const documented = async () =>
    [...(await readFile(join(ROOT, 'docs/troubleshooting.md'), 'utf8')).matchAll(/^### `([a-z0-9-]+)`$/gm)].map(
      (m) => m[1]!,
    );

  it('has an entry for every code of the table, and the table a code for every entry', async () => {
    const table = Object.keys(DIAGNOSTIC_CODES);
    const docs = await documented();
    expect(
      table.filter((code) => !docs.includes(code)),
      'add a "### `code`" entry to docs/troubleshooting.md for each',
    ).toEqual([]);
    expect(
      docs.filter((code) => !isDiagnosticCode(code)),
      'add each to src/compile/diagnostic-codes.ts, or remove the entry',
    ).toEqual([]);
    expect(new Set(docs).size).toBe(docs.length);
    // The anchor the table gives is the one a Markdown renderer makes of the heading (GitHub: lowercase, no backticks).
    for (const code of table)
      expect(docsAnchor(code as keyof typeof DIAGNOSTIC_CODES)).toBe(
        `docs/troubleshooting.md#${`\`${code}\``.toLowerCase().replace(/[^\w -]/g, '')}`,
      );
  });

  it('lists every code the sources write (the types refuse any other; this catches a code in an untyped place)', async () => {
    const codes = await diagnosticCodes();
    // The scan itself must keep finding the codes it is known to find, or this test would pass on nothing.
    for (const known of [
      'no-entries',
      'missing-field',
      'invalid-format',
      'duplicate-identifier',
      'unknown-type',
      'syntax-error',
      'type-error',
      'file-not-found',
    ])
      expect([...codes.keys()]).toContain(known);
    const notInTable = [...codes]
      .filter(([code]) => !isDiagnosticCode(code))
      .map(([code, file]) => `${code} (${file})`);
    expect(notInTable).toEqual([]);
  });

  it('refuses a code the table does not have, and a severity it does not give the code', () => {
    expect(isDiagnosticCode('no-such-code')).toBe(false);
    expect(severityOf('possible-secret')).toBe('warning');
    expect(() => severityOf('possible-secret', 'error')).toThrow('diagnostic code possible-secret is never an error');
    expect(severityOf('unsubstituted-placeholder', 'warning')).toBe('warning');
    expect(severityOf('unsubstituted-placeholder', 'error')).toBe('error');
    // The same, at compile time: `npm run typecheck` fails if either line below stops being an error.
    // @ts-expect-error: not a code of the table
    const unknown: Diagnostic = { code: 'no-such-code', severity: 'error', message: 'x', path: [] };
    // @ts-expect-error: possible-secret is only ever a warning
    const wrongSeverity: Diagnostic = { code: 'possible-secret', severity: 'error', message: 'x', path: [] };
    expect([unknown.code, wrongSeverity.severity]).toEqual(['no-such-code', 'error']);
  });
});
