import type { DocPath } from '../core/document-path.js';
import { kindRow, RESOURCE_KINDS, type ResourceKind } from '../catalog/kinds.js';
import { keyOf, type ResourceKey } from '../catalog/resource-key.js';
import type { SourceSite } from '../core/source-site.js';
import type { Suppression } from '../core/diagnostics.js';

/**
 * What a node is. A resource document is a `pipeline` or a `resource` (every other kind of the table: its wire
 * fields stay data); inside a pipeline, `stage`, `stepGroup`, `parallel` and `step`; `raw` is an element lift could
 * not place (a list entry that is no step, step group or parallel block).
 */
type NodeKind = 'pipeline' | 'resource' | 'stage' | 'stepGroup' | 'parallel' | 'step' | 'raw';

/** A mistake in a builder's options (an unknown or missing option), reported at the builder's call. */
export interface OptionIssue {
  readonly code: 'unknown-option' | 'missing-option';
  readonly message: string;
  readonly hint?: string;
  /** The option the user most likely meant (an unknown option close to a known one). */
  readonly suggestion?: string;
}

/** A builder given where another resource is named: checked by compile once all resources are known. */
export interface Reference {
  /** Where the reference is written, inside the node's body. */
  readonly path: DocPath;
  readonly target: AnyResource;
}

/** A node inside another: where its element sits in the parent's body, and where the user added it. */
export interface Child {
  readonly at: DocPath;
  readonly node: IrNode;
  /** The `.step(x)` call that put it in its list, when that is not where it was defined. */
  readonly use?: SourceSite;
  /** The child's body stands at `at` without its wrapper key (a template's part is written as its spec). */
  readonly unwrap?: boolean;
}

const IR_BRAND = Symbol.for('pipewright.ir');

/**
 * One node of the skeleton IR, the tree compile and validate both check. The structure a rule needs (kind,
 * identifier, type, children) is typed; the wire fields stay opaque data (`body`), with each child node
 * standing in place of its element, so `lower` has only to swap elements in.
 */
export interface IrNode {
  readonly [IR_BRAND]: true;
  readonly kind: NodeKind;
  /** The key the body is written under in its element (`step`, `stage`, `stepGroup`, `parallel`, a root key). */
  readonly wrapper?: string;
  readonly identifier?: string;
  readonly type?: string;
  /** Where the user's code made it (a builder call); undefined for a node read from YAML. */
  readonly site?: SourceSite;
  /** The wire fields, child nodes in place of their elements. */
  readonly body: unknown;
  readonly children: readonly Child[];
  readonly references: readonly Reference[];
  readonly issues: readonly OptionIssue[];
  /** A resource document's kind and identity, as the builder (or lift) knew them. */
  readonly resourceKind?: ResourceKind;
  readonly key?: ResourceKey;
  /** Codes accepted at this node and below it (a builder's `.suppress()`), with the user's reasons. */
  readonly suppressions?: readonly Suppression[];
}

/** What makes a node: its fields, the lists optional (empty when left out). */
export type NodeInit = Omit<IrNode, typeof IR_BRAND | 'children' | 'references' | 'issues'> &
  Partial<Pick<IrNode, 'children' | 'references' | 'issues'>>;

const NONE: readonly never[] = Object.freeze([]);

/** A frozen node (the body is the builder's fresh data, not frozen: freezing it deeply would cost a walk). */
export function irNode(init: NodeInit): IrNode {
  return Object.freeze({
    [IR_BRAND]: true as const,
    ...init,
    children: init.children ?? NONE,
    references: init.references ?? NONE,
    issues: init.issues ?? NONE,
  });
}

export const isIrNode = (value: unknown): value is IrNode =>
  typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[IR_BRAND] === true;

/** The node of a resource document beside pipelines: its wire fields as data, its identity from them (`keyOf`). */
export function resourceNode(
  kind: ResourceKind,
  body: Record<string, unknown>,
  init: Pick<NodeInit, 'site' | 'references' | 'issues' | 'children'>,
): IrNode {
  const key = keyOf(kind, body);
  const type = typeof body.type === 'string' && body.type !== '' ? body.type : undefined;
  return irNode({
    kind: 'resource',
    wrapper: kindRow(kind).rootKey,
    resourceKind: kind,
    key,
    identifier: key?.identifier,
    type,
    body,
    ...init,
  });
}

/** Children in a list of the body: `list[i]` for each node, at `[...at, i]`. */
export const childrenAt = (
  at: DocPath,
  nodes: readonly IrNode[],
  uses?: ReadonlyArray<SourceSite | undefined>,
): Child[] =>
  nodes.map((node, index) =>
    uses?.[index] ? { at: [...at, index], node, use: uses[index] } : { at: [...at, index], node },
  );

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
