import type { BuildContext, DocPath } from './build-context.js';
import { captureSite, type SourceSite } from './call-site.js';

/**
 * Where each entry of a step list was added (`.step(check)`), beside the list: a step defined once in a shared
 * module and used in many places has one definition site, and a problem with one use (a duplicate identifier)
 * is about the `.step()` call. Kept by list, as the builders' lists are new arrays on every change.
 */
const useSites = new WeakMap<readonly unknown[], ReadonlyArray<SourceSite | undefined>>();

/** `list` followed by `added`, remembering the user's call that added them. */
export function appendUsed<T>(list: readonly T[] | undefined, added: readonly T[]): T[] {
  const site = captureSite(appendUsed);
  const next = [...(list ?? []), ...added];
  const before = list ? (useSites.get(list) ?? list.map(() => undefined)) : [];
  useSites.set(next, [...before, ...added.map(() => site)]);
  return next;
}

/** Records in `context` where each entry of `list` was added, at the path `pathOf(index)` gives. */
export function recordUses(context: BuildContext, list: readonly unknown[] | undefined, pathOf: (index: number) => DocPath): void {
  const sites = list && useSites.get(list);
  sites?.forEach((site, index) => {
    if (site) context.uses.push({ path: pathOf(index), site });
  });
}
