import { existsSync, watch, type FSWatcher } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { CompileSession } from '../compile/compile-cache.js';
import { DiagnosticError } from '../core/diagnostics.js';
import { CONFIG_FILES } from '../compile/config.js';
import { tsconfigFor } from '../compile/typecheck.js';
import { resolveInputs, type CompileInputs } from '../compile/compile-inputs.js';
import { compileInputs, type CompileFlags } from './compile-run.js';
import { EXIT, reportError, useColor } from './errors.js';
import { WarningMemory } from './warning-memory.js';
import { stdout } from './output.js';

/**
 * Editors save in bursts (write, rename, chmod), a few milliseconds apart: one compile per burst. Part of the
 * time from a save to its output (docs/performance.md), so no longer than that needs.
 */
const SETTLE_MS = 25;

/** A new file with one of these extensions in a watched folder may be a new entry (include globs). */
const SOURCE_FILE = /\.(?:[cm]?ts|[cm]?js)$/;

/** Existing files that diagnostics point at, absolute. */
function filesNamedIn(error: unknown): string[] {
  if (!(error instanceof DiagnosticError)) return [];
  return error.diagnostics
    .map((d) => d.location?.file)
    .filter((file): file is string => Boolean(file) && existsSync(file!))
    .map((file) => resolve(file));
}

const shown = (file: string) => relative(process.cwd(), file).split(sep).join('/') || '.';

/**
 * `compile --watch`: compiles, then watches every input (entries, their local imports, the config file) and
 * compiles again on change. A failed compile prints its diagnostics and keeps watching: the process ends only
 * on Ctrl-C (exit 0). Folders are watched rather than files so editors that save by rename are seen.
 */
export async function watchCompile(entries: readonly string[], flags: CompileFlags): Promise<number> {
  const debug = process.argv.includes('--debug');
  const tty = Boolean(process.stdout.isTTY);
  const cwd = process.cwd();
  let files = new Set<string>();
  let outDir: string | undefined;
  const watchers = new Map<string, FSWatcher>();
  let running = false;
  let again: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  // What one compile read and hashed, for the next: after a save, only the saved file is read again.
  const session = new CompileSession();
  // The warnings the last compile printed: the next one prints only those whose cause is new.
  const warnings = new WarningMemory();

  let tsconfig: string | undefined;
  const fixed = () => [...CONFIG_FILES.map((name) => join(cwd, name)), ...(tsconfig ? [tsconfig] : [])];

  const relevant = (file: string): boolean => {
    if (files.has(file)) return true;
    if (file.split(sep).includes('node_modules')) return false;
    if (outDir && (file === outDir || file.startsWith(outDir + sep))) return false;
    return SOURCE_FILE.test(file);
  };

  const onEvent = (dir: string) => (_event: string, name: string | Buffer | null) => {
    if (name === null) return;
    const file = join(dir, name.toString());
    if (!relevant(file)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void run(shown(file)), SETTLE_MS);
  };

  const rewatch = () => {
    const dirs = new Set([cwd, ...[...files].map((file) => dirname(file))]);
    for (const [dir, watcher] of watchers)
      if (!dirs.has(dir)) {
        watcher.close();
        watchers.delete(dir);
      }
    for (const dir of dirs)
      if (!watchers.has(dir))
        try {
          watchers.set(
            dir,
            watch(dir, onEvent(dir)).on('error', () => watchers.delete(dir)),
          );
        } catch {
          // The folder is gone (deleted input); the next successful compile sees what exists now.
        }
  };

  const run = async (changed?: string): Promise<void> => {
    if (running) {
      again = changed ?? again ?? '';
      return;
    }
    running = true;
    try {
      await compileAndRewatch(changed);
    } catch (error) {
      // Nothing may end the watcher but Ctrl-C: even a failure of the watcher itself is reported and survived.
      reportError(error, { debug, color: useColor(process.stderr) });
    } finally {
      running = false;
    }
    if (again !== undefined) {
      const next = again || undefined;
      again = undefined;
      await run(next);
    }
  };

  const compileAndRewatch = async (changed: string | undefined): Promise<void> => {
    // On a terminal each compile replaces the last one's output, so the screen shows the current state.
    if (tty) stdout('\x1b[2J\x1b[3J\x1b[H');
    if (changed) stdout(`change detected: ${changed}; compiling\n`);
    let inputs: CompileInputs | undefined;
    let ok = false;
    let located: string[] = [];
    // The files compile loaded: its bundle's import graph, told as soon as the definitions are loaded, so also
    // when the compile then fails on a diagnostic.
    let graph: readonly string[] | undefined;
    try {
      inputs = await resolveInputs(entries, flags);
      outDir = resolve(inputs.outDir);
      // The one --typecheck reads, nearest to the definitions; the entries may have moved since the last compile.
      tsconfig = flags.typecheck ? (tsconfigFor(inputs.files) ?? join(cwd, 'tsconfig.json')) : undefined;
      ok =
        (await compileInputs(inputs, flags, { session, warnings, onInputs: (loaded) => (graph = loaded) })) === EXIT.ok;
    } catch (error) {
      reportError(error, { debug, color: useColor(process.stderr) });
      located = filesNamedIn(error);
    }
    // When the definitions could not be loaded (a syntax error, a missing import), keep watching what was
    // watched, the entries, and the files the errors point at, so saving the fix is seen wherever it is.
    files = new Set([
      ...fixed(),
      ...(graph ?? [...files, ...(inputs?.files ?? []).map((f) => resolve(f))]),
      ...located,
    ]);
    rewatch();
    const count = [...files].filter((f) => !fixed().includes(f)).length;
    stdout(
      `${ok ? '' : 'compile failed; fix the error and save: '}watching ${count} file${count === 1 ? '' : 's'} for changes (Ctrl-C to stop)\n`,
    );
  };

  return new Promise<number>((resolvePromise) => {
    process.once('SIGINT', () => {
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      stdout('\nstopped watching\n');
      resolvePromise(EXIT.ok);
      // A compile may be mid-flight (esbuild, an import): Ctrl-C ends the process now, successfully.
      process.exit(EXIT.ok);
    });
    void run();
  });
}
