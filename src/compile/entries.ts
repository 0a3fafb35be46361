import { glob } from 'tinyglobby';
import { DiagnosticError } from '../core/diagnostics.js';

/** The entry files, from paths and globs, sorted and without duplicates. */
export async function resolveEntries(entries: readonly string[]): Promise<string[]> {
  const files = await glob([...entries], { absolute: false, onlyFiles: true, expandDirectories: false });
  if (files.length === 0)
    throw new DiagnosticError([
      {
        code: 'no-entries',
        severity: 'error',
        message: `no files match ${entries.map((e) => JSON.stringify(e)).join(', ')}`,
        path: [],
        hint: 'pass .ts files or globs, e.g. pipewright compile "pipelines/**/*.ts", or set include in pipewright.config.ts',
      },
    ]);
  return [...new Set(files)].sort();
}
