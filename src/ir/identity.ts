import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { irNode, type IrNode, type NodeInit, type ResourceKey } from './node.js';
import { isRecord } from '../core/is-record.js';

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A dotted path inside a record: `pipeline.identifier`. */
const fieldAt = (body: Record<string, unknown>, dotted: string): unknown =>
  dotted.split('.').reduce<unknown>((value, key) => (isRecord(value) ? value[key] : undefined), body);

/**
 * The identity of a resource from its body (the fields under the root key): kind, scope, owner, version and
 * identifier, as the table of kinds says. Builders and lift make their node's key with it.
 */
export function keyOfBody(kind: ResourceKind, body: unknown): ResourceKey | undefined {
  const row = kindRow(kind);
  if (!isRecord(body) || typeof body.identifier !== 'string') return undefined;
  const org = text(body.orgIdentifier);
  const project = row.scopes.includes('project') ? text(body.projectIdentifier) : undefined;
  const parent = row.parent ? text(fieldAt(body, row.parent)) : undefined;
  const version = row.version ? text(fieldAt(body, row.version)) : undefined;
  return {
    kind,
    identifier: body.identifier,
    ...(org ? { org } : {}),
    ...(project ? { project } : {}),
    ...(parent ? { parent } : {}),
    ...(version ? { version } : {}),
  };
}

/** The identity of a wire document of `kind` (its body under the kind's root key). */
export const keyOfDocument = (kind: ResourceKind, document: unknown): ResourceKey | undefined =>
  keyOfBody(kind, isRecord(document) ? document[kindRow(kind).rootKey] : undefined);

/** The node of a resource document beside pipelines: its wire fields as data, its identity from them. */
export function resourceNode(
  kind: ResourceKind,
  body: Record<string, unknown>,
  init: Pick<NodeInit, 'site' | 'references' | 'issues' | 'children'>,
): IrNode {
  const key = keyOfBody(kind, body);
  return irNode({ kind: 'resource', wrapper: kindRow(kind).rootKey, resourceKind: kind, key, identifier: key?.identifier, type: text(body.type), body, ...init });
}
