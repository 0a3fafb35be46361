import type { BuildContext, DocPath } from './build-context.js';
import type { SourceSite } from './call-site.js';
import { valueText, type Value } from './expr.js';
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
