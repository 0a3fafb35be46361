import type { SourceSite } from '../core/source-site.js';
import type { IrNode } from './node.js';
import type { DocPath } from '../core/document-path.js';

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

/**
 * The source of a document path: the call site of its nearest node that has one (the innermost node whose
 * element holds the path), and where that node, or the nearest one above it, was added to its list (`.step(x)`).
 * Found by descending the tree along the path: one child list per level.
 */
export function sourceOf(root: IrNode, path: DocPath): { site?: SourceSite; use?: SourceSite } {
  let node = root;
  let site = root.site;
  let use: SourceSite | undefined;
  let offset = root.wrapper === undefined ? 0 : 1;
  if (offset === 1 && path[0] !== root.wrapper) return { site };
  descend: for (;;) {
    for (const child of node.children) {
      if (!startsWith(path, child.at, offset)) continue;
      node = child.node;
      offset += child.at.length;
      if (node.site) site = node.site;
      if (child.use) use = child.use;
      if (node.wrapper !== undefined && !child.unwrap) {
        if (path[offset] !== node.wrapper) break descend;
        offset++;
      }
      continue descend;
    }
    break;
  }
  return { site, use };
}
