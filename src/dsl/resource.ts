import { RESOURCE_KINDS, type ResourceKind } from '../catalog/kinds.js';
import type { IrNode } from '../ir/node.js';
import type { SourceSite } from './call-site.js';

/**
 * Resources are recognised by this registered symbol, not `instanceof`: a repo can end up with two
 * copies of pipewright, and a pipeline built by one must still compile with the other.
 */
export const RESOURCE_BRAND = Symbol.for('pipewright.resource');

/** Where a resource lives: account level has neither, org level only `org`. */
export interface Scope {
  readonly org?: string;
  readonly project?: string;
}

export interface Resource<K extends ResourceKind = ResourceKind, Doc = unknown> {
  readonly [RESOURCE_BRAND]: K;
  readonly identifier: string;
  readonly scope: Scope;
  readonly site: SourceSite;
  /** Its node in the IR: identity, source site, references, option mistakes, and the wire fields as data. */
  toNode(): IrNode;
  /** The wire document (`lower(toNode())`). */
  toDocument(): Doc;
  /** What publish must do beyond sending the document, kept in the manifest (a template version made the stable one). */
  readonly publishFlags?: PublishFlags;
}

/** Settings of a resource on the platform that are not in its YAML (platform-facts-2.md §6: a template's stable version). */
export interface PublishFlags {
  readonly stable?: true;
}

export type AnyResource = Resource<ResourceKind, unknown>;

export const isResource = (value: unknown): value is AnyResource =>
  typeof value === 'object' &&
  value !== null &&
  (RESOURCE_KINDS as readonly string[]).includes((value as Record<symbol, unknown>)[RESOURCE_BRAND] as string);

export const kindOf = (resource: AnyResource): ResourceKind => resource[RESOURCE_BRAND];
