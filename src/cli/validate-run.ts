import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  DiagnosticError,
  formatDiagnostic,
  groupDiagnostics,
  hasErrors,
  suppressedCount,
} from '../core/diagnostics.js';
import { codeFrame } from '../validate/code-frame.js';
import { showsSource } from '../core/diagnostic-codes.js';
import { CONFIG_FILES } from '../compile/config.js';
import type { RuleSettings } from '../check/rule-settings.js';
import { validateFiles } from '../validate/validate-files.js';
import { readYamlFile } from '../yaml/read-yaml-file.js';
import { EXIT, useColor } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { stdout, stderr } from './output.js';

export interface ValidateFlags {
  readonly json?: boolean;
}

const GLOB = /[*?[\]{}]/;

/**
 * The files to check: each argument as given; for a folder, the YAML files under it; for a glob the shell did not
 * expand (Windows, quotes), its matches.
 */
async function resolveFiles(args: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const arg of args) {
    // What exists is checked as a file when it is read: a folder, a pipe or a device is that file's diagnostic.
    const info = await stat(arg).catch(() => undefined);
    if (info) files.push(arg);
    else if (GLOB.test(arg)) {
      const { glob } = await import('tinyglobby');
      const matches = (await glob(arg, { onlyFiles: true, expandDirectories: false })).sort();
      if (matches.length === 0)
        throw DiagnosticError.of(
          'no-entries',
          `no files match ${JSON.stringify(arg)}`,
          'check the pattern, e.g. "pipelines/**/*.yaml"',
        );
      files.push(...matches);
    } else
      throw DiagnosticError.of(
        'file-not-found',
        `cannot read ${arg}: no such file`,
        'pass YAML files that exist, e.g. pipewright validate pipelines/*.yaml',
      );
  }
  return [...new Set(files)];
}

/**
 * In a project, its pipewright.config.ts says which rules are off or at another severity, as for compile. The
 * config loader (and esbuild behind it) is imported only when there is a config to read.
 */
export async function projectRules(): Promise<RuleSettings | undefined> {
  if (!CONFIG_FILES.some((name) => existsSync(name))) return undefined;
  const { loadConfig } = await import('../compile/load-config.js');
  return (await loadConfig()).config.rules;
}

/** Validates the files and prints each problem as `file:line:col` with a code frame; 1 on any error. */
export async function runValidate(files: readonly string[], flags: ValidateFlags): Promise<number> {
  const results = await validateFiles(await resolveFiles(files), await projectRules());
  const diagnostics = results.flatMap((result) => result.diagnostics);
  const failed = hasErrors(diagnostics);
  if (flags.json) {
    printEnvelope('validate', !failed, diagnostics, {
      files: results.map((r) => ({ file: r.file, documents: r.documents })),
    });
    return failed ? EXIT.failed : EXIT.ok;
  }
  const color = useColor(process.stderr);
  for (const result of results) {
    // A suppressed diagnostic is not a problem to show: --json lists it, with its reason.
    const shown = result.diagnostics.filter((d) => !d.suppressed);
    // The text again, only for a file with something to show: validating keeps no file's text (and a file refused
    // as a whole has no frame).
    const read = shown.length ? readYamlFile(result.file) : undefined;
    const source = read && 'text' in read ? read.text : '';
    // Only the same mistake at the same place merges: a mistake repeated in many files is one per file.
    for (const diagnostic of groupDiagnostics(shown) as typeof shown)
      stderr(
        `${formatDiagnostic(diagnostic, { color })}\n${showsSource(diagnostic.code) ? `${codeFrame(source, diagnostic.location.line, diagnostic.location.column)}\n` : ''}\n`,
      );
  }
  const shown = diagnostics.filter((d) => !d.suppressed);
  const errors = shown.filter((d) => d.severity === 'error').length;
  const warnings = shown.length - errors;
  const documents = results.reduce((sum, r) => sum + r.documents, 0);
  const summary = `${documents} document${documents === 1 ? '' : 's'} in ${results.length} file${results.length === 1 ? '' : 's'}`;
  const suppressed = suppressedCount(diagnostics.length - shown.length);
  const warned = `${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}${suppressed ? `, ${suppressed}` : ''}`;
  if (errors === 0) stdout(`${summary}: valid${warned}\n`);
  else stderr(`${summary}: ${errors} error${errors === 1 ? '' : 's'}${warned}\n`);
  return failed ? EXIT.failed : EXIT.ok;
}
