import { relative, resolve, sep } from 'node:path';
import { firstUserFrame } from '../core/source-site.js';

/**
 * What definitions read of the outside world through `process` while they are loaded and built, per file, so
 * the compile cache can make it part of an entry's key (environment variables) or not cache the entry at all
 * (the whole environment enumerated, or built-in modules such as fs fetched through
 * process.getBuiltinModule, which the bundle's import graph does not show).
 */
export interface EnvironmentReads {
  /** Absolute file -> environment variable names it read. */
  readonly variables: ReadonlyMap<string, ReadonlySet<string>>;
  /** Absolute file -> why the entries depending on it cannot be cached. */
  readonly uncacheable: ReadonlyMap<string, string>;
}

const shown = (file: string) => relative(process.cwd(), file).split(sep).join('/');

/**
 * The user's file that made the current call (the first frame outside pipewright, node: and node_modules),
 * or undefined: then no definition is on the stack (esbuild starting its service, Node itself), and the read
 * is not one of a definition. The whole stack is looked at: a library called by a definition may be deep.
 */
function callerFile(): string | undefined {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 200;
  Error.captureStackTrace(holder, callerFile);
  Error.stackTraceLimit = limit;
  const frame = firstUserFrame(holder.stack ?? '');
  return frame ? resolve(frame.file) : undefined;
}

/**
 * Runs `work` with process.env and process.getBuiltinModule watched; both are restored afterwards, whatever
 * happens. Each read costs a stack capture; definitions read a few variables, not thousands.
 */
export async function recordEnvironment<T>(work: () => Promise<T>): Promise<{ result: T; reads: EnvironmentReads }> {
  const variables = new Map<string, Set<string>>();
  const uncacheable = new Map<string, string>();
  const noteVariable = (name: string | symbol) => {
    if (typeof name !== 'string') return;
    const file = callerFile();
    if (file && !variables.get(file)?.add(name)) variables.set(file, new Set([name]));
  };
  const realEnv = process.env;
  const watched = new Proxy(realEnv, {
    get: (target, name) => (noteVariable(name), Reflect.get(target, name)),
    has: (target, name) => (noteVariable(name), Reflect.has(target, name)),
    getOwnPropertyDescriptor: (target, name) => (noteVariable(name), Reflect.getOwnPropertyDescriptor(target, name)),
    ownKeys: (target) => {
      const file = callerFile();
      if (file) uncacheable.set(file, `${shown(file)} reads the environment as a whole (enumerates process.env)`);
      return Reflect.ownKeys(target);
    },
  });
  const realBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  process.env = watched;
  if (realBuiltin)
    (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule = (id: string) => {
      const file = callerFile();
      if (file) uncacheable.set(file, `${shown(file)} loads ${id} through process.getBuiltinModule`);
      return realBuiltin.call(process, id);
    };
  try {
    return { result: await work(), reads: { variables, uncacheable } };
  } finally {
    process.env = realEnv;
    if (realBuiltin) (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule = realBuiltin;
  }
}

/** An entry's part of the reads: the variables (name -> value, null when unset) or why it cannot be cached. */
export function entryEnvironment(
  reads: EnvironmentReads,
  dependencies: readonly string[],
): { environment: Record<string, string | null> } | { uncacheable: string } {
  const why = dependencies.map((file) => reads.uncacheable.get(file)).find(Boolean);
  if (why) return { uncacheable: why };
  const names = new Set<string>();
  for (const file of dependencies) for (const name of reads.variables.get(file) ?? []) names.add(name);
  const environment: Record<string, string | null> = {};
  for (const name of [...names].sort()) environment[name] = process.env[name] ?? null;
  return { environment };
}
