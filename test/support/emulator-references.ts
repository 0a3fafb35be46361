import type { KindFacts } from './emulator-kinds.js';
import type { Kind, Store, StoredResource } from './emulator-store.js';

/**
 * What a document refers to must be there when it is saved: an infrastructure's environment, an input set's or
 * trigger's pipeline, the input sets an overlay combines, and every template a pipeline or template uses
 * (`template: { templateRef, versionLabel }`, the stable version without a label). This is what makes publish
 * order observable: a pipeline sent before its template is refused.
 */

type Json = Record<string, unknown>;
const asRecord = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A dotted path inside a document body (`pipeline.identifier`). */
export const fieldAt = (body: Json, path: string): string | undefined => {
  let value: unknown = body;
  for (const key of path.split('.')) value = asRecord(value)?.[key];
  return str(value);
};

interface Scope {
  readonly org?: string;
  readonly project?: string;
}

/** `account.x` and `org.x` point to a higher scope than the document's own. */
export function resolveRef(ref: string, scope: Scope): { identifier: string; org?: string; project?: string } {
  if (ref.startsWith('account.')) return { identifier: ref.slice('account.'.length) };
  if (ref.startsWith('org.')) return { identifier: ref.slice('org.'.length), ...(scope.org ? { org: scope.org } : {}) };
  return { identifier: ref, ...scope };
}

/** Every `{ templateRef, versionLabel }` inside a value, once each. */
function templateRefs(value: unknown, out = new Map<string, { ref: string; versionLabel?: string }>()) {
  if (Array.isArray(value)) for (const item of value) templateRefs(item, out);
  const record = asRecord(value);
  if (!record) return out;
  const ref = str(record.templateRef);
  if (ref && !ref.startsWith('<+')) {
    const versionLabel = str(record.versionLabel);
    out.set(`${ref}@${versionLabel ?? ''}`, { ref, ...(versionLabel ? { versionLabel } : {}) });
  }
  for (const child of Object.values(record)) templateRefs(child, out);
  return out;
}

/** The stable version of a template, or the one asked for. */
export function findTemplate(
  store: Store,
  scope: Scope,
  identifier: string,
  versionLabel: string | undefined,
): StoredResource | undefined {
  if (versionLabel) return store.get('template', scope.org, scope.project, identifier, { versionLabel });
  return store.versions(scope.org, scope.project, identifier).find((r) => r.stable);
}

/** Why saving `body` would be refused for something it refers to; undefined when everything is there. */
export function missingReference(
  store: Store,
  kind: Kind,
  facts: KindFacts,
  body: Json,
  scope: Scope,
  parent: string | undefined,
): string | undefined {
  const where = `${facts.label} [${str(body.identifier)}]`;
  if (facts.parent && parent) {
    const target = facts.parent.kind === 'environment' ? resolveRef(parent, scope) : { identifier: parent, ...scope };
    if (!store.get(facts.parent.kind, target.org, target.project, target.identifier))
      return `${where} belongs to ${facts.parent.kind} [${parent}], which is missing in Project[${scope.project}], Organization [${scope.org}]: save the ${facts.parent.kind} first`;
  }
  if (kind === 'overlayInputSet')
    for (const ref of Array.isArray(body.inputSetReferences) ? body.inputSetReferences : [])
      if (typeof ref === 'string' && !store.get('inputSet', scope.org, scope.project, ref, { parent: parent! }))
        return `${where} combines input set [${ref}], which pipeline [${parent}] lacks: save the input set first`;
  if (kind === 'pipeline' || kind === 'template')
    for (const { ref, versionLabel } of templateRefs(body).values()) {
      const target = resolveRef(ref, scope);
      if (!findTemplate(store, target, target.identifier, versionLabel))
        return `Template reference [${ref}${versionLabel ? `, versionLabel ${versionLabel}` : ', stable version'}] in ${where} could not be resolved: save the template first`;
    }
  return undefined;
}
