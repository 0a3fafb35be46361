import { resolve, sep } from 'node:path';
import { DiagnosticError } from '../core/diagnostics.js';
import { DEFAULT_OUT_DIR, type PipewrightConfig } from './config.js';
import { resolveEntries } from './entries.js';
import { loadConfig } from './load-config.js';

/** What one compile read: the watcher watches these (and their imports). */
export interface CompileInputs {
  readonly entries: readonly string[];
  readonly files: readonly string[];
  readonly configFile?: string;
  readonly config: PipewrightConfig;
  readonly outDir: string;
  /** Entries named on the command line that are not the config's include: a compile of part of the project. */
  readonly partial: boolean;
}

/** The entries, the out dir and the config file, as the flags and pipewright.config.ts say. */
export async function resolveInputs(
  entries: readonly string[],
  flags: { readonly out?: string | undefined },
): Promise<CompileInputs> {
  const { config, file: configFile } = await loadConfig();
  const chosen = entries.length > 0 ? entries : (config.include ?? []);
  if (chosen.length === 0)
    throw new DiagnosticError([
      {
        code: 'no-entries',
        severity: 'error',
        message: configFile
          ? `${configFile} has no include globs and no entries were given`
          : 'no entries given and no pipewright.config.ts found',
        path: [],
        ...(configFile ? { location: { file: configFile } } : {}),
        hint: 'pass files, e.g. pipewright compile "pipelines/**/*.ts", or set include in pipewright.config.ts',
      },
    ]);
  const outDir = flags.out ?? config.outDir ?? DEFAULT_OUT_DIR;
  const files = await resolveEntries(chosen);
  guardOutDir(outDir, [...files, ...(configFile ? [configFile] : [])]);
  return {
    entries: chosen,
    files,
    ...(configFile ? { configFile } : {}),
    config,
    outDir,
    partial: entries.length > 0 && !(await sameFiles(files, config.include)),
  };
}

/** Whether `files` are what the config's include globs find: then a compile of them is one of the whole project. */
async function sameFiles(files: readonly string[], include: readonly string[] | undefined): Promise<boolean> {
  if (!include?.length) return false;
  const all = new Set((await resolveEntries(include)).map((file) => resolve(file)));
  return all.size === new Set(files.map((file) => resolve(file))).size && files.every((file) => all.has(resolve(file)));
}

/**
 * The output folder is replaced as a whole on every compile; pointing it at the working directory or at a
 * folder holding the definitions would move the user's sources around, so that is refused up front.
 */
function guardOutDir(outDir: string, inputs: readonly string[]): void {
  const out = resolve(outDir);
  const inside = (file: string) => resolve(file) === out || resolve(file).startsWith(out + sep);
  const cwd = process.cwd();
  const offending = inputs.find(inside) ?? (inside(cwd) ? '.' : undefined);
  if (offending)
    throw new DiagnosticError([
      {
        code: 'unsafe-out-dir',
        severity: 'error',
        message: `output folder ${JSON.stringify(outDir)} contains ${offending === '.' ? 'the working directory' : offending}`,
        path: [],
        hint: 'compile replaces its output folder as a whole: choose a folder of its own, e.g. -o out',
      },
    ]);
}
