import { isAlias, isCollection, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import type { DocPath } from '../core/document-path.js';
import type { SourceSpan } from '../core/source-location.js';
import { spanOf } from './span.js';

interface Found {
  readonly node: Node | undefined;
  /** The key of the pair holding `node`, when it sits in a map. */
  readonly key: Node | undefined;
  /** False when the path runs out of the document: `node` is then the nearest existing parent. */
  readonly exact: boolean;
}

/** Follows a document path through the YAML tree, through aliases, as far as it exists. */
function nodeAt(document: Document, path: DocPath): Found {
  let node = document.contents as Node | null;
  let key: Node | undefined;
  for (const step of path) {
    if (isAlias(node)) node = node.resolve(document) ?? null;
    let next: { node: Node | undefined; key: Node | undefined } | undefined;
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(step));
      if (pair) next = { node: (pair.value ?? undefined) as Node | undefined, key: pair.key as Node };
    } else if (isSeq(node) && typeof step === 'number' && step < node.items.length) {
      next = { node: node.items[step] as Node, key: undefined };
    }
    if (!next || !next.node) return { node: next?.key ?? node ?? undefined, key: next ? undefined : key, exact: false };
    node = next.node;
    key = next.key;
  }
  return { node: node ?? undefined, key, exact: true };
}

/**
 * Where a diagnostic about `path` points, start and end: the value itself when it is a scalar, the key of a map
 * or list (a whole block would cover the screen), or, for something missing, the nearest parent's key. `atKey`
 * points at the key even for scalars (an unknown key is about the key, not its value).
 */
export function locate(document: Document, path: DocPath, lines: LineCounter, atKey = false): SourceSpan {
  const { node, key, exact } = nodeAt(document, path);
  const target = (atKey || !exact || isCollection(node)) && key?.range ? key : node;
  return target?.range ? spanOf(lines, target.range[0], target.range[1]) : spanOf(lines, 0);
}
