import type { IrNode } from './node.js';

/**
 * The v0 wire form of a node: its body under its wrapper key (`{ step: {...} }`, `{ pipeline: {...} }`,
 * `{ parallel: [...] }`), each child's element in its place. Only the containers on the way to a child are
 * copied; the rest of the body is the builder's data as it is. A v1 emitter would be a second `lower`.
 */
export function lower(node: IrNode): unknown {
  const body = lowerBody(node);
  return node.wrapper === undefined ? body : { [node.wrapper]: body };
}

/** The body of a node with its children's elements in place. */
function lowerBody(node: IrNode): unknown {
  if (node.children.length === 0) return node.body;
  const root = shallow(node.body);
  const copied = new Set<unknown>([root]);
  for (const child of node.children) {
    let container = root as Record<string | number, unknown>;
    const { at } = child;
    for (let i = 0; i < at.length - 1; i++) {
      let next = container[at[i]!];
      if (!copied.has(next)) {
        next = shallow(next);
        container[at[i]!] = next;
        copied.add(next);
      }
      container = next as Record<string | number, unknown>;
    }
    container[at[at.length - 1]!] = child.unwrap ? lowerBody(child.node) : lower(child.node);
  }
  return root;
}

const shallow = (value: unknown): unknown => (Array.isArray(value) ? [...value] : { ...(value as object) });
