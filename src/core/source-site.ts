import { fileURLToPath } from 'node:url';
import { dirname, join, relative, sep } from 'node:path';
import { formatLocation, type SourceLocation } from './source-location.js';

/**
 * The library's own code: dist/, and src/ (under the tests, or when dist's source maps point back to it).
 * Its frames are never the user's call site.
 */
const PACKAGE_DIR = dirname(dirname(dirname(fileURLToPath(import.meta.url))));
const LIBRARY_DIRS = [join(PACKAGE_DIR, 'dist') + sep, join(PACKAGE_DIR, 'src') + sep];

/**
 * `at f (file:///p/a.ts:3:7)`: the file, line and column of a stack line. The file is a whole run of characters
 * other than blanks and parentheses (a `file://` one included): starting only where such a run starts keeps a
 * long line from being read again from each of its positions.
 */
const FRAME = /(?<![^\s()])([^\s()]+):(\d+):(\d+)\)?$/;

/**
 * Where the user's code created a node. Capturing is cheap (V8 keeps structured frames); the text is
 * formatted and parsed only when a diagnostic asks for it, so thousands of builders cost little.
 */
export class SourceSite {
  readonly #holder: { stack?: string };
  #cached: SourceLocation | null | undefined;

  constructor(holder: { stack?: string }) {
    this.#holder = holder;
  }

  /** The call's file (relative to the working directory), line and column, or undefined when no user frame was found. */
  get location(): SourceLocation | undefined {
    if (this.#cached === undefined) this.#cached = firstUserFrame(this.#holder.stack ?? '');
    return this.#cached ?? undefined;
  }

  toString(): string {
    const location = this.location;
    return location ? formatLocation(location) : '<unknown>';
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

/** `withoutCallSites` for synchronous work (import's evaluation of candidate code, which has no user call site). */
export function withoutCallSitesNow<T>(work: () => T): T {
  const was = capturing;
  capturing = false;
  try {
    return work();
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

/** A frame's place in the user's own file, or undefined when the frame is nobody's code (a bundle's glue). */
export type FrameMapper = (
  file: string,
  line: number,
  column: number,
) => { file: string; line: number; column: number } | undefined;

/**
 * How a frame of generated code leads to the user's file. Frames are taken as they are until compile's loader
 * registers the source maps of the bundles it evaluates (src/compile/bundle-maps.ts).
 */
let mapped: FrameMapper = (file, line, column) => ({ file, line, column });

export function setFrameMapper(mapper: FrameMapper): void {
  mapped = mapper;
}

/** A stack line's frame: the location as written in it, and the file (a path), line and column it names. */
export function frameOf(text: string): { written: string; file: string; line: number; column: number } | undefined {
  const match = FRAME.exec(text.trim());
  if (!match) return undefined;
  const [, written, line, column] = match as unknown as [string, string, string, string];
  return {
    written: `${written}:${line}:${column}`,
    file: written.startsWith('file://') ? fileURLToPath(written) : written,
    line: Number(line),
    column: Number(column),
  };
}

/** Where the first frame of a stack outside the library and node_modules points (no end: a call is a point). */
export function firstUserFrame(stack: string): SourceLocation | null {
  for (const text of stack.split('\n').slice(1)) {
    const frame = frameOf(text);
    const at = frame && mapped(frame.file, frame.line, frame.column);
    if (!at) continue;
    if (at.file.startsWith('node:') || at.file.includes(`${sep}node_modules${sep}`)) continue;
    if (LIBRARY_DIRS.some((dir) => at.file.startsWith(dir))) continue;
    const shown = relative(process.cwd(), at.file).split(sep).join('/');
    return { file: shown.startsWith('..') ? at.file : shown, line: at.line, column: at.column };
  }
  return null;
}
