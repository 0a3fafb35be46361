import { keyOf } from '../../src/catalog/resource-key.js';
import { newFile } from './emulator-git.js';
import { bodyOf, kindOf, type Doc } from './emulator-output.js';
import type { Emulator } from './emulator.js';

/**
 * Fills the emulator with documents as if they had been made in the platform's UI (no write is counted): what pull
 * tests and the pull bench read back.
 */

export interface SeedOptions {
  /** Keep it as a file in Git (pipelines and their input sets, templates, services, environments, infrastructures): connector, repository, branch, file. */
  readonly git?: {
    readonly connectorRef: string;
    readonly repoName: string;
    readonly branch: string;
    readonly filePath: string;
  };
  /** Templates: the stable version. */
  readonly stable?: boolean;
  /** The YAML text the platform serves (default: the document written by `yaml`). */
  readonly raw?: string;
  /** `'1'`: a pipeline in the v1 syntax (`raw` is its text). */
  readonly yamlVersion?: string;
}

export function seedDocument(emulator: Emulator, doc: Doc, options: SeedOptions = {}): void {
  const kind = kindOf(doc);
  const body = bodyOf(doc) as Record<string, unknown>;
  const key = keyOf(kind, body);
  if (!key) throw new Error(`seedDocument: the ${kind} has no identifier`);
  emulator.seed({
    kind,
    identifier: key.identifier,
    ...(key.org ? { org: key.org } : {}),
    ...(key.project ? { project: key.project } : {}),
    ...(key.parent ? { parent: key.parent } : {}),
    ...(key.version ? { versionLabel: key.version } : {}),
    ...(options.stable ? { stable: true } : {}),
    ...(options.raw ? { raw: options.raw } : {}),
    ...(options.yamlVersion ? { yamlVersion: options.yamlVersion } : {}),
    ...(options.git ? { git: newFile(options.git, JSON.stringify(body)) } : {}),
    body: structuredClone(body),
  });
}

export const seedDocuments = (emulator: Emulator, docs: readonly Doc[]): void =>
  docs.forEach((doc) => seedDocument(emulator, doc));
