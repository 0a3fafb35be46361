import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ModuleChecker, ModuleProblems } from './check-modules.js';
import { checkOptions, typeProblem, typescript, type MarkedModule } from './type-check.js';

/**
 * TypeScript 7's compiler (the native port, `typescript` 7 or its preview `@typescript/native-preview`), when
 * installed beside pipewright or in the project of the working directory. It checks generated modules several
 * times faster than the TypeScript that ts-morph carries.
 */
export function nativeCompiler(): string | undefined {
  const places = [import.meta.url, pathToFileURL(join(process.cwd(), 'package.json')).href];
  for (const place of places)
    for (const [name, bin] of [
      ['typescript', 'tsc'],
      ['@typescript/native-preview', 'tsgo'],
    ] as const) {
      let manifest: string;
      try {
        manifest = createRequire(place).resolve(`${name}/package.json`);
      } catch {
        continue;
      }
      const { version, bin: bins } = JSON.parse(readFileSync(manifest, 'utf8')) as {
        version: string;
        bin?: Record<string, string>;
      };
      if (Number(version.split('.')[0]) >= 7 && bins?.[bin]) return join(dirname(manifest), bins[bin]);
    }
  return undefined;
}

const MARKER = '): error TS';

/**
 * `file(line,col): error TSnnnn: message`, as the compiler prints without `--pretty`; indented lines continue it.
 * Read by searching for the marker, not by `^(.+?)\((\d+),(\d+)\)...`, which is quadratic on a line of `(`s.
 */
function errorLine(line: string): { file: string; error: NativeError } | undefined {
  const marker = line.indexOf(MARKER);
  const open = line.lastIndexOf('(', marker);
  if (marker < 0 || open <= 0) return undefined;
  const place = /^(\d+),(\d+)$/.exec(line.slice(open + 1, marker));
  const code = /^\d+: /.exec(line.slice(marker + MARKER.length));
  if (!place || !code) return undefined;
  return {
    file: line.slice(0, open),
    error: {
      line: Number(place[1]),
      column: Number(place[2]),
      message: line.slice(marker + MARKER.length + code[0].length),
    },
  };
}

interface NativeError {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

function parseErrors(output: string): Map<string, NativeError[]> {
  const found = new Map<string, NativeError[]>();
  let last: { message: string } | undefined;
  for (const line of output.split(/\r?\n/)) {
    const read = errorLine(line);
    if (read) {
      const error = { ...read.error };
      found.set(read.file, [...(found.get(read.file) ?? []), error]);
      last = error;
    } else if (last && /^\s/.test(line)) last.message += `\n${line.trim()}`;
    else if (line.trim()) throw new Error(`the TypeScript compiler said: ${line}`);
  }
  return found;
}

function runCompiler(compiler: string, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // One thread: the import's own threads keep the other cores busy, and its checkers working in parallel
    // each learn the library's types again (a third more CPU for a group of 250 modules, for no sooner answer).
    const child = spawn(process.execPath, [compiler, '-p', 'tsconfig.json', '--pretty', 'false', '--singleThreaded'], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    // Exit code 2 means "errors found", which the output lists; anything else unexpected is in the output too.
    child.on('close', () => resolve(output));
  });
}

async function checkNatively(compiler: string, modules: readonly MarkedModule[]): Promise<ModuleProblems> {
  // Written in one go, before the compiler starts: the thread that calls this is busy generating the next group,
  // and each await would wait for it (1000 files took 5 s to reach the compiler that way).
  const dir = mkdtempSync(join(tmpdir(), 'pipewright-check-'));
  try {
    const made = new Set<string>();
    const written = new Set<string>();
    // A module checked in one group of the batch may be another's context: the checked text is the one written.
    for (const module of [...modules.filter((m) => !m.context), ...modules.filter((m) => m.context)]) {
      if (written.has(module.path)) continue;
      written.add(module.path);
      const folder = dirname(join(dir, module.path));
      if (!made.has(folder)) mkdirSync(folder, { recursive: true });
      made.add(folder);
      writeFileSync(join(dir, module.path), module.text);
    }
    // Context modules (those the others import) are written for their types, not checked.
    const config = {
      compilerOptions: checkOptions(),
      files: modules.filter((module) => !module.context).map((module) => module.path),
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
    const errors = parseErrors(await runCompiler(compiler, dir));
    const paths = new Set(modules.map((module) => module.path));
    // An error outside the modules (in pipewright's own types, say) is not the generated code's: check elsewhere.
    for (const path of errors.keys()) if (!paths.has(path)) throw new Error(`the TypeScript compiler reported ${path}`);
    return modules.map((module) => {
      const found = module.context ? undefined : errors.get(module.path);
      if (!found) return [];
      // Only a module with errors is parsed, to find the origin mark around each.
      const file = typescript().createSourceFile(module.path, module.text, typescript().ScriptTarget.ES2022, true);
      return found.map((error) =>
        typeProblem(
          file,
          module.path,
          file.getPositionOfLineAndCharacter(error.line - 1, error.column - 1),
          error.message,
        ),
      );
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Checks groups in a process of TypeScript 7's compiler, the modules written to a temporary folder, one process
 * at a time (each uses every core): the groups that arrive while one runs are checked together by the next, so
 * a slow start costs one process, not one per group. Origin marks are found as the in-process check finds them.
 */
export function nativeChecker(compiler: string): ModuleChecker {
  type Waiting = {
    modules: readonly MarkedModule[];
    resolve: (problems: ModuleProblems) => void;
    reject: (error: unknown) => void;
  };
  let waiting: Waiting[] = [];
  let running = false;
  const runWaiting = async (): Promise<void> => {
    running = true;
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      try {
        const outcomes = await checkNatively(
          compiler,
          batch.flatMap((group) => group.modules),
        );
        let at = 0;
        for (const group of batch) group.resolve(outcomes.slice(at, (at += group.modules.length)));
      } catch (error) {
        for (const group of batch) group.reject(error);
      }
    }
    running = false;
  };
  return (modules) =>
    new Promise((resolve, reject) => {
      waiting.push({ modules, resolve, reject });
      if (!running) void runWaiting();
    });
}
