import type { BuildContext, DocPath } from './build-context.js';
import type { SourceSite } from './call-site.js';
import { isExpr, valueText, type Value } from './expr.js';
import { isResource, type AnyResource } from './resource.js';

/**
 * The platform's scoped reference to a connector:
 * `id` in the same project, `org.id` for an org-level one, `account.id` for an account-level one.
 */
export function scopedRef(target: AnyResource): string {
  const { org, project } = target.scope;
  if (!org) return `account.${target.identifier}`;
  if (!project) return `org.${target.identifier}`;
  return target.identifier;
}

/** A value that may be a connector builder: records the reference and returns its wire text. */
export function refValue(
  value: Value | AnyResource | undefined,
  context: BuildContext,
  path: DocPath,
  site: SourceSite,
): string | undefined {
  if (value === undefined) return undefined;
  if (isResource(value)) {
    context.references.push({ path, target: value, site });
    return scopedRef(value);
  }
  return valueText(value);
}

/**
 * Deep copy of user-given wire data: expressions become their text, `undefined` entries are dropped, and a
 * connector (or other resource) builder becomes its scoped reference, recorded so compile can check it.
 */
export function wireValue(value: unknown, context: BuildContext, path: DocPath, site: SourceSite): unknown {
  if (isExpr(value)) return value.text;
  if (isResource(value)) return refValue(value, context, path, site);
  if (Array.isArray(value)) return value.map((item, index) => wireValue(item, context, [...path, index], site));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value))
      if (entry !== undefined) out[key] = wireValue(entry, context, [...path, key], site);
    return out;
  }
  return value;
}

/** Keys in the platform's customary order first, then any others in the order given. */
export function ordered<T extends Record<string, unknown>>(object: T, order: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const key of order) if (object[key] !== undefined) out[key] = object[key];
  for (const [key, value] of Object.entries(object)) if (!(key in out) && value !== undefined) out[key] = value;
  return out as T;
}
