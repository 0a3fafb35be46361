import { childrenOf, originOf, sourceOf, type Code } from './code.js';
import type { CommentsOf } from './print.js';
import { commentParts, type Comments } from './read-documents.js';

/**
 * The YAML nodes some call of the module was chosen for (each gathers its own comments), and the parsed maps and
 * lists written as object or array literals (each prints its comments at its fields).
 */
function ownersOf(code: Code, owners: Set<object>, literals: Set<object>): void {
  if (code.kind === 'call') for (const node of originOf(code)?.nodes ?? []) owners.add(node);
  const source = sourceOf(code);
  if (source && commentParts.has(source)) literals.add(source);
  // A const's chained calls (`.withIdentifier('b')`) hold literals: no call with an origin.
  for (const child of childrenOf(code)) ownersOf(child, owners, literals);
}

/**
 * Where each YAML comment goes in the module: at its field, in an object or array literal written from the map or
 * list it was in (a raw node, a `withFields` object, a spec); else above the call written for the nearest node that
 * has a call of its own (a step, a stage, a step group, the document), so every comment is kept, at the node it
 * belongs to or the nearest one the code shows. Returns a placer for one printing of the module (each comment is
 * printed once).
 */
export function commentPlacer(roots: readonly Code[], comments: Comments): () => CommentsOf {
  const owners = new Set<object>();
  const literals = new Set<object>();
  for (const root of roots) ownersOf(root, owners, literals);
  return () => {
    const placed = new Set<object>();
    const placedAt = new Map<object, Set<string | number>>();
    /** A node's comments joined: only its own when a literal prints those at its fields. */
    const ownOf = (value: object): string | undefined =>
      literals.has(value) ? commentParts.get(value)?.own.join('\n') || undefined : comments.get(value);
    const gather = (value: unknown, lines: string[], top: boolean): void => {
      if (!value || typeof value !== 'object' || placed.has(value)) return;
      if (!top && (owners.has(value) || literals.has(value))) return;
      placed.add(value);
      const own = ownOf(value);
      if (own) lines.push(own);
      for (const child of Array.isArray(value) ? value : Object.values(value)) gather(child, lines, false);
    };
    /** Every comment of a node and of what it holds, in order. */
    const all = (value: unknown, lines: string[] = []): string[] => {
      if (!value || typeof value !== 'object') return lines;
      const own = comments.get(value);
      if (own) lines.push(own);
      for (const child of Array.isArray(value) ? value : Object.values(value)) all(child, lines);
      return lines;
    };
    const markPlaced = (value: unknown): void => {
      if (!value || typeof value !== 'object' || placed.has(value)) return;
      placed.add(value);
      for (const child of Array.isArray(value) ? value : Object.values(value)) markPlaced(child);
    };
    const above = (code: Code) => {
      const lines: string[] = [];
      const [first, ...twins] = originOf(code)?.nodes ?? [];
      if (first) gather(first, lines, true);
      // Nodes written as one const (the same step in two stages): a twin whose comments are the first's, word for
      // word, says nothing new (they are printed at the first's fields and calls); one whose comments differ keeps
      // them all, here above the call.
      const said = first && all(first).join('\n');
      for (const twin of twins)
        if (all(twin).join('\n') === said) markPlaced(twin);
        else gather(twin, lines, true);
      return lines.length ? lines.join('\n') : undefined;
    };
    /** The comments at one field or item of a literal's source; `undefined` as the key: the source's own. */
    const at = (source: object, key: string | number | undefined) => {
      if (!literals.has(source)) return undefined;
      if (key === undefined) {
        if (placed.has(source)) return undefined;
        placed.add(source);
        return commentParts.get(source)?.own.join('\n') || undefined;
      }
      const done = placedAt.get(source) ?? new Set();
      if (done.has(key)) return undefined;
      placedAt.set(source, done.add(key));
      return commentParts.get(source)?.at.get(key)?.join('\n');
    };
    return Object.assign(above, { at });
  };
}
