import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { dottedPath, valueAt } from '../core/document-path.js';
import { kindApi } from './endpoints.js';
import { asRecord as asObject, asTrimmedText as asText } from './answers.js';
import { ApiError, type Envelope } from './envelope.js';
import { describeDenial, policySetsText } from './governance.js';

/**
 * A create or update that answered 200 SUCCESS still may have stored nothing: a governance (OPA) policy that
 * denies it answers 200 with `governanceMetadata.deny: true` and no entity (platform-facts-2.md §4.2). This
 * checks the answer carries what was written, and says why when it does not.
 */

/** `field: message` pairs of an `errors` map (`{ fqn: { field: message } }`, NGTriggerResponseDTO.errors). */
function errorsText(errors: unknown): string | undefined {
  const parts: string[] = [];
  const walk = (value: unknown, path: string) => {
    const text = asText(value);
    if (text) parts.push(path ? `${path}: ${text}` : text);
    const record = asObject(value);
    if (record) for (const [key, child] of Object.entries(record)) walk(child, key);
  };
  walk(errors, '');
  return parts.length ? parts.join('; ') : undefined;
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
    throw new ApiError(`denied by policy: ${message}${policySetsText(policySets)}; nothing was stored`, {
      kind: 'denied',
      status: 200,
      ...details,
    });
  }
  // A trigger whose YAML the platform could not take answers 200 with `errorResponse: true` and the errors, and
  // stores nothing (NGTriggerResourceImpl.java L130-131, NGTriggerElementMapper.java L506-521).
  if (data?.errorResponse === true) {
    const why = errorsText(data.errors);
    throw new ApiError(
      `the platform answered 200 SUCCESS with errorResponse: true${why ? ` (${why})` : ''}: nothing was stored`,
      { kind: 'rejected', status: 200, ...details },
    );
  }
  if (!hasEntity(kind, envelope.data)) {
    const got =
      envelope.data === null || envelope.data === undefined
        ? 'no data'
        : `data with ${
            Object.keys(data ?? {})
              .sort()
              .join(', ') || 'nothing in it'
          }`;
    throw new ApiError(
      `the platform answered 200 SUCCESS without the ${kindRow(kind).label} (${expected(kind)} expected, ${got}): it is not counted as stored`,
      {
        kind: 'rejected',
        status: 200,
        ...details,
      },
    );
  }
}
