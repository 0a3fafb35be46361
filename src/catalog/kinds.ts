/**
 * The one table of resource kinds: each kind of document pipewright compiles, validates, imports and
 * publishes is one row. Everything that differs by kind and is plain data lives here (root key, output folder,
 * publish order, scopes, identity fields); schemas, builders and endpoints look their kind up by `kind`.
 */

import { isRecord } from '../core/is-record.js';

/** Where a kind may live: at account level (neither org nor project), in an org, or in a project. */
type ScopeLevel = 'account' | 'org' | 'project';

export interface KindRow {
  /** The kind's name in pipewright (manifest entries, diagnostics, `Resource` brands). */
  readonly kind: string;
  /** The document's root key on the platform (`pipeline:`, `infrastructureDefinition:`). */
  readonly rootKey: string;
  /** How messages name one of them, and several. */
  readonly label: string;
  readonly plural: string;
  /** The folder of the compiled output; the table's order is the publish order. */
  readonly folder: string;
  /** The scopes the platform accepts for it (the first is what a bare builder gets). */
  readonly scopes: readonly ScopeLevel[];
  /**
   * A field of the body naming the resource this one belongs to, part of its identity on the platform
   * (an input set's pipeline, an infrastructure's environment): a dotted path inside the root key's object.
   */
  readonly parent?: string;
  /** A field of the body that versions it (a template's `versionLabel`): part of its identity too. */
  readonly version?: string;
}

export const KINDS = [
  { kind: 'project', rootKey: 'project', label: 'project', plural: 'projects', folder: 'projects', scopes: ['org'] },
  {
    kind: 'connector',
    rootKey: 'connector',
    label: 'connector',
    plural: 'connectors',
    folder: 'connectors',
    scopes: ['account', 'org', 'project'],
  },
  {
    kind: 'service',
    rootKey: 'service',
    label: 'service',
    plural: 'services',
    folder: 'services',
    scopes: ['project', 'org', 'account'],
  },
  {
    kind: 'environment',
    rootKey: 'environment',
    label: 'environment',
    plural: 'environments',
    folder: 'environments',
    scopes: ['project', 'org', 'account'],
  },
  {
    kind: 'infrastructure',
    rootKey: 'infrastructureDefinition',
    label: 'infrastructure definition',
    plural: 'infrastructure definitions',
    folder: 'infrastructures',
    scopes: ['project', 'org', 'account'],
    parent: 'environmentRef',
  },
  {
    kind: 'template',
    rootKey: 'template',
    label: 'template',
    plural: 'templates',
    folder: 'templates',
    scopes: ['project', 'org', 'account'],
    version: 'versionLabel',
  },
  {
    kind: 'pipeline',
    rootKey: 'pipeline',
    label: 'pipeline',
    plural: 'pipelines',
    folder: 'pipelines',
    scopes: ['project'],
  },
  {
    kind: 'inputSet',
    rootKey: 'inputSet',
    label: 'input set',
    plural: 'input sets',
    folder: 'input-sets',
    scopes: ['project'],
    parent: 'pipeline.identifier',
  },
  {
    kind: 'overlayInputSet',
    rootKey: 'overlayInputSet',
    label: 'overlay input set',
    plural: 'overlay input sets',
    folder: 'overlay-input-sets',
    scopes: ['project'],
    parent: 'pipelineIdentifier',
  },
  {
    kind: 'trigger',
    rootKey: 'trigger',
    label: 'trigger',
    plural: 'triggers',
    folder: 'triggers',
    scopes: ['project'],
    parent: 'pipelineIdentifier',
  },
] as const satisfies readonly KindRow[];

export type ResourceKind = (typeof KINDS)[number]['kind'];

/** Every kind, in publish order. */
export const RESOURCE_KINDS: readonly ResourceKind[] = KINDS.map((row) => row.kind);

const BY_KIND = new Map<string, KindRow>(KINDS.map((row) => [row.kind, row]));
const BY_ROOT = new Map<string, KindRow>(KINDS.map((row) => [row.rootKey, row]));

export const kindRow = (kind: ResourceKind): KindRow => BY_KIND.get(kind)!;

/** The row whose root key a document has; undefined for anything else. */
export function kindOfDocument(document: unknown): ResourceKind | undefined {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return undefined;
  for (const key of Object.keys(document)) {
    const kind = kindOfRootKey(key);
    if (kind) return kind;
  }
  return undefined;
}

/** The kind whose documents have this root key (`pipeline` -> pipeline). */
export const kindOfRootKey = (key: string): ResourceKind | undefined =>
  BY_ROOT.get(key)?.kind as ResourceKind | undefined;

/** `pipeline:, connector: or project:`: the root keys, for messages. */
export const rootKeyList = (separator = ', ', last = ' or '): string => {
  const keys = KINDS.map((row) => row.rootKey);
  return `${keys.slice(0, -1).join(separator)}${last}${keys.at(-1)}`;
};

/**
 * Root keys of the platform's other documents (secrets, overrides, variables, users, ...): kinds pipewright does
 * not manage. validate, import and the language server name them as such, with one warning, rather than as YAML
 * that is not the platform's (docs/fidelity.md, "Documents pipewright does not manage").
 */
const UNMANAGED_ROOT_KEYS: ReadonlySet<string> = new Set([
  'secret',
  'overrides',
  'variable',
  'user',
  'userGroup',
  'serviceAccount',
  'policy',
  'monitoredService',
  'featureFlag',
]);

/** The root key of a document of a platform kind pipewright does not manage (`secret`), if it is one. */
export function unmanagedRootKey(document: unknown): string | undefined {
  if (!isRecord(document) || kindOfDocument(document)) return undefined;
  return Object.keys(document).find((key) => UNMANAGED_ROOT_KEYS.has(key));
}

/** Publish rank of a kind: earlier kinds are written first (a pipeline needs its connectors). */
export const publishRank = (kind: ResourceKind): number => RESOURCE_KINDS.indexOf(kind);
