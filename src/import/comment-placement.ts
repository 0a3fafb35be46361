import { childrenOf, originOf, type Code } from './code.js';
import type { CommentsOf } from './print.js';
import type { Comments } from './read-documents.js';

/** The YAML nodes some call of the module was chosen for: each gathers its own comments. */
function ownersOf(code: Code, owners: Set<object>): Set<object> {
  if (code.kind === 'call') for (const node of originOf(code)?.nodes ?? []) owners.add(node);
  // A const's chained calls (`.withIdentifier('b')`) hold literals: no call with an origin.
  for (const child of childrenOf(code)) ownersOf(child, owners);
  return owners;
}

/**
 * Where each YAML comment goes in the module: above the call written for the nearest node that has a call of its
 * own (a step, a stage, a step group, the document), so every comment is kept, at the node it belongs to or the
 * nearest one the code shows. Returns a placer for one printing of the module (each comment is printed once).
 */
export function commentPlacer(roots: readonly Code[], comments: Comments): () => CommentsOf {
  const owners = new Set<object>();
  for (const root of roots) ownersOf(root, owners);
  return () => {
    const placed = new Set<object>();
    const gather = (value: unknown, lines: string[], top: boolean): void => {
      if (!value || typeof value !== 'object' || placed.has(value) || (!top && owners.has(value))) return;
      placed.add(value);
      const own = comments.get(value);
      if (own) lines.push(own);
      for (const child of Array.isArray(value) ? value : Object.values(value)) gather(child, lines, false);
    };
    return (code) => {
      const lines: string[] = [];
      for (const node of originOf(code)?.nodes ?? []) gather(node, lines, true);
      return lines.length ? lines.join('\n') : undefined;
    };
  };
}
