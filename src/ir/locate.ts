import type { SourceSite } from '../core/source-site.js';
import type { IrNode } from './node.js';
import type { DocPath } from '../core/document-path.js';
import type { Suppression } from '../core/diagnostics.js';

/** Where a node's element and body sit in the document. */
export interface Placed {
  readonly node: IrNode;
  readonly element: DocPath;
  readonly body: DocPath;
}

const bodyPathOf = (node: IrNode, element: DocPath, unwrap = false): DocPath =>
  node.wrapper === undefined || unwrap ? element : [...element, node.wrapper];

/** Every node of the tree, parents first, with its element and body paths in the lowered document. */
export function eachNode(root: IrNode, visit: (placed: Placed) => void): void {
  const stack: Placed[] = [{ node: root, element: [], body: bodyPathOf(root, []) }];
  while (stack.length) {
    const placed = stack.pop()!;
    visit(placed);
    const { children } = placed.node;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i]!;
      const element = [...placed.body, ...child.at];
      stack.push({ node: child.node, element, body: bodyPathOf(child.node, element, child.unwrap) });
    }
  }
}

const startsWith = (path: DocPath, prefix: DocPath, from: number): boolean => {
  if (path.length - from < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (path[from + i] !== prefix[i]) return false;
  return true;
};

/** A node on the way to a path, and the `.step(x)` call that put it in its list, when it says one. */
interface Along {
  readonly node: IrNode;
  readonly use?: SourceSite;
}

/**
 * The nodes whose elements hold a document path, outermost first (the root always): found by descending the tree
 * along the path, one child list per level.
 */
function nodesAlong(root: IrNode, path: DocPath): Along[] {
  const found: Along[] = [{ node: root }];
  let node = root;
  let offset = root.wrapper === undefined ? 0 : 1;
  if (offset === 1 && path[0] !== root.wrapper) return found;
  descend: for (;;) {
    for (const child of node.children) {
      if (!startsWith(path, child.at, offset)) continue;
      node = child.node;
      offset += child.at.length;
      found.push(child.use ? { node, use: child.use } : { node });
      if (node.wrapper !== undefined && !child.unwrap) {
        if (path[offset] !== node.wrapper) break descend;
        offset++;
      }
      continue descend;
    }
    break;
  }
  return found;
}

/**
 * The source of a document path: the call site of its nearest node that has one (the innermost node whose
 * element holds the path), and where that node, or the nearest one above it, was added to its list (`.step(x)`).
 */
export function sourceOf(root: IrNode, path: DocPath): { site?: SourceSite; use?: SourceSite } {
  let site: SourceSite | undefined;
  let use: SourceSite | undefined;
  for (const along of nodesAlong(root, path)) {
    if (along.node.site) site = along.node.site;
    if (along.use) use = along.use;
  }
  return { site, use };
}

/** The suppression of `code` nearest a document path: the innermost node holding the path that suppresses it. */
export function suppressionAt(root: IrNode, path: DocPath, code: string): Suppression | undefined {
  let found: Suppression | undefined;
  for (const { node } of nodesAlong(root, path)) found = node.suppressions?.find((s) => s.code === code) ?? found;
  return found;
}

/** Whether any node of the tree carries a suppression (most trees have none: then nothing is looked up). */
export const carriesSuppressions = (node: IrNode): boolean =>
  (node.suppressions?.length ?? 0) > 0 || node.children.some((child) => carriesSuppressions(child.node));
