import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCliReference } from '../src/cli/cli-reference.js';
import { createProgram } from '../src/cli/main.js';
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
    expect(result).toEqual({ code: 2, stdout: '', stderr: "error: unknown command 'compil'\n(Did you mean compile?)\n" });
  });

  it('suggests the closest option for an unknown one and exits 2', async () => {
    const result = await runCli(['compile', '--chek']);
    expect(result).toEqual({ code: 2, stdout: '', stderr: "error: unknown option '--chek'\n(Did you mean --check?)\n" });
  });

  it('does not suggest anything for a word that is nothing like a command', async () => {
    const result = await runCli(['xyzzy']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: unknown command 'xyzzy'\n");
  });
});
