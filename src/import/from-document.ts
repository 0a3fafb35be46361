import { stepEntry } from '../catalog/catalog.js';
import { catalogStepOptions } from '../dsl/catalog/catalog-step.js';
import { optionsOfSpec, type StepSugar } from '../dsl/catalog/step-sugar.js';
import { stepSugar } from '../dsl/catalog/sugar-table.js';
import * as dsl from './builders.js';
import { call, chained, commented, lit, obj, originOf, type Code } from './code.js';
import { DOCKER_REGISTRY_DEFAULTS } from '../dsl/connector.js';
import { DEFAULT_ORG } from '../dsl/project.js';
import { DEPLOYMENT_DEFAULTS } from '../dsl/stage.js';
import { CONTAINER_INFRA_DEFAULTS } from '../dsl/step-group.js';
import { failureStrategiesOption, nameOption, optional, tagsOption, unlessDefault, value, variablesOption, wire } from './options.js';
import type { Comments } from './read-documents.js';
import { asDocument, asStageElement, asStepElement, choose, type Candidate, type Demotions } from './verify.js';
import { isRecord } from '../core/is-record.js';

/** What code generation reads beside the document: its comments, and the nodes demoted after a type error. */
export interface ImportContext {
  readonly comments: Comments;
  readonly demoted: Demotions;
}
export const newContext = (): ImportContext => ({ comments: new WeakMap(), demoted: new WeakMap() });

type Node = Record<string, unknown>;
const node = (value: unknown): Node => (isRecord(value) ? value : {});

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
const specOptions = (spec: unknown): Record<string, Code> =>
  Object.fromEntries(Object.entries(node(spec)).map(([key, field]) => [key, wire(field)]));

/** The catalogue's builder of a step type (`K8sBGSwapServices` -> `k8sBGSwapServices`), if the package exports it. */
const typedStepBuilder = (type: string): string | undefined => {
  const name = stepEntry(type)?.builder;
  return name && typeof (dsl as Record<string, unknown>)[name] === 'function' ? name : undefined;
};

/** Options as code: those the declaration keeps verbatim as written text, the others as wire data. */
const optionsCode = (options: Record<string, unknown>, sugar: StepSugar | undefined): Record<string, Code> =>
  Object.fromEntries(
    Object.entries(options).map(([key, option]) => [key, sugar?.fields?.[key]?.verbatim ? lit(option as string) : wire(option)]),
  );

/**
 * A step as its typed builder's call: a hand-written builder's declaration read backwards (options from the
 * spec, those equal to their default left out), else the catalogue builder's flat options.
 */
function typedStepCode(type: string, step: Node): Code | undefined {
  const sugar = stepSugar(type);
  const builder = sugar?.builder ?? typedStepBuilder(type);
  if (builder === undefined) return undefined;
  const options = sugar?.fields ? optionsOfSpec(sugar, step.spec) : catalogStepOptions(type, step.spec, sugar?.defaults);
  return options && call(builder, [obj({ ...stepHead(step), ...optionsCode(options, sugar), ...stepTail(step) })]);
}

/** Candidates for a `{ step: ... }` element, most specific first (the fallback levels of a step). */
function stepCandidates(step: Node): Candidate[] {
  const type = typeof step.type === 'string' ? step.type : undefined;
  const template = isRecord(step.template) ? step.template : undefined;
  return [
    () =>
      template && call('stepTemplate', [obj({ ...stepHead(step), ...specOptions(template), ...stepTail(step) })]),
    () => (type === undefined ? undefined : typedStepCode(type, step)),
    () =>
      type === undefined
        ? undefined
        : call('step', [obj({ ...stepHead(step), type: lit(type), spec: optional(step.spec), ...stepTail(step) })]),
  ];
}

function stepGroupCode(group: Node, context: ImportContext): Code | undefined {
  const infra = isRecord(group.stepGroupInfra) ? group.stepGroupInfra : undefined;
  const infraSpec = node(infra?.spec);
  return call('stepGroup', [
    obj({
      identifier: lit(group.identifier as string),
      name: nameOption(group),
      steps: Array.isArray(group.steps)
        ? { kind: 'array', items: (group.steps as Node[]).map((s) => stepElementCode(s, context)) }
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
  ]);
}

/** A step list element as code: a typed builder, `stepGroup()`, `parallel()`, `step()` or `raw.step()`, whichever is exact. */
export function stepElementCode(element: Node, context: ImportContext): Code {
  const { comments } = context;
  const only = Object.keys(element).length === 1;
  const step = only && isRecord(element.step) ? element.step : undefined;
  const group = only && isRecord(element.stepGroup) ? element.stepGroup : undefined;
  const parallel = only && Array.isArray(element.parallel) ? (element.parallel as Node[]) : undefined;
  const candidates: Candidate[] = step
    ? stepCandidates(step)
    : group
      ? [() => stepGroupCode(group, context)]
      : parallel && parallel.length > 0
        ? [() => call('parallel', parallel.map((entry) => stepElementCode(node(entry), context)))]
        : [];
  const code = choose(element, candidates, element, asStepElement, () => call('raw.step', [wire(element)]), context.demoted);
  return commented(code, comments.get(element) ?? (step && comments.get(step)) ?? (group && comments.get(group)));
}

const stageHead = (stage: Node) => ({
  identifier: lit(stage.identifier as string),
  name: nameOption(stage),
  description: optional(stage.description),
  tags: tagsOption(stage.tags),
});
const stageTail = (stage: Node) => ({
  failureStrategies: failureStrategiesOption(stage.failureStrategies),
  when: optional(stage.when),
  variables: variablesOption(stage.variables),
  strategy: optional(stage.strategy),
  timeout: optional(stage.timeout, (t) => value(t)),
  delegateSelectors: optional(stage.delegateSelectors),
});

interface Execution {
  readonly steps: Node[];
  readonly rollbackSteps: Node[];
  /** Fields of `execution` other than the two step lists. */
  readonly rest: Node;
  readonly hasRollbackKey: boolean;
}

function executionOf(stage: Node): Execution | undefined {
  const exec = node(node(stage.spec).execution);
  if (!Array.isArray(exec.steps)) return undefined;
  const { steps, rollbackSteps, ...rest } = exec;
  return {
    steps: steps as Node[],
    rollbackSteps: Array.isArray(rollbackSteps) ? (rollbackSteps as Node[]) : [],
    rest,
    hasRollbackKey: 'rollbackSteps' in exec,
  };
}

const withRollback = (code: Code, exec: Execution, context: ImportContext): Code =>
  exec.rollbackSteps.length
    ? chained(code, [{ method: 'rollbackStep', args: exec.rollbackSteps.map((s) => stepElementCode(s, context)) }])
    : code;

/** Typed stage builders; steps are added by the caller. */
const STAGE_IMPORTERS: Record<
  string,
  (stage: Node, exec: Execution | undefined, context: ImportContext) => Code | undefined
> = {
  Deployment(stage, exec, context) {
    const spec = node(stage.spec);
    if (!exec || Object.keys(exec.rest).length) return undefined;
    if (isRecord(spec.serviceConfig)) {
      const serviceConfig = spec.serviceConfig;
      const infra = node(spec.infrastructure);
      const definition = node(infra.infrastructureDefinition);
      const serviceDefinition = node(serviceConfig.serviceDefinition);
      const defSpec = node(definition.spec);
      const serviceVariables = node(serviceDefinition.spec).variables;
      const code = call('deployment', [
        obj({
          ...stageHead(stage),
          service: value(serviceConfig.serviceRef),
          deploymentType: unlessDefault(serviceDefinition.type, DEPLOYMENT_DEFAULTS.deploymentType),
          serviceVariables:
            Array.isArray(serviceVariables) && serviceVariables.length ? variablesOption(serviceVariables) : undefined,
          environment: value(infra.environmentRef),
          infrastructure: obj({
            type: unlessDefault(definition.type, DEPLOYMENT_DEFAULTS.infrastructure.type),
            connector: value(defSpec.connectorRef),
            namespace: value(defSpec.namespace),
            // Written even when it is the default: its expression shows where the name comes from.
            releaseName: optional(defSpec.releaseName, (t) => value(t, true)),
          }),
          allowSimultaneousDeployments: unlessDefault(
            infra.allowSimultaneousDeployments,
            DEPLOYMENT_DEFAULTS.allowSimultaneousDeployments,
          ),
          ...stageTail(stage),
        }),
      ]);
      return withRollback(code, exec, context);
    }
    const service = node(spec.service);
    const environment = node(spec.environment);
    const useFromStage = node(service.useFromStage).stage;
    const definitions = environment.infrastructureDefinitions;
    const code = call('deployment', [
      obj({
        ...stageHead(stage),
        deploymentType: optional(spec.deploymentType),
        service:
          typeof useFromStage === 'string' ? obj({ useFromStage: lit(useFromStage) }) : value(service.serviceRef),
        serviceInputs: optional(service.serviceInputs),
        environment: value(environment.environmentRef),
        environmentInputs: optional(environment.environmentInputs),
        deployToAll: optional(environment.deployToAll),
        infrastructureDefinitions: Array.isArray(definitions)
          ? {
              kind: 'array',
              items: (definitions as Node[]).map((d) =>
                Object.keys(node(d)).length === 1 && typeof d.identifier === 'string' ? lit(d.identifier) : wire(d),
              ),
            }
          : optional(definitions, (d) => value(d)),
        ...stageTail(stage),
      }),
    ]);
    return withRollback(code, exec, context);
  },
  CI(stage, exec) {
    if (!exec || exec.rollbackSteps.length || exec.hasRollbackKey || Object.keys(exec.rest).length) return undefined;
    const { execution: _execution, runtime, ...spec } = node(stage.spec);
    const runtimeNode = node(runtime);
    const simpleRuntime =
      typeof runtimeNode.type === 'string' &&
      Object.keys(runtimeNode).length === 2 &&
      isRecord(runtimeNode.spec) &&
      Object.keys(runtimeNode.spec).length === 0;
    return call('ci', [
      obj({
        ...stageHead(stage),
        ...specOptions(spec),
        runtime: simpleRuntime ? lit(runtimeNode.type as string) : optional(runtime),
        ...stageTail(stage),
      }),
    ]);
  },
  Approval(stage, exec, context) {
    const spec = node(stage.spec);
    if (!exec || Object.keys(spec).length !== 1 || Object.keys(exec.rest).length) return undefined;
    return withRollback(call('approval', [obj({ ...stageHead(stage), ...stageTail(stage) })]), exec, context);
  },
  Custom(stage, exec, context) {
    const { execution: _execution, environment, ...rest } = node(stage.spec);
    if (!exec || Object.keys(rest).length || Object.keys(exec.rest).length) return undefined;
    return withRollback(
      call('custom', [obj({ ...stageHead(stage), environment: optional(environment), ...stageTail(stage) })]),
      exec,
      context,
    );
  },
  Pipeline(stage) {
    const { outputs, ...spec } = node(stage.spec);
    const named = Array.isArray(outputs) && (outputs as Node[]).every((o) => Object.keys(node(o)).length === 2);
    return call('pipelineStage', [
      obj({
        ...stageHead(stage),
        ...specOptions(spec),
        outputs: named
          ? obj(Object.fromEntries((outputs as Node[]).map((o) => [String(o.name), value(o.value)])))
          : optional(outputs),
        ...stageTail(stage),
      }),
    ]);
  },
};

/** The stage call (typed, generic, or raw) with its steps chained on it, verified exactly. */
interface StageCode {
  /** The stage builder call, without its execution steps. */
  readonly stage: Code;
  /** Steps, added with `.step()` (on the pipeline for a top-level stage, so the chain reads in order). */
  readonly steps: readonly Code[];
}

/** Splits the `.step()` calls verified on a stage off it, to be written after the stage on the pipeline. */
function splitSteps(code: Code, count: number): StageCode {
  if (code.kind !== 'call' || count === 0) return { stage: code, steps: [] };
  const chain = code.chain ?? [];
  return {
    stage: { ...code, chain: chain.slice(0, chain.length - count) },
    steps: chain.slice(chain.length - count).map((c) => c.args[0]!),
  };
}

function stageCode(stage: Node, element: Node, context: ImportContext): StageCode {
  const exec = executionOf(stage);
  const steps = (exec?.steps ?? []).map((s) => stepElementCode(s, context));
  const withSteps = (code: Code | undefined) =>
    code &&
    chained(
      code,
      steps.map((s) => ({ method: 'step', args: [s] })),
    );
  const type = typeof stage.type === 'string' ? stage.type : undefined;
  const template = isRecord(stage.template) ? stage.template : undefined;
  // The fallback levels of a stage: template, typed builder, generic stage() with its steps, generic stage()
  // with the spec as it is, raw.stage(); the ones that take steps get them chained, as the pipeline writes them.
  const candidates: Candidate[] = [
    () =>
      template &&
      call('stageTemplate', [obj({ ...stageHead(stage), ...specOptions(template), ...stageTail(stage) })]),
    () => {
      const typed = type ? STAGE_IMPORTERS[type]?.(stage, exec, context) : undefined;
      return type === 'Pipeline' ? typed : withSteps(typed);
    },
    () => {
      if (!exec) return undefined;
      const { execution: _execution, ...specRest } = node(stage.spec);
      const execution = {
        ...exec.rest,
        ...(exec.hasRollbackKey && exec.rollbackSteps.length === 0 ? { rollbackSteps: [] } : {}),
      };
      const genericSpec = { ...specRest, ...(Object.keys(execution).length ? { execution } : {}) };
      return withSteps(
        withRollback(
          call('stage', [
            obj({
              ...stageHead(stage),
              type: lit(String(type)),
              spec: Object.keys(genericSpec).length === 0 ? undefined : wire(genericSpec),
              ...stageTail(stage),
            }),
          ]),
          exec,
          context,
        ),
      );
    },
    () =>
      call('stage', [
        obj({ ...stageHead(stage), type: lit(String(type)), spec: optional(stage.spec), ...stageTail(stage) }),
      ]),
  ];
  const code = choose(element, candidates, element, asStageElement, () => call('raw.stage', [wire(element)]), context.demoted);
  const level = originOf(code)!.level;
  const stepsChained = (level === 1 && type !== 'Pipeline') || level === 2;
  return splitSteps(code, stepsChained ? steps.length : 0);
}

/** A `stages` element as code: a stage (steps split out) or `parallel(...)` stages with their steps on them. */
export function stageElementCode(element: Node, context: ImportContext): StageCode {
  const only = Object.keys(element).length === 1;
  if (only && isRecord(element.stage)) return stageCode(element.stage, element, context);
  const parallel = only && Array.isArray(element.parallel) && element.parallel.length > 0 ? (element.parallel as Node[]) : [];
  const candidates: Candidate[] = parallel.length
    ? [
        () =>
          call(
            'parallel',
            parallel.map((entry) => {
              const inner = stageCode(node(node(entry).stage), node(entry), context);
              return chained(
                inner.stage,
                inner.steps.map((s) => ({ method: 'step', args: [s] })),
              );
            }),
          ),
      ]
    : [];
  const code = choose(element, candidates, element, asStageElement, () => call('raw.stage', [wire(element)]), context.demoted);
  return { stage: code, steps: [] };
}

/** Barriers written as names when name and identifier agree. */
const barriersOption = (raw: unknown): Code | undefined =>
  Array.isArray(raw)
    ? {
        kind: 'array',
        items: (raw as Node[]).map((b) =>
          Object.keys(node(b)).length === 2 && b.name === b.identifier ? lit(String(b.identifier)) : wire(b),
        ),
      }
    : optional(raw);

/** A whole pipeline document as a builder chain, or `raw.pipeline()` when no builder reproduces it. */
export function pipelineCode(document: Node, context: ImportContext = newContext()): Code {
  const { comments } = context;
  const body = node(document.pipeline);
  const chain = (Array.isArray(body.stages) ? (body.stages as Node[]) : []).flatMap((element) => {
    const { stage, steps } = stageElementCode(element, context);
    const comment = comments.get(element) ?? (isRecord(element.stage) ? comments.get(element.stage) : undefined);
    return [
      { method: 'stage', args: [commented(stage, comment)] },
      ...steps.map((s) => ({ method: 'step', args: [s] })),
    ];
  });
  const properties = node(body.properties);
  const codebase = node(properties.ci).codebase;
  const onlyCodebase =
    isRecord(codebase) && Object.keys(properties).length === 1 && Object.keys(node(properties.ci)).length === 1;
  const flowControl = node(body.flowControl);
  const onlyBarriers = Object.keys(flowControl).length === 1 && Array.isArray(flowControl.barriers);
  const options = (shortcuts: boolean) =>
    obj({
      identifier: lit(body.identifier as string),
      name: nameOption(body),
      project: optional(body.projectIdentifier),
      org: unlessDefault(body.orgIdentifier, DEFAULT_ORG),
      description: optional(body.description),
      tags: tagsOption(body.tags),
      codebase: shortcuts && onlyCodebase ? wire(codebase) : undefined,
      properties: shortcuts && onlyCodebase ? undefined : optional(body.properties),
      barriers: shortcuts && onlyBarriers ? barriersOption(flowControl.barriers) : undefined,
      allowStageExecutions: optional(body.allowStageExecutions),
      timeout: optional(body.timeout, (t) => value(t)),
      delegateSelectors: optional(body.delegateSelectors),
      variables: variablesOption(body.variables),
      notificationRules: optional(body.notificationRules),
    });
  const candidates = [true, false].map((shortcuts) => () => call('pipeline', [options(shortcuts)], chain));
  return choose(document, candidates, document, asDocument, () => call('raw.pipeline', [wire(document)]), context.demoted);
}

export function projectCode(document: Node, context: ImportContext = newContext()): Code {
  const body = node(document.project);
  const code = () =>
    call('project', [
      obj({
        identifier: lit(body.identifier as string),
        name: nameOption(body),
        org: unlessDefault(body.orgIdentifier, DEFAULT_ORG),
        color: optional(body.color),
        description: optional(body.description),
        tags: optional(body.tags),
        modules: optional(body.modules),
      }),
    ]);
  return choose(document, [code], document, asDocument, () => call('raw.project', [wire(document)]), context.demoted);
}

export function connectorCode(document: Node, context: ImportContext = newContext()): Code {
  const body = node(document.connector);
  const spec = node(body.spec);
  const common = () => ({
    identifier: lit(body.identifier as string),
    name: nameOption(body),
    description: optional(body.description),
    tags: optional(body.tags),
    org: optional(body.orgIdentifier),
    project: optional(body.projectIdentifier),
    account: body.orgIdentifier === undefined && body.projectIdentifier === undefined ? lit(true) : undefined,
  });
  const auth = node(spec.auth);
  const authSpec = node(auth.spec);
  const docker = () =>
    body.type === 'DockerRegistry'
      ? call('connectors.dockerRegistry', [
          obj({
            ...common(),
            url: unlessDefault(spec.dockerRegistryUrl, DOCKER_REGISTRY_DEFAULTS.url),
            provider: unlessDefault(spec.providerType, DOCKER_REGISTRY_DEFAULTS.provider),
            auth:
              auth.type === DOCKER_REGISTRY_DEFAULTS.auth
                ? undefined
                : obj({ username: optional(authSpec.username), passwordRef: optional(authSpec.passwordRef) }),
            delegateSelectors: optional(spec.delegateSelectors),
          }),
        ])
      : undefined;
  const generic = () => call('connector', [obj({ ...common(), type: lit(String(body.type)), spec: wire(spec) })]);
  return choose(document, [docker, generic], document, asDocument, () => call('raw.connector', [wire(document)]), context.demoted);
}
