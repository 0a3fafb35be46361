import { isAbsolute, normalize } from 'node:path';
import { publishRank, type ResourceKind } from '../catalog/kinds.js';

export const MANIFEST_FILE = 'manifest.json';

export interface ManifestEntry {
  /** Path inside the output folder, with `/`. */
  readonly file: string;
  readonly kind: ResourceKind;
  readonly org?: string;
  readonly project?: string;
  /** The resource it belongs to (an input set's pipeline, an infrastructure's environment), for kinds that have one. */
  readonly parent?: string;
  /** A template's `versionLabel`. */
  readonly version?: string;
  /** Publish makes this template version the stable one (not in the YAML). */
  readonly stable?: true;
  readonly identifier: string;
  /** The TypeScript file that defined it, relative to the working directory. */
  readonly source: string;
  /** sha256 of the file's bytes, hex. */
  readonly sha256: string;
}

export interface Manifest {
  readonly generator: 'pipewright';
  readonly version: 1;
  readonly files: readonly ManifestEntry[];
  /**
   * What `compile --keep-going` did not write (its source has errors, or it depends on such a document): publish
   * reads it so that a skipped resource is neither published nor taken as deleted (never pruned).
   */
  readonly skipped?: readonly SkippedEntry[];
}

/**
 * A document `compile --keep-going` skipped: its identity and output path when known (from its built document or
 * the previous manifest), else only the source that failed before it made any document.
 */
export interface SkippedEntry {
  readonly file?: string;
  readonly kind?: ResourceKind;
  readonly org?: string;
  readonly project?: string;
  readonly parent?: string;
  readonly version?: string;
  readonly identifier?: string;
  /** The TypeScript file that defines it, relative to the working directory. */
  readonly source: string;
  /** `invalid`: its source has errors; `depends-on-skipped`: it refers to a skipped document (`dependsOn`). */
  readonly reason: 'invalid' | 'depends-on-skipped';
  readonly dependsOn?: string;
}

export { sha256 } from '../core/hash.js';

/** Manifest entries in publish order (projects, connectors, pipelines), then by path. */
export function createManifest(entries: readonly ManifestEntry[]): Manifest {
  const files = [...entries].sort(
    (a, b) => publishRank(a.kind) - publishRank(b.kind) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
  );
  return { generator: 'pipewright', version: 1, files };
}

export const manifestText = (manifest: Manifest): string => `${JSON.stringify(manifest, null, 2)}\n`;

/** Parses a manifest; undefined when the text is not one of ours. */
export function parseManifest(text: string): Manifest | undefined {
  try {
    const value = JSON.parse(text) as Partial<Manifest>;
    return value.generator === 'pipewright' && Array.isArray(value.files) ? (value as Manifest) : undefined;
  } catch {
    return undefined;
  }
}

/** Refuses manifest paths that leave the folder: a manifest is input, and input can be hostile. */
export function entryInsideFolder(entry: ManifestEntry): boolean {
  if (typeof entry.file !== 'string') return false;
  const path = normalize(entry.file);
  return !isAbsolute(path) && !path.startsWith('..') && path.endsWith('.yaml');
}
