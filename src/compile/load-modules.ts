import { existsSync } from 'node:fs';
import { mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { firstUserFrame } from '../core/source-site.js';
import { bundleFileName, mapBundleFrames, mappedStack } from './bundle-maps.js';
import { withinLimit } from './definition-limit.js';
import { DiagnosticError, withoutRepeats, type Diagnostic } from '../core/diagnostics.js';
import type { DiagnosticLocation, SourceLocation } from '../core/source-location.js';

export interface LoadedModule {
  /** Path relative to the working directory, with `/`. */
  readonly file: string;
  readonly exports: Readonly<Record<string, unknown>>;
  /** Absolute paths of the local files it imports, itself included, transitively (for the compile cache). */
  readonly dependencies: readonly string[];
  /** True when it imports anything but local files and pipewright (packages, node: builtins): not cacheable. */
  readonly impure: boolean;
  /** Why it is impure, for `--debug`. */
  readonly uncacheable?: string;
}

/** This package's own entry: user imports of `pipewright` bind to the copy that compiles them. */
let OWN_ENTRY = pathToFileURL(fileURLToPath(new URL('../index.js', import.meta.url))).href;

/**
 * Binds user imports of `pipewright` to the module at `url` instead: the binary's single-file build
 * (cli/bundle-entry.ts) exports the whole library itself, and definitions must share its instance.
 */
export function useOwnEntry(url: string): void {
  OWN_ENTRY = url;
}

const shown = (file: string) => relative(process.cwd(), file).split(sep).join('/');

/** The nearest node_modules above `from`, so bare imports in the bundle resolve like the user's own. */
export function cacheDir(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) return join(dir, 'node_modules', '.cache', 'pipewright');
    if (dirname(dir) === dir) return join(tmpdir(), 'pipewright');
  }
}

/** What esbuild made of some entry files: one module whose default export lists each entry's namespace. */
interface Bundle {
  readonly files: readonly string[];
  readonly absolute: readonly string[];
  /** Where it is written (its source map's paths are relative to it). */
  readonly outfile: string;
  /** esbuild's bytes, written as they are (decoding them to text would be undone by the write). */
  readonly code: Uint8Array;
  /** Its source map, kept in memory as bytes: frames are mapped by bundle-maps.ts when one is asked for, rarely. */
  readonly map: Uint8Array;
  readonly metafile: Metafile;
}

/** Bundles entry files with esbuild (a process of its own); rejects with a DiagnosticError on their syntax errors. */
async function bundle(files: readonly string[]): Promise<Bundle> {
  const { build } = await import('esbuild');
  const absolute = files.map((file) => resolve(file));
  const entry =
    absolute.map((file, index) => `import * as m${index} from ${JSON.stringify(file)};`).join('\n') +
    `\nexport default [${absolute.map((_, index) => `m${index}`).join(', ')}];\n`;
  const outfile = join(await bundleFolder(), bundleFileName());
  try {
    const result = await build({
      stdin: { contents: entry, resolveDir: process.cwd(), sourcefile: '<pipewright entries>', loader: 'js' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      // Not given to Node (no comment in the code): Node would read and parse every bundle's map as it loads it, and
      // map every stack of the process. bundle-maps.ts maps the few frames a diagnostic or the cache needs.
      sourcemap: 'external',
      // Less source for V8 to parse (the map still leads back to the user's lines and columns): 300 files, 4% faster.
      minifyWhitespace: true,
      sourcesContent: false,
      // Where the bundle is written (the source map's paths are relative to it).
      outfile,
      write: false,
      metafile: true,
      logLevel: 'silent',
      // User imports of `pipewright` bind to the running copy, by its URL, left for Node to import. Not a plugin:
      // esbuild would wait for this thread to answer each file's import, and this thread is busy evaluating.
      alias: { pipewright: OWN_ENTRY },
      external: ['file://*'],
    });
    const output = (suffix: string) => result.outputFiles.find((file) => file.path.endsWith(suffix))!.contents;
    return { files, absolute, outfile, code: output('.mjs'), map: output('.mjs.map'), metafile: result.metafile };
  } catch (error) {
    throw new DiagnosticError(esbuildDiagnostics(error));
  }
}

const folders = new Map<string, Promise<string>>();

/**
 * Where bundles are written, for the working directory (a bundle's bare imports resolve from there). Node imports
 * a bundle by its real path and resolves the source map's relative paths from there: the folder is taken by its
 * real path too, or a symlinked node_modules above the project would misplace every location.
 */
function bundleFolder(): Promise<string> {
  const cwd = process.cwd();
  let folder = folders.get(cwd);
  if (!folder) {
    folder = mkdir(cacheDir(cwd), { recursive: true }).then(() => realpath(cacheDir(cwd)));
    folders.set(cwd, folder);
  }
  return folder;
}

/**
 * The `withBundleMaps` scopes open now, each with the bundles evaluated while it was open: a bundle's frames stay
 * mapped until every scope that saw it has ended. Plain state, not an AsyncLocalStorage: async hooks in the process
 * make Node abort when definition-limit.ts stops an endless definition (its callback scope finds the async id stack
 * not unwound), and a scope that keeps a map a little longer only maps more frames.
 */
const openScopes = new Set<Array<{ forget(): void }>>();

/**
 * Runs `work` with the frames of the bundles it evaluates mapped to the user's files until it ends: call sites are
 * formatted when a diagnostic is located, after the import. Outside a scope, only while a bundle is imported.
 */
export async function withBundleMaps<T>(work: () => Promise<T>): Promise<T> {
  const registered: Array<{ forget(): void }> = [];
  openScopes.add(registered);
  try {
    return await work();
  } finally {
    openScopes.delete(registered);
    for (const registration of registered) registration.forget();
  }
}

/** A bundle's map registration shared by the open scopes: forgotten when the last of them forgets it. */
function shared(registration: { forget(): void }, scopes: number): { forget(): void } {
  let left = scopes;
  return { forget: () => --left === 0 && registration.forget() };
}

/** Writes a bundle and imports it: the entries' modules run (the builders are called) here. */
async function evaluate({ files, absolute, outfile, code, map, metafile }: Bundle): Promise<LoadedModule[]> {
  await writeFile(outfile, code);
  const registration = mapBundleFrames(outfile, map);
  const scoped = openScopes.size > 0;
  if (scoped) {
    const held = shared(registration, openScopes.size);
    for (const scope of openScopes) scope.push(held);
  }
  try {
    const loaded = (await withinLimit(() => import(pathToFileURL(outfile).href), files)) as {
      default: Array<Record<string, unknown>>;
    };
    const graph = importGraph(metafile);
    return loaded.default.map((exports, index) => ({
      file: shown(absolute[index]!),
      exports,
      ...closure(graph, absolute[index]!),
    }));
  } catch (error) {
    // Stopped at the time limit: already said as it should be.
    if (error instanceof DiagnosticError) throw error;
    // The stack --debug shows leads to the user's lines too.
    if (error instanceof Error && error.stack && Object.getOwnPropertyDescriptor(error, 'stack')?.writable)
      error.stack = mappedStack(error.stack);
    throw new DiagnosticError([thrownDiagnostic(error, files)], { cause: error });
  } finally {
    if (!scoped) registration.forget();
    await rm(outfile, { force: true });
  }
}

/**
 * Loads the user's TypeScript definition files in one esbuild pass and one import: one bundle whose entry
 * imports every file, so shared step libraries are evaluated once and cost grows linearly with the files.
 */
export async function loadModules(files: readonly string[]): Promise<LoadedModule[]> {
  const groups = apartByCase([files]);
  if (groups.length === 1) return evaluate(await bundle(files));
  const loaded = new Map<string, LoadedModule>();
  for (const group of groups)
    for (const [index, module] of (await evaluate(await bundle(group))).entries()) loaded.set(group[index]!, module);
  return files.map((file) => loaded.get(file)!);
}

/**
 * Each bundle's entry files with no two that differ only in case (`ci.ts`, `CI.ts`): esbuild takes such paths for
 * one file (its `different-path-case` warning), so one of the two would be compiled twice and the other not at
 * all. A file whose name another one of its bundle has in other case moves to a bundle of its own.
 */
export function apartByCase(chunks: readonly (readonly string[])[]): string[][] {
  return chunks.flatMap((chunk) => {
    const groups: Array<{ files: string[]; names: Set<string> }> = [];
    for (const file of chunk) {
      const name = resolve(file).toLowerCase();
      let group = groups.find((candidate) => !candidate.names.has(name));
      if (!group) groups.push((group = { files: [], names: new Set() }));
      group.files.push(file);
      group.names.add(name);
    }
    return groups.map((group) => group.files);
  });
}

/**
 * Entry files per bundle when many are loaded in a row: a small first one, so that evaluating starts soon,
 * then larger ones (each bundle costs a file, an import and a source map).
 */
const CHUNK_SIZES = [16, 32, 64, 128];

/** `files` cut into consecutive chunks of CHUNK_SIZES (the last size repeating). */
export function chunksOf<T>(files: readonly T[], sizes: readonly number[] = CHUNK_SIZES): T[][] {
  const chunks: T[][] = [];
  for (let start = 0, index = 0; start < files.length; index++) {
    const size = sizes[Math.min(index, sizes.length - 1)]!;
    chunks.push(files.slice(start, start + size));
    start += size;
  }
  return chunks;
}

let bundlerStarted = false;

/**
 * Starts esbuild's process now, for a compile about to bundle: it boots while the CLI reads the config and finds
 * the entry files. Once per process (esbuild's `initialize` may be called only once).
 */
export function startBundler(): void {
  if (bundlerStarted) return;
  bundlerStarted = true;
  import('esbuild')
    .then(
      ({ initialize }) => initialize({}),
      () => undefined,
    )
    .catch(() => undefined);
}

/** The first chunk of a compile, bundled ahead (bundleAhead), and the files and working directory it is for. */
let ahead: { readonly key: string; readonly bundle: Promise<Bundle> } | undefined;

const aheadKey = (files: readonly string[]) => JSON.stringify([process.cwd(), ...files.map((file) => resolve(file))]);

/**
 * Starts bundling the first chunk of `files` now, for a compile about to load them: the CLI calls it before it
 * loads the compiler's checks, so that esbuild works while Node does. Used only if the first chunk loadInChunks
 * bundles is the same files (a compile that reuses cached outputs loads others), from the same directory.
 */
export function bundleAhead(files: readonly string[]): void {
  const [first] = chunksOf(files);
  if (!first) return;
  const started = bundle(first);
  // Looked at when it is taken; one that is not taken must not be reported as an unhandled rejection.
  started.catch(() => undefined);
  ahead = { key: aheadKey(first), bundle: started };
}

/** The bundle started ahead for exactly these files, once. */
function takeAhead(files: readonly string[]): Promise<Bundle> | undefined {
  const found = ahead?.key === aheadKey(files) ? ahead.bundle : undefined;
  ahead = undefined;
  return found;
}

/** The syntax errors of the bundles after a failed one (each once, though every chunk importing a library repeats it). */
async function syntaxErrors(
  pending: Promise<Bundle> | undefined,
  later: readonly (readonly string[])[],
): Promise<Diagnostic[]> {
  const found: Diagnostic[] = [];
  const collect = async (work: Promise<Bundle> | undefined) => {
    try {
      await work;
    } catch (error) {
      if (error instanceof DiagnosticError) found.push(...error.diagnostics);
      else throw error;
    }
  };
  await collect(pending);
  // One after the other, each awaited as soon as it is asked for (none rejects unobserved).
  for (const files of later) await collect(bundle(files));
  return found;
}

/**
 * Loads entry files chunk by chunk (chunksOf), in their order: while this thread evaluates a chunk (and the
 * caller builds its documents), esbuild bundles the next one in its own process. One bundle at a time, so that
 * esbuild's threads leave the cores to this one (and to the other worker threads of a large compile). Shared
 * libraries are evaluated once per chunk, as in worker batches. Failures are those of one bundle: syntax errors
 * anywhere win over a definition that throws, each reported once, and nothing after a failed chunk is yielded.
 */
export async function* loadInChunks(files: readonly string[]): AsyncGenerator<LoadedModule[]> {
  const chunks = apartByCase(chunksOf(files));
  let next: Promise<Bundle> | undefined = takeAhead(chunks[0]!) ?? bundle(chunks[0]!);
  for (let index = 0; index < chunks.length; index++) {
    const pending = next!;
    // Asked for now, looked at in its turn (not reported as an unhandled rejection meanwhile).
    next = index + 1 < chunks.length ? bundle(chunks[index + 1]!) : undefined;
    next?.catch(() => undefined);
    let modules: LoadedModule[];
    try {
      modules = await evaluate(await pending);
    } catch (error) {
      const own =
        error instanceof DiagnosticError && error.diagnostics.every((d) => d.code !== 'definition-threw')
          ? error.diagnostics
          : [];
      const later = await syntaxErrors(next, chunks.slice(index + 2));
      if (own.length || later.length) throw new DiagnosticError(withoutRepeats([...own, ...later]));
      throw error;
    }
    yield modules;
  }
}

interface Metafile {
  inputs: Record<string, { imports: Array<{ path: string; external?: boolean }> }>;
}

interface GraphNode {
  readonly imports: readonly string[];
  /** The first import that is not a local file or pipewright (a package, a node: builtin). */
  readonly external: string | undefined;
}

/** Each bundled file's local imports (absolute paths) and whether it imports anything else. */
function importGraph(metafile: Metafile): Map<string, GraphNode> {
  const graph = new Map<string, GraphNode>();
  for (const [path, input] of Object.entries(metafile.inputs))
    graph.set(resolve(path), {
      imports: input.imports.filter((i) => !i.external).map((i) => resolve(i.path)),
      external: input.imports.find((i) => i.external && i.path !== OWN_ENTRY)?.path,
    });
  return graph;
}

function closure(
  graph: ReadonlyMap<string, GraphNode>,
  entry: string,
): { dependencies: string[]; impure: boolean; uncacheable?: string } {
  const seen = new Set<string>();
  let why: string | undefined;
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const node = graph.get(file);
    // A file esbuild did not report is not understood: never cache what depends on it.
    if (!node) why ??= `it depends on ${shown(file)}, which the bundler did not report`;
    else {
      // What a package or a builtin (node:fs, node:child_process, ...) gives it is not tracked.
      if (node.external) why ??= `${shown(file)} imports ${node.external}, which the cache cannot see into`;
      stack.push(...node.imports);
    }
  }
  return { dependencies: [...seen].sort(), impure: why !== undefined, ...(why ? { uncacheable: why } : {}) };
}

interface EsbuildLocation {
  file: string;
  /** 1-based. */
  line: number;
  /** 0-based; it and `length` count UTF-8 bytes (characters, for a line of ASCII). */
  column: number;
  length: number;
  lineText: string;
}

interface EsbuildMessage {
  text: string;
  location?: EsbuildLocation | null;
  notes?: Array<{ text: string }>;
}

/** esbuild's 0-based column made 1-based; the length, when there is one, as the end on the same line. */
const esbuildLocation = (loc: EsbuildLocation): SourceLocation => {
  const start = {
    file: loc.file === '<pipewright entries>' ? 'entries' : loc.file,
    line: loc.line,
    column: loc.column + 1,
  };
  return loc.length > 0 ? { ...start, endLine: loc.line, endColumn: loc.column + 1 + loc.length } : start;
};

function esbuildDiagnostics(error: unknown): Diagnostic[] {
  const messages = (error as { errors?: EsbuildMessage[] }).errors;
  if (!Array.isArray(messages)) throw error;
  return messages.map((message) => {
    const loc = message.location;
    const resolveHint = /Could not resolve/.test(message.text)
      ? 'check the path and the file extension; entries and their imports must exist'
      : 'fix the TypeScript syntax at this location';
    return {
      code: /Could not resolve/.test(message.text) ? 'unresolved-import' : 'syntax-error',
      severity: 'error' as const,
      message: message.text + (loc ? `\n    ${loc.lineText}\n    ${' '.repeat(loc.column)}^` : ''),
      path: [],
      ...(loc ? { location: esbuildLocation(loc) } : {}),
      hint: resolveHint,
    };
  });
}

/** A definition file threw while loading: point at the user's frame, not ours. */
function thrownDiagnostic(error: unknown, files: readonly string[]): Diagnostic {
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  const message = error instanceof Error ? error.message : String(error);
  // Without a frame of theirs (a value thrown that is no Error): the batch's file when it has one, else its files in the message.
  const location: DiagnosticLocation | undefined =
    firstUserFrame(stack) ?? (files.length === 1 ? { file: files[0]! } : undefined);
  return {
    code: 'definition-threw',
    severity: 'error',
    message: `loading the definitions${location ? '' : ` (${files.join(', ')})`} threw: ${message}`,
    path: [],
    ...(location ? { location } : {}),
    hint: 'fix the code at this location; run with --debug to see the whole stack',
  };
}
