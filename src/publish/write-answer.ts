import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { dottedPath, valueAt } from '../core/document-path.js';
import { kindApi } from './endpoints.js';
import { ApiError, type Envelope } from './envelope.js';

/**
 * A create or update that answered 200 SUCCESS still may have stored nothing: a governance (OPA) policy that
 * denies it answers 200 with `governanceMetadata.deny: true` and no entity (platform-facts-2.md §4.2). This
 * checks the answer carries what was written, and says why when it does not.
 */

type Json = Record<string, unknown>;
const asObject = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const asText = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Policy sets that denied, and their deny messages; each once, in the answer's order. */
export function describeDenial(governance: Json): { message: string; policySets: string[] } {
  const sets: string[] = [];
  const messages: string[] = [];
  const add = (into: string[], text: string | undefined) => text && !into.includes(text) && into.push(text);
  for (const entry of list(governance.details)) {
    const set = asObject(entry);
    if (!set || set.deny === false) continue;
    // A name a person recognises; the opaque policySetId is left out.
    add(sets, asText(set.policySetName) ?? asText(set.name) ?? asText(set.identifier));
    for (const policy of list(set.policyMetadata ?? set.policies)) {
      const p = asObject(policy);
      for (const text of list(p?.denyMessages)) add(messages, asText(text));
      if (!list(p?.denyMessages).length && p && (p.status === 'error' || p.status === 'ERROR' || p.deny === true))
        add(messages, asText(p.policyName) ? `policy ${asText(p.policyName)} failed` : undefined);
    }
  }
  if (!messages.length) add(messages, asText(governance.message));
  return { message: messages.length ? messages.join('; ') : 'the answer gives no reason', policySets: sets };
}

/** Whether `data` holds the written entity where the kind's answer keeps it (an object, or the identifier). */
function hasEntity(kind: ResourceKind, data: unknown): boolean {
  return kindApi(kind).written.some((path) => {
    const value = valueAt(data, dottedPath(path));
    return asObject(value) !== undefined || asText(value) !== undefined;
  });
}

/** `data.connector`, `an identifier`: what a write's answer should have held, for the message. */
function expected(kind: ResourceKind): string {
  const objects = kindApi(kind).written.filter((path) => path !== '' && path !== 'identifier');
  return objects.length ? objects.map((path) => `data.${path}`).join(' or ') : 'an identifier';
}

/** Throws unless the SUCCESS answer to a write holds the entity and no policy denied it. */
export function checkWritten(kind: ResourceKind, envelope: Envelope, request: string): void {
  const data = asObject(envelope.data);
  const governance = asObject(data?.governanceMetadata);
  const details = { request, ...(envelope.correlationId ? { correlationId: envelope.correlationId } : {}) };
  if (governance?.deny === true) {
    const { message, policySets } = describeDenial(governance);
    const sets = policySets.length ? ` (policy set${policySets.length > 1 ? 's' : ''} ${policySets.join(', ')})` : '';
    throw new ApiError(`denied by policy: ${message}${sets}; nothing was stored`, { kind: 'denied', status: 200, ...details });
  }
  if (!hasEntity(kind, envelope.data)) {
    const got = envelope.data === null || envelope.data === undefined ? 'no data' : `data with ${Object.keys(data ?? {}).sort().join(', ') || 'nothing in it'}`;
    throw new ApiError(`the platform answered 200 SUCCESS without the ${kindRow(kind).label} (${expected(kind)} expected, ${got}): it is not counted as stored`, {
      kind: 'rejected',
      status: 200,
      ...details,
    });
  }
}
