import { createHash } from 'node:crypto';
import type { ResourceKind } from '../schema/index.js';
import type { ResourceKey } from './validate.js';

/** Output folder of each kind, in publish order. */
export const KIND_FOLDERS: Readonly<Record<ResourceKind, string>> = {
  project: 'projects',
  connector: 'connectors',
  pipeline: 'pipelines',
};

/**
 * Where a resource's YAML goes inside the output folder:
 * `projects/<org>/<id>.yaml`, `connectors/<org or _>/<project or _>/<id>.yaml`, `pipelines/<org>/<project>/<id>.yaml`.
 */
export function outputPath(key: ResourceKey): string {
  const org = key.org ?? '_';
  switch (key.kind) {
    case 'project':
      return `projects/${org}/${key.identifier}.yaml`;
    case 'connector':
      return `connectors/${org}/${key.project ?? '_'}/${key.identifier}.yaml`;
    case 'pipeline':
      return `pipelines/${org}/${key.project ?? '_'}/${key.identifier}.yaml`;
  }
}

export const MANIFEST_FILE = 'manifest.json';

export interface ManifestEntry {
  /** Path inside the output folder, with `/`. */
  readonly file: string;
  readonly kind: ResourceKind;
  readonly org?: string;
  readonly project?: string;
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
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

const KIND_ORDER: readonly ResourceKind[] = ['project', 'connector', 'pipeline'];

/** Manifest entries in publish order (projects, connectors, pipelines), then by path. */
export function createManifest(entries: readonly ManifestEntry[]): Manifest {
  const files = [...entries].sort(
    (a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
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
