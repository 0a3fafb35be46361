import type { z } from 'zod';
import type { ResourceKind } from '../catalog/kinds.js';
import { fieldSchema, schemaAt, type Fields } from './schema-position.js';
import type { DiagnosticCode } from '../core/diagnostic-codes.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { MAX_NESTING } from '../core/nesting.js';
import { isIrNode, type IrNode } from '../ir/node.js';
import type { DocPath } from '../core/document-path.js';
import { isRecord } from '../core/is-record.js';
import { isRuntimeInput } from './runtime-input.js';

type Rec = Record<string, unknown>;

/** The stage a visit is inside: its node, its body's path, and its place among the pipeline's stages. */
interface StageAt {
  readonly node: IrNode;
  readonly path: DocPath;
  readonly index: number;
}

/** The step list a step or step group stands in (parallel blocks included): its path and how messages name it. */
interface ListAt {
  readonly path: DocPath;
  readonly label: string;
}

/** Where the walk is, and what encloses it. */
interface Cursor {
  /** The wire document (lowered by compile, parsed by validate): messages describe paths in it. */
  readonly document: unknown;
  readonly kind: ResourceKind;
  /** The path of what is visited: a node's body, or a string. A copy: keep it if you need it. */
  readonly path: DocPath;
  /** The last key of `path`, without copying it. */
  readonly key: string | number | undefined;
  /** The node visited, or the node whose body holds the string. */
  readonly node: IrNode;
  readonly stage: StageAt | undefined;
  readonly list: ListAt | undefined;
  /** Inside a step group with `stepGroupInfra` (container steps have a cluster to run on). */
  readonly containerised: boolean;
  /** Inside a stage, step group or step with a looping `strategy` (it runs as ID_0, ID_1, ...). */
  readonly looping: boolean;
  /** Records a finding of the rule being called. */
  report(diagnostic: Diagnostic): void;
}

/** What the rules learn after the walk: the paths the schema refused (for rules that speak instead of it). */
interface Finish {
  readonly document: unknown;
  readonly kind: ResourceKind;
  readonly root: IrNode;
  /** `pathKey`s of the schema's errors. */
  readonly refused: ReadonlySet<string>;
  /** Schema errors at these `pathKey`s are dropped: a rule said the same thing better. */
  readonly absorbed: Set<string>;
  report(diagnostic: Diagnostic): void;
}

/**
 * A rule: the codes it reports, and what it does at each kind of node and at each string of one traversal.
 * `init` makes its state for one document; `end` reports what needs the whole document (or the schema's verdict).
 */
export interface Rule<S = unknown> {
  readonly code: DiagnosticCode | readonly DiagnosticCode[];
  /** Document kinds whose pipeline, stage and step visits it wants (strings and `document` come for every kind). */
  readonly kinds?: readonly ResourceKind[];
  init?(): S;
  document?(node: IrNode, at: Cursor, state: S): void;
  stage?(node: IrNode, at: Cursor, state: S): void;
  stepGroup?(node: IrNode, at: Cursor, state: S): void;
  step?(node: IrNode, at: Cursor, state: S): void;
  string?(text: string, at: Cursor, state: S): void;
  /** A key of a map (at `at.path`) whose loose object schema does not model it: `fields` are those it does. */
  unmodelledKey?(key: string, fields: Fields, at: Cursor, state: S): void;
  end?(at: Finish, state: S): void;
}

export type AnyRule = Rule<any>;

type Visitor = 'document' | 'stage' | 'stepGroup' | 'step' | 'string' | 'unmodelledKey';

/** Which rules each visit calls (indexes into the rules), for one list of rules and one document kind. */
interface Visitors {
  readonly onDocument: readonly number[];
  readonly onStage: readonly number[];
  readonly onGroup: readonly number[];
  readonly onStep: readonly number[];
  readonly onString: readonly number[];
  readonly onUnmodelled: readonly number[];
}

/** Worked out once per list of rules and kind, not per document (the lists are the registry's, or a project's). */
const visitorCache = new WeakMap<readonly AnyRule[], Map<ResourceKind, Visitors>>();

function visitorsOf(rules: readonly AnyRule[], kind: ResourceKind): Visitors {
  let byKind = visitorCache.get(rules);
  if (!byKind) visitorCache.set(rules, (byKind = new Map()));
  let visitors = byKind.get(kind);
  if (!visitors) {
    const structural = rules.map((rule) => !rule.kinds || rule.kinds.includes(kind));
    const withMethod = (method: Visitor) =>
      rules.flatMap((rule, index) =>
        rule[method] && (method === 'string' || method === 'document' || structural[index]) ? [index] : [],
      );
    visitors = {
      onDocument: withMethod('document'),
      onStage: withMethod('stage'),
      onGroup: withMethod('stepGroup'),
      onStep: withMethod('step'),
      onString: withMethod('string'),
      onUnmodelled: withMethod('unmodelledKey'),
    };
    byKind.set(kind, visitors);
  }
  return visitors;
}

/** Thrown out of the walk when the document nests deeper than any real one. */
export const TOO_DEEP = Symbol('too deep');

/** A runtime input the walk passed (`<+input>...`): where, and its text. */
export interface SeenInput {
  readonly path: DocPath;
  readonly text: string;
}

export interface Walked {
  /** Findings of each rule, in the order of `rules`. */
  readonly found: Diagnostic[][];
  /** Runs each rule's `end` with what the schema refused; its findings join that rule's. */
  finish(refused: ReadonlySet<string>): Set<string>;
}

/**
 * One traversal of a document's IR: every node, then every string of its body (child nodes in place, so strings
 * come in document order), calling each rule's visitors with the enclosing stage, list, containerisation and
 * looping. Given the document's zod schema, it follows it along (when a rule asks for unmodelled keys). Given
 * `inputs`, it adds the runtime inputs it passes (compile keeps a pipeline's, for its input sets, without a walk
 * of its own). Throws TOO_DEEP past MAX_NESTING levels, before any recursion could overflow.
 */
export function walk(
  root: IrNode,
  document: unknown,
  kind: ResourceKind,
  rules: readonly AnyRule[],
  schema?: z.ZodType,
  inputs?: SeenInput[],
): Walked {
  const states = rules.map((rule) => rule.init?.());
  const found: Diagnostic[][] = rules.map(() => []);
  const { onDocument, onStage, onGroup, onStep, onString, onUnmodelled } = visitorsOf(rules, kind);
  const guided = schema !== undefined && onUnmodelled.length > 0;
  const stack: Array<string | number> = [];
  let bucket: Diagnostic[] = [];
  let stageCount = 0;
  const cursor = {
    document,
    kind,
    get path(): DocPath {
      return [...stack];
    },
    get key() {
      return stack[stack.length - 1];
    },
    node: root,
    stage: undefined as StageAt | undefined,
    list: undefined as ListAt | undefined,
    containerised: false,
    looping: false,
    report: (diagnostic: Diagnostic) => bucket.push(diagnostic),
  };
  /** The value at the walk's place as the wire document has it (for a union only parsing tells apart). */
  const written = (): unknown => {
    let at: unknown = document;
    for (const key of stack) at = (at as Record<string | number, unknown> | undefined)?.[key];
    return at;
  };
  const call = (indexes: readonly number[], visit: (rule: AnyRule, state: unknown) => void) => {
    for (const index of indexes) {
      bucket = found[index]!;
      visit(rules[index]!, states[index]);
    }
  };
  /** `call` for the node visitors, without a closure per node. */
  const visitNode = (indexes: readonly number[], method: 'document' | 'stage' | 'stepGroup' | 'step', at: IrNode) => {
    for (const index of indexes) {
      bucket = found[index]!;
      rules[index]![method]!(at, cursor, states[index]);
    }
  };
  /** The list of the previous element: its siblings share it (one object, so rules can key by it). */
  let lastList: ListAt | undefined;
  const listAt = (length: number, parent: IrNode): ListAt => {
    if (lastList && lastList.path.length === length && lastList.path.every((key, index) => stack[index] === key))
      return lastList;
    // The list is the array just above this element: `execution.steps`, a step group's `steps`.
    const listKey = String(stack[length - 1]);
    const label =
      parent.kind === 'stepGroup'
        ? `the ${listKey} of step group${parent.identifier ? ` "${parent.identifier}"` : ''}`
        : `execution.${listKey}`;
    return (lastList = { path: stack.slice(0, length), label });
  };

  const value = (
    data: unknown,
    owner: IrNode,
    unwrapped: ReadonlySet<IrNode> | undefined,
    schema: z.ZodType | undefined,
  ): void => {
    if (typeof data === 'string') {
      // The most visited place of the walk: the rules are called without a closure per string.
      if (onString.length) cursor.node = owner;
      for (const index of onString) {
        bucket = found[index]!;
        rules[index]!.string!(data, cursor, states[index]);
      }
      if (inputs && isRuntimeInput(data)) inputs.push({ path: [...stack], text: data });
      return;
    }
    if (typeof data !== 'object' || data === null) return;
    if (isIrNode(data)) return node(data, owner, unwrapped?.has(data) ?? false, schema);
    if (stack.length + 1 > MAX_NESTING) throw TOO_DEEP;
    const at = schema && schemaAt(schema, data, written);
    if (Array.isArray(data)) {
      const element = at && 'element' in at ? at.element : undefined;
      for (let i = 0; i < data.length; i++) {
        stack.push(i);
        value(data[i], owner, unwrapped, element);
        stack.pop();
      }
      return;
    }
    const fields = at && 'fields' in at ? at.fields : undefined;
    for (const key in data) {
      if (fields?.loose && !Object.hasOwn(fields.shape, key)) {
        cursor.node = owner;
        call(onUnmodelled, (rule, state) => rule.unmodelledKey!(key, fields, cursor, state));
      }
      stack.push(key);
      value((data as Rec)[key], owner, unwrapped, fields && fieldSchema(fields, key));
      stack.pop();
    }
  };

  const node = (at: IrNode, parent: IrNode | undefined, unwrap: boolean, schema: z.ZodType | undefined): void => {
    const saved = {
      stage: cursor.stage,
      list: cursor.list,
      containerised: cursor.containerised,
      looping: cursor.looping,
    };
    const wrapped = at.wrapper !== undefined && !unwrap;
    let bodySchema = schema;
    if (schema && wrapped) {
      // The element is `{ [wrapper]: body }`: its schema's field under the wrapper is the body's.
      const element = schemaAt(schema, { [at.wrapper!]: at.body }, written);
      bodySchema = element && 'fields' in element ? fieldSchema(element.fields, at.wrapper!) : undefined;
    }
    if (wrapped) stack.push(at.wrapper!);
    const body = isRecord(at.body) ? at.body : undefined;
    if (body?.strategy !== undefined) cursor.looping = true;
    if (
      (at.kind === 'step' || at.kind === 'stepGroup' || at.kind === 'parallel') &&
      parent &&
      parent.kind !== 'parallel'
    )
      cursor.list = listAt(stack.length - (wrapped ? 2 : 1), parent);
    cursor.node = at;
    if (at.kind === 'stage') {
      cursor.stage = { node: at, path: [...stack], index: stageCount++ };
      cursor.list = undefined;
      cursor.containerised = false;
      visitNode(onStage, 'stage', at);
    } else if (at.kind === 'stepGroup') {
      visitNode(onGroup, 'stepGroup', at);
      if (isRecord(body?.stepGroupInfra)) cursor.containerised = true;
    } else if (at.kind === 'step') visitNode(onStep, 'step', at);
    const unwrapped = at.children.some((child) => child.unwrap)
      ? new Set(at.children.filter((c) => c.unwrap).map((c) => c.node))
      : undefined;
    value(at.body, at, unwrapped, bodySchema);
    if (wrapped) stack.pop();
    Object.assign(cursor, saved);
  };

  visitNode(onDocument, 'document', root);
  node(root, undefined, false, guided ? schema : undefined);
  return {
    found,
    finish(refused) {
      const absorbed = new Set<string>();
      const at: Finish = { document, kind, root, refused, absorbed, report: (diagnostic) => bucket.push(diagnostic) };
      rules.forEach((rule, index) => {
        if (!rule.end) return;
        bucket = found[index]!;
        rule.end(at, states[index]);
      });
      return absorbed;
    },
  };
}
