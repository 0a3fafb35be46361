import type { Diagnostic } from '../core/diagnostics.js';
import type { DocPath } from '../core/document-path.js';
import type { ResourceKey } from '../catalog/resource-key.js';
import type { RuntimeInput } from '../check/rules-input-sets.js';
import type { ResourceKind } from '../schema/index.js';
import type { ManifestEntry } from './layout.js';

/** One document of an entry file, as plain data: what the checks across entries, the output and the cache need. */
export interface EntryDocument {
  readonly kind: ResourceKind;
  readonly key: ResourceKey;
  readonly exportName: string;
  /** Its manifest entry: output path, identity, source file, sha256 of `text`. */
  readonly output: ManifestEntry;
  /** The YAML file; empty when the entry has errors (nothing of a compile with errors is written), or when spooled. */
  readonly text: string;
  /** The file that holds the text instead (a worker batch's answer, kept off the heap: spool.ts). */
  readonly spooled?: string;
  /**
   * The output file's size, inode and modification time when it was last found to hold `output.sha256` (the
   * cache keeps it): while they stay so, a later compile reuses the file without reading it.
   */
  readonly outputStat?: string;
  /** Reused because its output file's stat is `outputStat`: `text` was not read, the file stays as it is. */
  readonly asItIs?: true;
  /** Its builder references: the key each names, and where it is written (see `referenceTargets`). */
  readonly references: ReadonlyArray<{ readonly target: ResourceKey; readonly path: DocPath }>;
  /**
   * What the check across entries needs of a document beyond its key, so compile never reads its YAML back:
   * a built pipeline's runtime inputs (absent when not known: the cache keeps them only for pipelines that
   * input sets fill), an input set's whole document (input sets are few and small).
   */
  readonly runtimeInputs?: readonly RuntimeInput[];
  readonly inputSet?: unknown;
}

/**
 * The one unit of work of compile: an entry file's documents and its own diagnostics (everything but the checks
 * across entries), and what the cache keys it by. Made the same way in this thread and in a worker thread, and
 * read back from the cache (compile-cache.ts), which stores exactly this (texts stay in the output folder).
 */
export interface EntryResult {
  /** The entry file, relative to the working directory, with `/`. */
  readonly file: string;
  readonly documents: readonly EntryDocument[];
  readonly diagnostics: readonly Diagnostic[];
  /** Absolute paths of the local files it imports, itself included, transitively. */
  readonly dependencies: readonly string[];
  /** Environment variables it and its files read while loading and building: name -> value, null when unset. */
  readonly environment?: Readonly<Record<string, string | null>>;
  /** Why it cannot be cached (it imports a package or a builtin, enumerates the environment, ...). */
  readonly uncacheable?: string;
}
