import { fileURLToPath } from 'node:url';
import { dirname, join, relative, sep } from 'node:path';

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

/** The first frame of a stack outside the library and node_modules, as `file:line:col`. */
export function firstUserFrame(stack: string): string | null {
  for (const line of stack.split('\n').slice(1)) {
    const match = FRAME.exec(line.trim());
    if (!match) continue;
    let file = match[1]!;
    if (file.startsWith('file://')) file = fileURLToPath(file);
    if (file.startsWith('node:') || file.includes(`${sep}node_modules${sep}`)) continue;
    if (LIBRARY_DIRS.some((dir) => file.startsWith(dir))) continue;
    const shown = relative(process.cwd(), file).split(sep).join('/');
    return `${shown.startsWith('..') ? file : shown}:${match[2]}:${match[3]}`;
  }
  return null;
}
