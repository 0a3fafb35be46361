import { valueAt, type DocPath } from '../core/document-path.js';
import { isRecord } from '../core/is-record.js';
import type { ResourceKind } from '../catalog/kinds.js';
import type { ReferenceScope } from '../catalog/resource-key.js';
import type { IrNode } from '../ir/node.js';
import type { Code } from './code.js';
import type { Comments } from './read-documents.js';
import type { Demotions } from './verify.js';

/**
 * A reference from the document to another of the same import, as code: the export of the other's module (`text`
 * read from scope `from`, by default the referring document's; `parent` is an input set's pipeline, `version` a
 * template's). Undefined when it stays text: the target is not imported, comes later in the import's order (which
 * keeps the modules' imports free of cycles), or fell back to `raw.*`.
 */
export type Refer = (
  kind: ResourceKind,
  text: unknown,
  at?: { readonly from?: ReferenceScope; readonly parent?: string; readonly version?: string },
) => Code | undefined;

/**
 * What code generation reads beside the document: its comments, the nodes demoted after a type error, and the
 * other documents of the import it may refer to as builders.
 */
export interface ImportContext {
  readonly comments: Comments;
  readonly demoted: Demotions;
  readonly refer?: Refer;
}
export const newContext = (): ImportContext => ({ comments: new WeakMap(), demoted: new WeakMap() });

export type Node = Record<string, unknown>;
export const node = (value: unknown): Node => (isRecord(value) ? value : {});

/**
 * A node of the tree `lift` makes of a pipeline (what is a stage, a step group, a parallel block, a step, and
 * where each list of them is), beside the YAML element it was lifted from: import reads the structure from the
 * node, and the fields, comments and demotions from the element (the objects the reader parsed, which comments
 * and demotions are keyed on; lift copies the containers it lifts children out of).
 */
export interface Lifted {
  readonly node: IrNode;
  /** The element as parsed: `{ step: {...} }`, `{ stage: {...} }`, `{ parallel: [...] }`, or what lift kept raw. */
  readonly element: unknown;
}

/** The parsed body of a lifted element: what its wrapper key holds (the element itself for a raw node). */
export const bodyOf = ({ node: lifted, element }: Lifted): unknown =>
  lifted.wrapper === undefined ? element : node(element)[lifted.wrapper];

/** The children lifted from one list of the body (`[]` for all of a parallel block's), each beside its element. */
export function childrenAt(lifted: Lifted, list: DocPath = []): Lifted[] {
  const body = bodyOf(lifted);
  return lifted.node.children
    .filter((child) => child.at.length === list.length + 1 && list.every((key, index) => child.at[index] === key))
    .map((child) => ({ node: child.node, element: valueAt(body, child.at) }));
}
