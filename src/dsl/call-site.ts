import { randomUUID } from 'node:crypto';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The library's own code: dist/, and src/ (under the tests, or when dist's source maps point back to it).
 * Its frames are never the user's call site.
 */
const PACKAGE_DIR = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const LIBRARY_DIRS = [join(PACKAGE_DIR, 'dist') + sep, join(PACKAGE_DIR, 'src') + sep];

const FRAME = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?$/;

/**
 * Where the user's code created a node. Capturing is cheap (V8 keeps structured frames); the text is
 * formatted and parsed only when a diagnostic asks for it, so thousands of builders cost little.
 */
export class SourceSite {
  readonly #holder: { stack?: string };
  #cached: string | null | undefined;

  constructor(holder: { stack?: string }) {
    this.#holder = holder;
  }

  /** `file:line:col` relative to the working directory, or undefined when no user frame was found. */
  get location(): string | undefined {
    if (this.#cached === undefined) this.#cached = firstUserFrame(this.#holder.stack ?? '');
    return this.#cached ?? undefined;
  }

  toString(): string {
    return this.location ?? '<unknown>';
  }
}

/**
 * Frames kept of a builder call's stack. The user's frame is the first above the builder, or a few more when
 * helpers of theirs (or a package's) wrap it; the rest is Node's module machinery. V8 keeps each frame as an
 * object until the text is asked for: ten frames for each of 36 000 builders were 19 MB of a 500-file batch.
 */
const SITE_FRAMES = 6;

let capturing = true;
const NO_SITE = new SourceSite({});

/**
 * Runs `work` with builders recording no call site (their location is then unknown). Compile builds entries this
 * way first and builds again, with call sites, only those whose documents have something to say: a capture
 * costs a few microseconds, times every builder call of every file.
 */
export async function withoutCallSites<T>(work: () => Promise<T>): Promise<T> {
  const was = capturing;
  capturing = false;
  try {
    return await work();
  } finally {
    capturing = was;
  }
}

/** Whether builders record their call sites now (not inside `withoutCallSites`). */
export const capturingSites = (): boolean => capturing;

/** Records the caller of `cutoff` (the factory the user called), skipping frames inside the library. */
export function captureSite(cutoff: Function): SourceSite {
  if (!capturing) return NO_SITE;
  const holder: { stack?: string } = {};
  // A lower limit set by the caller stays (import's evaluation captures none).
  const limit = Error.stackTraceLimit;
  if (limit > SITE_FRAMES) Error.stackTraceLimit = SITE_FRAMES;
  Error.captureStackTrace(holder, cutoff);
  Error.stackTraceLimit = limit;
  return new SourceSite(holder);
}

/** The source maps of the bundles being evaluated (load-modules.ts): file -> map bytes, parsed when first needed. */
const bundleMaps = new Map<string, { readonly bytes: Uint8Array; parsed?: SourceMap }>();

/**
 * Frames in the bundle `file` lead to the user's files through its source map (`bytes`), until `forget` is called.
 * Compile maps the few frames it needs itself (a call site, a definition that throws or reads the environment)
 * rather than having Node parse every bundle's map when it loads it and map every stack of the process.
 */
export function mapBundleFrames(file: string, bytes: Uint8Array): { forget(): void } {
  bundleMaps.set(file, { bytes });
  return { forget: () => bundleMaps.delete(file) };
}

/**
 * The file name of a new bundle of definitions. Worker threads share the process id and may bundle in the same
 * millisecond: a name of its own each.
 */
export const bundleFileName = (): string => `bundle-${process.pid}-${randomUUID()}.mjs`;
const BUNDLE_FILE = /[\\/]bundle-\d+-[0-9a-f-]{36}\.mjs$/;

/**
 * A frame as the user's file, line and column (1-based): a registered bundle's through its map; undefined for a
 * bundle's own glue, or a bundle whose map is gone (its frames are nobody's code).
 */
function mapped(file: string, line: number, column: number): { file: string; line: number; column: number } | undefined {
  const bundle = bundleMaps.get(file);
  if (!bundle) return BUNDLE_FILE.test(file) ? undefined : { file, line, column };
  bundle.parsed ??= new SourceMap(JSON.parse(new TextDecoder().decode(bundle.bytes)) as ConstructorParameters<typeof SourceMap>[0]);
  const entry = bundle.parsed.findEntry(line - 1, column - 1) as Partial<{ generatedLine: number; originalSource: string; originalLine: number; originalColumn: number }>;
  if (entry.originalSource === undefined || entry.generatedLine !== line - 1) return undefined;
  return { file: resolve(dirname(file), entry.originalSource), line: entry.originalLine! + 1, column: entry.originalColumn! + 1 };
}

/** A stack line's frame: the location as written in it, and the file (a path), line and column it names. */
function frameOf(text: string): { written: string; file: string; line: number; column: number } | undefined {
  const match = FRAME.exec(text.trim());
  if (!match) return undefined;
  const [, written, line, column] = match as unknown as [string, string, string, string];
  return { written: `${written}:${line}:${column}`, file: written.startsWith('file://') ? fileURLToPath(written) : written, line: Number(line), column: Number(column) };
}

/** A stack with the frames of registered bundles written as the user's files and lines (for --debug). */
export function mappedStack(stack: string): string {
  return stack
    .split('\n')
    .map((text) => {
      const frame = frameOf(text);
      if (!frame || !bundleMaps.has(frame.file)) return text;
      const at = mapped(frame.file, frame.line, frame.column);
      return at ? text.replace(frame.written, `${at.file}:${at.line}:${at.column}`) : text;
    })
    .join('\n');
}

/** The first frame of a stack outside the library and node_modules, as `file:line:col`. */
export function firstUserFrame(stack: string): string | null {
  for (const text of stack.split('\n').slice(1)) {
    const frame = frameOf(text);
    const at = frame && mapped(frame.file, frame.line, frame.column);
    if (!at) continue;
    if (at.file.startsWith('node:') || at.file.includes(`${sep}node_modules${sep}`)) continue;
    if (LIBRARY_DIRS.some((dir) => at.file.startsWith(dir))) continue;
    const shown = relative(process.cwd(), at.file).split(sep).join('/');
    return `${shown.startsWith('..') ? at.file : shown}:${at.line}:${at.column}`;
  }
  return null;
}
