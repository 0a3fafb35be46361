import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import type { SourceSite } from '../core/source-site.js';
import { keyOf } from '../catalog/resource-key.js';
import { irNode, type Child, type IrNode } from './node.js';
import { isRecord } from '../core/is-record.js';

/**
 * Wire data -> IR: the structure a rule needs (pipeline, stages, parallel blocks, step groups, steps) becomes
 * nodes, everything else stays data. Validate lifts each parsed YAML document; builders lift wire data they were
 * given whole (`raw.*`, steps written into a stage's `spec`), so compile and validate check the same tree. An
 * element with any key beside its one wrapper key is kept as a `raw` node, so lowering is always lossless.
 */

type Rec = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `{ key: value }` with exactly that one key: the value, else undefined. */
function only(element: unknown, key: string): unknown {
  if (!isRecord(element)) return undefined;
  let count = 0;
  for (const _ in element) if (++count > 1) return undefined;
  return element[key];
}

const raw = (element: unknown, site: SourceSite | undefined): IrNode => irNode({ kind: 'raw', site, body: element });

/** A resource document as IR: a pipeline with its stages and steps, any other kind as one node. */
export function lift(kind: ResourceKind, document: unknown, site?: SourceSite): IrNode {
  const { rootKey } = kindRow(kind);
  const body = isRecord(document) ? document[rootKey] : undefined;
  const key = keyOf(kind, body);
  const identity = {
    resourceKind: kind,
    ...(key ? { key } : {}),
    identifier: isRecord(body) ? str(body.identifier) : undefined,
  };
  if (!isRecord(document) || body === undefined) return irNode({ kind: 'raw', site, body: document, ...identity });
  const root = liftRoot(kind, body, site, identity);
  if (Object.keys(document).length === 1) return root;
  // Keys beside the root key stay data around it, so lowering gives the document back as it was.
  return irNode({
    kind: 'raw',
    site,
    body: { ...document, [rootKey]: root },
    children: [{ at: [rootKey], node: root, unwrap: true }],
    ...identity,
  });
}

function liftRoot(
  kind: ResourceKind,
  body: unknown,
  site: SourceSite | undefined,
  identity: Pick<IrNode, 'resourceKind' | 'key' | 'identifier'>,
): IrNode {
  const { rootKey } = kindRow(kind);
  if (kind !== 'pipeline' || !isRecord(body) || !Array.isArray(body.stages))
    return irNode({ kind: kind === 'pipeline' ? 'pipeline' : 'resource', wrapper: rootKey, site, body, ...identity });
  const stages = liftList(body.stages, ['stages'], liftStage, site);
  return irNode({
    kind: 'pipeline',
    wrapper: rootKey,
    site,
    body: { ...body, stages: stages.list },
    children: stages.children,
    ...identity,
  });
}

/** A list of elements, each lifted; the children found, at `[...at, index]`. */
function liftList(
  list: readonly unknown[],
  at: Array<string | number>,
  liftOne: (element: unknown, site?: SourceSite) => IrNode,
  site?: SourceSite,
) {
  const children: Child[] = [];
  const lifted = list.map((element, index) => {
    const node = liftOne(element, site);
    children.push({ at: [...at, index], node });
    return node;
  });
  return { list: lifted, children };
}

/** A stage list element: `{ stage }` or `{ parallel: [...] }`. */
export function liftStage(element: unknown, site?: SourceSite): IrNode {
  const stage = only(element, 'stage');
  if (isRecord(stage)) {
    const { body, children } = liftExecution(stage, site);
    return irNode({
      kind: 'stage',
      wrapper: 'stage',
      identifier: str(stage.identifier),
      type: str(stage.type),
      site,
      body,
      children,
    });
  }
  const parallel = only(element, 'parallel');
  if (Array.isArray(parallel)) {
    const { list, children } = liftList(parallel, [], liftStage, site);
    return irNode({ kind: 'parallel', wrapper: 'parallel', site, body: list, children });
  }
  return raw(element, site);
}

/** A stage body with its `spec.execution` step lists lifted. */
function liftExecution(stage: Rec, site?: SourceSite): { body: Rec; children: Child[] } {
  const spec = stage.spec;
  const execution = isRecord(spec) ? spec.execution : undefined;
  if (!isRecord(execution) || (!Array.isArray(execution.steps) && !Array.isArray(execution.rollbackSteps)))
    return { body: stage, children: [] };
  const lists = liftStepLists(execution, ['spec', 'execution'], site);
  return { body: { ...stage, spec: { ...(spec as Rec), execution: lists.body } }, children: lists.children };
}

/** `steps` and `rollbackSteps` of a record (an execution, a step group), lifted, children at `[...at, key, i]`. */
export function liftStepLists(
  holder: Rec,
  at: Array<string | number>,
  site?: SourceSite,
): { body: Rec; children: Child[] } {
  const body = { ...holder };
  const children: Child[] = [];
  for (const key of ['steps', 'rollbackSteps'])
    if (Array.isArray(holder[key])) {
      const lifted = liftList(holder[key], [...at, key], liftStep, site);
      body[key] = lifted.list;
      children.push(...lifted.children);
    }
  return { body, children };
}

/** A step list element: `{ step }`, `{ stepGroup }` or `{ parallel: [...] }`. */
export function liftStep(element: unknown, site?: SourceSite): IrNode {
  const step = only(element, 'step');
  if (isRecord(step))
    return irNode({
      kind: 'step',
      wrapper: 'step',
      identifier: str(step.identifier),
      type: str(step.type),
      site,
      body: step,
    });
  const group = only(element, 'stepGroup');
  if (isRecord(group)) {
    const { body, children } = liftStepLists(group, [], site);
    return irNode({ kind: 'stepGroup', wrapper: 'stepGroup', identifier: str(group.identifier), site, body, children });
  }
  const parallel = only(element, 'parallel');
  if (Array.isArray(parallel)) {
    const { list, children } = liftList(parallel, [], liftStep, site);
    return irNode({ kind: 'parallel', wrapper: 'parallel', site, body: list, children });
  }
  return raw(element, site);
}
