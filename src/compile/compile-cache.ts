import { createHash } from 'node:crypto';
import { readFileSync, statSync, type Stats } from 'node:fs';
import { readdir, readFile, rename, stat, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EntryDocument, EntryResult } from './entry-result.js';
import { keyId } from '../catalog/resource-key.js';
import { cacheDir } from './load-modules.js';

/**
 * The incremental-compile cache: for each entry file, its EntryResult as the last compile made it, with the
 * content hashes of every local file it imports (itself included). An entry whose files all hash the same,
 * and whose outputs are still in the output folder with the recorded sha256, is not loaded, built,
 * validated or emitted again: its output text is read back from the folder. The environment variables its
 * files read are part of the key too (environment-reads.ts). Anything unknown (a package or node: import,
 * such as fs, a missing file, another pipewright build, other options) means "compile it".
 */
export interface CachedEntry {
  /** Absolute path -> sha256 of its bytes. */
  readonly dependencies: Readonly<Record<string, string>>;
  /** Environment variables the entry's files read (through process.env) -> value, null when unset. */
  readonly environment?: Readonly<Record<string, string | null>>;
  /** Its documents, without their text: the output folder has it. */
  readonly documents: ReadonlyArray<Omit<EntryDocument, 'text' | 'spooled' | 'asItIs'>>;
}

interface CacheFile {
  readonly fingerprint: string;
  readonly entries: Readonly<Record<string, CachedEntry>>;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const toPosix = (path: string) => path.split(sep).join('/');

/** This build of pipewright: its compiled files' sizes and times, so a rebuilt compiler never reuses old output. */
async function ownBuild(): Promise<string> {
  const root = dirname(dirname(fileURLToPath(import.meta.url)));
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  const stats = await Promise.all(files.map(async (file) => ({ file, s: await stat(file) })));
  return stats.map(({ file, s }) => `${relative(root, file)}:${s.size}:${s.mtimeMs}`).join('\n');
}

/** Everything besides the definitions that decides the output. */
export async function fingerprint(outDir: string, options: unknown): Promise<string> {
  return sha256(JSON.stringify([process.cwd(), resolve(outDir), options, process.version, await ownBuild()]));
}

const cacheFile = (outDir: string): string =>
  join(cacheDir(process.cwd()), `compile-${sha256(`${process.cwd()}\0${resolve(outDir)}`).slice(0, 16)}.json`);

/**
 * Reads a small file whole, or undefined. Synchronous on purpose: for thousands of small files the
 * promise API's several thread-pool round trips per file cost 0.4 s at 1000 pipelines, the sync read 0.06 s.
 */
function readSmall(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Content hashes of files (by absolute path), each read once per compile: a file whose content is asked for
 * first (`mayDefineInputSets` scans entry files before they are built) is hashed by that read, so the hash the
 * cache records is of the text before the build; a file changed during the build is built again next time.
 */
export class FileHashes {
  readonly #hashes = new Map<string, string | undefined>();

  get(file: string): string | undefined {
    if (!this.#hashes.has(file)) this.contents(file);
    return this.#hashes.get(file);
  }

  /** The file's bytes (undefined when it cannot be read), its hash kept for `get`. */
  contents(file: string): Buffer | string | undefined {
    const bytes = readSmall(file);
    this.#hashes.set(file, bytes && sha256(bytes));
    return bytes;
  }
}

/** A file's text and the sha256 of it, or undefined when it cannot be read. */
export type TextReader = (path: string) => { readonly text: string; readonly sha256: string } | undefined;

const readText: TextReader = (path) => {
  const text = readSmall(path)?.toString('utf8');
  return text === undefined ? undefined : { text, sha256: sha256(text) };
};

/** What tells a file changed without reading it: size, inode and modification time (nanoseconds on most file systems). */
const statKey = (stats: Stats | undefined): string | undefined =>
  stats && `${stats.size}:${stats.ino}:${stats.mtimeMs}`;
const statOf = (path: string): Stats | undefined => statSync(path, { throwIfNoEntry: false });

/**
 * What a long-running process (`compile --watch`) keeps from one compile to the next, so that a compile after
 * one saved file does not read and hash every definition and output file again: hashes and texts of the
 * files it read, each trusted while the file's size, inode and modification time are unchanged; the cache
 * record it wrote; the fingerprint of its own build (the running code cannot change).
 */
export class CompileSession {
  readonly #files = new Map<string, { key: string; value: ReturnType<TextReader>; compile: number }>();
  /** Which compile this is: a file checked once in a compile is not checked again in it (its outputs are read twice). */
  #compile = 0;
  readonly #prints = new Map<string, string>();
  #record: { file: string; key: string | undefined; print: string; entries: Record<string, CachedEntry> } | undefined;

  /** `readText`, remembered while the file's stat is unchanged. */
  readonly read: TextReader = (path) => {
    const known = this.#files.get(path);
    if (known?.compile === this.#compile) return known.value;
    const key = statKey(statOf(path));
    if (key === undefined) return undefined;
    const value = known?.key === key ? known.value : readText(path);
    this.#files.set(path, { key, value, compile: this.#compile });
    return value;
  };

  /** A new compile starts: every file is checked again (once). */
  begin(): void {
    this.#compile++;
  }

  /** Hashes of definition files, by `read`. */
  hashes(): FileHashes {
    const read = this.read;
    return new (class extends FileHashes {
      override get(file: string): string | undefined {
        return read(file)?.sha256;
      }

      override contents(file: string): string | undefined {
        return read(file)?.text;
      }
    })();
  }

  async fingerprint(outDir: string, options: unknown): Promise<string> {
    const id = JSON.stringify([resolve(outDir), options]);
    if (!this.#prints.has(id)) this.#prints.set(id, await fingerprint(outDir, options));
    return this.#prints.get(id)!;
  }

  /** The record this session wrote last, while the cache file is as it left it. */
  cached(outDir: string, print: string): Record<string, CachedEntry> | undefined {
    const record = this.#record;
    const file = cacheFile(outDir);
    return record && record.file === file && record.print === print && record.key === statKey(statOf(file))
      ? record.entries
      : undefined;
  }

  remember(outDir: string, print: string, entries: Record<string, CachedEntry>): void {
    const file = cacheFile(outDir);
    this.#record = { file, key: statKey(statOf(file)), print, entries };
  }
}

/** The previous compile's record, when it was made by this build with these options. */
export async function readCache(outDir: string, print: string): Promise<Record<string, CachedEntry>> {
  try {
    const cache = JSON.parse(await readFile(cacheFile(outDir), 'utf8')) as CacheFile;
    return cache.fingerprint === print && typeof cache.entries === 'object' && cache.entries !== null
      ? cache.entries
      : {};
  } catch {
    return {};
  }
}

/**
 * The cached entry as an EntryResult, if its files are unchanged and its outputs are intact; else undefined. An
 * output is intact when it hashes to the recorded sha256, or, without being read, when its stat is the one
 * recorded when it last did (as git's index trusts a file's stat): reading and hashing 1000 outputs was most of a
 * compile with nothing changed (docs/performance.md).
 */
export function reusable(
  file: string,
  entry: CachedEntry,
  outDir: string,
  hashes: FileHashes,
  read: TextReader = readText,
): EntryResult | undefined {
  for (const [dependency, hash] of Object.entries(entry.dependencies))
    if (hashes.get(dependency) !== hash) return undefined;
  for (const [name, value] of Object.entries(entry.environment ?? {}))
    if ((process.env[name] ?? null) !== value) return undefined;
  const documents: EntryDocument[] = [];
  for (const document of entry.documents) {
    const path = join(outDir, document.output.file);
    // Taken before the read: a file changed after it has another stat next time, and is read again then.
    const stat = statKey(statOf(path));
    if (stat !== undefined && stat === document.outputStat) {
      documents.push({ ...document, text: '', asItIs: true });
      continue;
    }
    const found = read(path);
    if (found === undefined || found.sha256 !== document.output.sha256) return undefined;
    documents.push({ ...document, text: found.text, ...(stat === undefined ? {} : { outputStat: stat }) });
  }
  const environment = entry.environment ? { environment: entry.environment } : {};
  return { file, documents, diagnostics: [], dependencies: Object.keys(entry.dependencies), ...environment };
}

/**
 * What the cache keeps of an entry: undefined when it cannot be kept (a file it imports is gone, or unreadable).
 * A pipeline's runtime inputs are kept only when an input set fills it (`filled`, by `keyId`): they are most of
 * what a pipeline would add to the cache, which every compile reads.
 */
export function cachedEntry(
  result: EntryResult,
  hashes: FileHashes,
  filled: ReadonlySet<string>,
): CachedEntry | undefined {
  const dependencies: Record<string, string> = {};
  for (const dependency of result.dependencies) {
    const hash = hashes.get(dependency);
    if (hash === undefined) return undefined;
    dependencies[dependency] = hash;
  }
  const documents = result.documents.map(
    ({ text: _text, spooled: _spooled, asItIs: _asItIs, runtimeInputs, ...document }) =>
      runtimeInputs && filled.has(keyId(document.key)) ? { ...document, runtimeInputs } : document,
  );
  return {
    dependencies,
    ...(result.environment && Object.keys(result.environment).length > 0 ? { environment: result.environment } : {}),
    documents,
  };
}

/** Records what this compile produced; written beside the bundle cache, replaced atomically. */
export async function writeCache(outDir: string, print: string, entries: Record<string, CachedEntry>): Promise<void> {
  const target = cacheFile(outDir);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(target), { recursive: true });
    await writeFile(temporary, JSON.stringify({ fingerprint: print, entries } satisfies CacheFile));
    await rename(temporary, target);
  } catch {
    // A cache that cannot be written only costs the next compile its shortcut.
  }
}

/** The cache key of an entry file: its path relative to the working directory, with `/`. */
export const entryKey = (file: string): string => toPosix(relative(process.cwd(), resolve(file)));
