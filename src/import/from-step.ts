import { stepEntry } from '../catalog/catalog.js';
import { isRecord } from '../core/is-record.js';
import { catalogStepOptions } from '../dsl/catalog/catalog-step.js';
import { stepSugar } from '../dsl/catalog/sugar-table.js';
import { CONTAINER_INFRA_DEFAULTS } from '../dsl/step-group.js';
import * as dsl from './builders.js';
import { call, chained, lit, obj, type Code } from './code.js';
import { bodyOf, childrenAt, node, type ImportContext, type Lifted, type Node } from './lifted.js';
import {
  failureStrategiesOption,
  nameOption,
  NotExpressible,
  optional,
  otherFieldsChain,
  sugarOptionsCode,
  sugarOptionsOf,
  unlessDefault,
  value,
  variablesOption,
  wire,
} from './options.js';
import { asStepElement, choose, type Candidate } from './verify.js';
import { linkedTemplate } from './links.js';

/** Options every step builder shares: naming first, then (after the type's own) timing and failure handling. */
const stepHead = (step: Node) => ({
  identifier: lit(step.identifier as string),
  name: nameOption(step),
  description: optional(step.description),
});
const stepTail = (step: Node) => ({
  timeout: optional(step.timeout, (t) => value(t)),
  when: optional(step.when),
  failureStrategies: failureStrategiesOption(step.failureStrategies),
  strategy: optional(step.strategy),
});

/** Spec fields as flat options, the way the typed builders take them. */
export const specOptions = (spec: unknown): Record<string, Code> =>
  Object.fromEntries(Object.entries(node(spec)).map(([key, field]) => [key, wire(field)]));

/** The catalogue's builder of a step type (`K8sBGSwapServices` -> `k8sBGSwapServices`), if the package exports it. */
const typedStepBuilder = (type: string): string | undefined => {
  const name = stepEntry(type)?.builder;
  return name && typeof (dsl as Record<string, unknown>)[name] === 'function' ? name : undefined;
};

/**
 * A step as its typed builder's call: a hand-written builder's declaration read backwards (options from the
 * spec, those equal to their default left out), else the catalogue builder's flat options.
 */
function typedStepCode(type: string, step: Node): Code {
  const sugar = stepSugar(type);
  const builder = sugar?.builder ?? typedStepBuilder(type);
  if (builder === undefined) throw new NotExpressible(`no typed builder for step type ${type}`);
  const options = sugar?.fields
    ? sugarOptionsOf(sugar, step.spec)
    : catalogStepOptions(type, step.spec, sugar?.defaults);
  return call(builder, [obj({ ...stepHead(step), ...sugarOptionsCode(options, sugar), ...stepTail(step) })]);
}

/** The fields of a step that a step builder's options write; any other goes through `.withFields()`. */
const STEP_FIELDS = [
  'identifier',
  'name',
  'description',
  'type',
  'spec',
  'timeout',
  'when',
  'failureStrategies',
  'strategy',
];

/** Candidates for a step node, most specific first (the fallback levels of a step). */
function stepCandidates({ node: lifted }: Lifted, step: Node, refer: ImportContext['refer']): Candidate[] {
  const { type } = lifted;
  const template = isRecord(step.template) ? step.template : undefined;
  return [
    () => {
      const linked = template && refer && linkedTemplate(specOptions(template), template, refer);
      return linked && call('stepTemplate', [obj({ ...stepHead(step), ...linked, ...stepTail(step) })]);
    },
    () => template && call('stepTemplate', [obj({ ...stepHead(step), ...specOptions(template), ...stepTail(step) })]),
    () => (type === undefined ? undefined : chained(typedStepCode(type, step), otherFieldsChain(step, STEP_FIELDS))),
    () =>
      type === undefined
        ? undefined
        : call(
            'step',
            [obj({ ...stepHead(step), type: lit(type), spec: optional(step.spec), ...stepTail(step) })],
            otherFieldsChain(step, STEP_FIELDS),
          ),
  ];
}

/** The fields of a step group that `stepGroup()`'s options write; any other goes through `.withFields()`. */
const STEP_GROUP_FIELDS = [
  'name',
  'identifier',
  'steps',
  'rollbackSteps',
  'stepGroupInfra',
  'sharedPaths',
  'when',
  'failureStrategies',
  'strategy',
  'variables',
  'timeout',
  'delegateSelectors',
];

function stepGroupCode(lifted: Lifted, group: Node, context: ImportContext): Code | undefined {
  const infra = isRecord(group.stepGroupInfra) ? group.stepGroupInfra : undefined;
  const infraSpec = node(infra?.spec);
  return call(
    'stepGroup',
    [
      obj({
        identifier: lit(group.identifier as string),
        name: nameOption(group),
        steps: Array.isArray(group.steps)
          ? { kind: 'array', items: childrenAt(lifted, ['steps']).map((child) => stepElementCode(child, context)) }
          : undefined,
        rollbackSteps: Array.isArray(group.rollbackSteps)
          ? {
              kind: 'array',
              items: childrenAt(lifted, ['rollbackSteps']).map((child) => stepElementCode(child, context)),
            }
          : undefined,
        containerInfra:
          infra &&
          obj({
            type: unlessDefault(infra.type, CONTAINER_INFRA_DEFAULTS.type),
            connector: value(infraSpec.connectorRef),
            namespace: value(infraSpec.namespace),
          }),
        sharedPaths: optional(group.sharedPaths),
        when: optional(group.when),
        failureStrategies: failureStrategiesOption(group.failureStrategies),
        strategy: optional(group.strategy),
        variables: variablesOption(group.variables),
        timeout: optional(group.timeout, (t) => value(t)),
        delegateSelectors: optional(group.delegateSelectors),
      }),
    ],
    otherFieldsChain(group, STEP_GROUP_FIELDS),
  );
}

/** Why lift kept a step list element as data: what besides one `step`, `stepGroup` or `parallel` it holds. */
function notAStep(element: unknown): never {
  const keys = Object.keys(node(element));
  const wrapper = keys.find((key) => key === 'step' || key === 'stepGroup' || key === 'parallel');
  throw new NotExpressible(
    wrapper && keys.length > 1
      ? // The platform reads a list item's step, stepGroup or parallel and ignores other keys (the editor's
        // `contextType: Pipeline`): harness-core ExecutionWrapperConfig is @JsonIgnoreProperties(ignoreUnknown = true).
        `the list item has ${keys.filter((key) => key !== wrapper).join(', ')} beside its ${wrapper}, a key the platform ignores ` +
          `and no builder writes: kept as written so it compiles back the same (without it, the ${wrapper} gets its typed builder)`
      : `the list item is not a step, a step group or a parallel block (it has ${keys.join(', ') || 'no keys'})`,
  );
}

/** A step list element as code: a typed builder, `stepGroup()`, `parallel()`, `step()` or `raw.step()`, whichever is exact. */
export function stepElementCode(lifted: Lifted, context: ImportContext): Code {
  const { element } = lifted;
  const body = node(bodyOf(lifted));
  const parallel = lifted.node.kind === 'parallel' ? childrenAt(lifted) : [];
  const candidates: Candidate[] =
    lifted.node.kind === 'step'
      ? stepCandidates(lifted, body, context.refer)
      : lifted.node.kind === 'stepGroup'
        ? [() => stepGroupCode(lifted, body, context)]
        : parallel.length > 0
          ? [
              () =>
                call(
                  'parallel',
                  parallel.map((child) => stepElementCode(child, context)),
                ),
            ]
          : [() => notAStep(element)];
  return choose(
    element as object,
    candidates,
    element,
    asStepElement,
    () => call('raw.step', [wire(element)]),
    context.demoted,
  );
}
