import { captureSite, capturingSites, type SourceSite } from '../core/source-site.js';

/**
 * Where each entry of a step list was added (`.step(check)`), beside the list: a step defined once in a shared
 * module and used in many places has one definition site, and a problem with one use (a duplicate identifier)
 * is about the `.step()` call. Kept by list, as the builders' lists are new arrays on every change.
 */
const useSites = new WeakMap<readonly unknown[], ReadonlyArray<SourceSite | undefined>>();

/** `list` followed by `added`, remembering the user's call that added them. */
export function appendUsed<T>(list: readonly T[] | undefined, added: readonly T[]): T[] {
  const next = [...(list ?? []), ...added];
  // Without call sites (a compile's first pass) there is nothing to remember, and a weak map entry per `.step()`
  // call, kept as long as the builders, costs every garbage collection.
  if (!capturingSites()) return next;
  const site = captureSite(appendUsed);
  const before = list ? (useSites.get(list) ?? list.map(() => undefined)) : [];
  useSites.set(next, [...before, ...added.map(() => site)]);
  return next;
}

/** Where each entry of `list` was added, by index (undefined where it was given in the options). */
export const usesOf = (list: readonly unknown[] | undefined): ReadonlyArray<SourceSite | undefined> | undefined =>
  list && useSites.get(list);
