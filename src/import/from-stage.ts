import type { ResourceKind } from '../catalog/kinds.js';
import { isRecord } from '../core/is-record.js';
import type { Sugar } from '../dsl/catalog/sugar.js';
import { DEPLOYMENT_DEFAULTS, STAGE_COMMON_KEYS } from '../dsl/stage.js';
import { stageEntry, stageSpecKeys } from '../catalog/catalog.js';
import * as dsl from './builders.js';
import { CI_SUGAR, PIPELINE_STAGE_SUGAR } from '../dsl/stages-more.js';
import { call, chained, lit, obj, originOf, type Code } from './code.js';
import { specOptions, stepElementCode } from './from-step.js';
import { linkedTemplate } from './links.js';
import { bodyOf, childrenAt, node, type ImportContext, type Lifted, type Node } from './lifted.js';
import {
  failureStrategiesOption,
  nameOption,
  NotExpressible,
  optional,
  sugarOptionsCode,
  sugarOptionsOf,
  tagsOption,
  unlessDefault,
  value,
  variablesOption,
  wire,
} from './options.js';
import { asStageElement, choose, type Candidate } from './verify.js';

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
  readonly steps: Lifted[];
  readonly rollbackSteps: Lifted[];
  /** Fields of `execution` other than the two step lists. */
  readonly rest: Node;
  readonly hasRollbackKey: boolean;
}

/** A stage's execution: its two step lists as lift found them, and the rest of its fields. */
function executionOf(lifted: Lifted, stage: Node): Execution | undefined {
  const exec = node(node(stage.spec).execution);
  if (!Array.isArray(exec.steps)) return undefined;
  const { steps: _steps, rollbackSteps: _rollbackSteps, ...rest } = exec;
  return {
    steps: childrenAt(lifted, ['spec', 'execution', 'steps']),
    rollbackSteps: childrenAt(lifted, ['spec', 'execution', 'rollbackSteps']),
    rest,
    hasRollbackKey: 'rollbackSteps' in exec,
  };
}

const withRollback = (code: Code, exec: Execution, context: ImportContext): Code =>
  exec.rollbackSteps.length
    ? chained(code, [{ method: 'rollbackStep', args: exec.rollbackSteps.map((s) => stepElementCode(s, context)) }])
    : code;

/**
 * A reference of a stage to another imported document as that document's builder (an infrastructure named with
 * its environment's reference), or undefined: it stays text.
 */
type StageLink = (kind: ResourceKind, text: unknown, environment?: unknown) => Code | undefined;

/**
 * `context.refer` as a `StageLink`, and whether it linked anything. An infrastructure is found under the
 * environment the stage names, only when that is an identifier of the stage's own scope (a reference `org.x`
 * names an environment of another scope, whose infrastructures are not told apart here).
 */
function stageLink(refer: NonNullable<ImportContext['refer']>): { link: StageLink; linked: () => boolean } {
  let linked = false;
  const link: StageLink = (kind, text, environment) => {
    if (kind === 'infrastructure' && (typeof environment !== 'string' || !isIdentifierText(environment)))
      return undefined;
    const found = refer(kind, text, typeof environment === 'string' ? { parent: environment } : {});
    linked ||= found !== undefined;
    return found;
  };
  return { link, linked: () => linked };
}

const isIdentifierText = (text: string): boolean => /^[a-zA-Z_][0-9a-zA-Z_$]*$/.test(text);

/** Abandons a typed stage candidate, saying why (the `import-fallback` diagnostic names it). */
function refuse(why: string): never {
  throw new NotExpressible(why);
}

/** Execution fields besides the step lists have no option in the typed stage builders. */
const refuseExtraExecution = (exec: Execution, builder: string): void => {
  const extra = Object.keys(exec.rest);
  if (extra.length) refuse(`${builder}() has no option for spec.execution.${extra.join(', spec.execution.')}`);
};

/** A stage as its hand-written builder's call, the builder's declaration read backwards from the spec. */
function sugarStageCode(sugar: Sugar, stage: Node, spec: unknown): Code | undefined {
  const options = sugarOptionsOf(sugar, spec);
  return call(sugar.builder, [obj({ ...stageHead(stage), ...sugarOptionsCode(options, sugar), ...stageTail(stage) })]);
}

/** Whether an older-form Deployment spec has fields the Kubernetes shorthand of `deployment()` does not write. */
function saysMoreThanShorthand(spec: Node): boolean {
  const only = (value: unknown, keys: readonly string[]) => Object.keys(node(value)).every((key) => keys.includes(key));
  const serviceConfig = node(spec.serviceConfig);
  const infrastructure = node(spec.infrastructure);
  return !(
    only(serviceConfig, ['serviceRef', 'serviceDefinition']) &&
    only(node(serviceConfig.serviceDefinition).spec, ['variables']) &&
    only(infrastructure, ['environmentRef', 'infrastructureDefinition', 'allowSimultaneousDeployments']) &&
    only(node(infrastructure.infrastructureDefinition).spec, ['connectorRef', 'namespace', 'releaseName'])
  );
}

/**
 * Why a Deployment stage without `failureStrategies` stays `stage()`: the platform refuses it, and `deployment()`
 * writes the editor's default rather than a stage the platform would not save.
 */
const NO_DEPLOYMENT_FAILURE_STRATEGIES =
  'the stage has no failureStrategies, which the platform requires of a Deployment stage (it refuses the pipeline: ' +
  'docs/fidelity.md), so deployment(), which writes a default, does not reproduce it; add failure strategies to the YAML';

/** The fields of the newer Deployment form `deployment()` writes, by part of the spec. */
const NEWER_FORM_FIELDS: Readonly<Record<string, readonly string[]>> = {
  spec: [
    'deploymentType',
    'gitOpsEnabled',
    'customDeploymentRef',
    'deploymentMetadata',
    'service',
    'environment',
    'execution',
  ],
  service: ['serviceRef', 'serviceInputs', 'useFromStage', 'gitBranch'],
  environment: [
    'environmentRef',
    'environmentInputs',
    'serviceOverrideInputs',
    'deployToAll',
    'infrastructureDefinitions',
    'gitOpsClusters',
    'gitBranch',
  ],
};

/**
 * Refuses, naming the field, a Deployment spec of the newer form that `deployment()` cannot write: one with
 * fields it has no option for (multi-service `services`, `environments`, `environmentGroup`, a custom deployment's
 * `customDeploymentRef`, ...), or one without a `service` at all.
 */
function refuseNewerFormGaps(spec: Node): void {
  const extra = (part: Node, known: readonly string[], prefix: string) =>
    Object.keys(part)
      .filter((key) => !known.includes(key))
      .map((key) => `${prefix}${key}`);
  const unknown = [
    ...extra(spec, NEWER_FORM_FIELDS.spec!, 'spec.'),
    ...extra(node(spec.service), NEWER_FORM_FIELDS.service!, 'spec.service.'),
    ...extra(node(spec.environment), NEWER_FORM_FIELDS.environment!, 'spec.environment.'),
  ];
  if (unknown.length) refuse(`deployment() has no option for ${unknown.join(', ')}`);
  if (!isRecord(spec.service))
    refuse('deployment() needs spec.service (or spec.serviceConfig, the older form); the stage has neither');
  if (!isRecord(spec.environment))
    refuse('deployment() needs spec.environment (or spec.infrastructure, the older form); the stage has neither');
}

/** Typed stage builders; steps are added by the caller. */
const STAGE_IMPORTERS: Record<
  string,
  (stage: Node, exec: Execution | undefined, context: ImportContext, link?: StageLink) => Code | undefined
> = {
  Deployment(stage, exec, context, link = () => undefined) {
    const spec = node(stage.spec);
    if (stage.failureStrategies === undefined) refuse(NO_DEPLOYMENT_FAILURE_STRATEGIES);
    if (!exec) refuse('deployment() needs spec.execution.steps');
    refuseExtraExecution(exec, 'deployment');
    if (isRecord(spec.serviceConfig) && !saysMoreThanShorthand(spec)) {
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
    if (isRecord(spec.serviceConfig)) {
      // The older form given whole: what the Kubernetes shorthand cannot say (useFromStage, inline service, overrides).
      const code = call('deployment', [
        obj({
          ...stageHead(stage),
          serviceConfig: wire(spec.serviceConfig),
          infrastructure: optional(spec.infrastructure),
          ...stageTail(stage),
        }),
      ]);
      return withRollback(code, exec, context);
    }
    refuseNewerFormGaps(spec);
    // The builder writes the execution as the platform's editor does, rollbackSteps and all.
    if (!exec.hasRollbackKey)
      refuse(
        'deployment() writes spec.execution.rollbackSteps (empty when there are none); the YAML has no rollbackSteps key',
      );
    const service = node(spec.service);
    const environment = node(spec.environment);
    const useFromStage = node(service.useFromStage).stage;
    const definitions = environment.infrastructureDefinitions;
    const code = call('deployment', [
      obj({
        ...stageHead(stage),
        deploymentType: optional(spec.deploymentType),
        gitOpsEnabled: optional(spec.gitOpsEnabled),
        customDeploymentRef: optional(spec.customDeploymentRef),
        deploymentMetadata: optional(spec.deploymentMetadata),
        service:
          typeof useFromStage === 'string'
            ? obj({ useFromStage: lit(useFromStage) })
            : (link('service', service.serviceRef) ?? value(service.serviceRef)),
        serviceInputs: optional(service.serviceInputs),
        serviceGitBranch: optional(service.gitBranch),
        environment: link('environment', environment.environmentRef) ?? value(environment.environmentRef),
        environmentInputs: optional(environment.environmentInputs),
        serviceOverrideInputs: optional(environment.serviceOverrideInputs),
        deployToAll: optional(environment.deployToAll),
        infrastructureDefinitions: Array.isArray(definitions)
          ? {
              kind: 'array',
              items: (definitions as Node[]).map((d) =>
                Object.keys(node(d)).length === 1 && typeof d.identifier === 'string'
                  ? (link('infrastructure', d.identifier, environment.environmentRef) ?? lit(d.identifier))
                  : wire(d),
              ),
            }
          : optional(definitions, (d) => value(d)),
        gitOpsClusters: optional(environment.gitOpsClusters),
        environmentGitBranch: optional(environment.gitBranch),
        ...stageTail(stage),
      }),
    ]);
    return withRollback(code, exec, context);
  },
  CI(stage, exec) {
    if (!exec) refuse('ci() needs spec.execution.steps');
    if (exec.rollbackSteps.length || exec.hasRollbackKey) refuse('ci() has no option for spec.execution.rollbackSteps');
    refuseExtraExecution(exec, 'ci');
    const { execution: _execution, ...spec } = node(stage.spec);
    return sugarStageCode(CI_SUGAR, stage, spec);
  },
  Approval(stage, exec, context) {
    const spec = node(stage.spec);
    if (!exec) refuse('approval() needs spec.execution.steps');
    const extra = Object.keys(spec).filter((key) => key !== 'execution');
    if (extra.length) refuse(`approval() has no option for spec.${extra.join(', spec.')}`);
    refuseExtraExecution(exec, 'approval');
    return withRollback(call('approval', [obj({ ...stageHead(stage), ...stageTail(stage) })]), exec, context);
  },
  Custom(stage, exec, context) {
    const { execution: _execution, environment, ...rest } = node(stage.spec);
    if (!exec) refuse('custom() needs spec.execution.steps');
    if (Object.keys(rest).length) refuse(`custom() has no option for spec.${Object.keys(rest).join(', spec.')}`);
    refuseExtraExecution(exec, 'custom');
    return withRollback(
      call('custom', [obj({ ...stageHead(stage), environment: optional(environment), ...stageTail(stage) })]),
      exec,
      context,
    );
  },
  Pipeline(stage) {
    return sugarStageCode(PIPELINE_STAGE_SUGAR, stage, stage.spec);
  },
};

/** The catalogue's builder of a stage type (`FeatureFlag` -> `featureFlag`), if the package exports it. */
const catalogStageBuilder = (type: string): string | undefined => {
  const name = stageEntry(type)?.builder;
  return name && typeof (dsl as Record<string, unknown>)[name] === 'function' ? name : undefined;
};

/** A stage of a catalogue type as its builder's call: the spec's fields flat beside the common options. */
function catalogStageCode(type: string, stage: Node, exec: Execution | undefined, context: ImportContext): Code {
  const builder = catalogStageBuilder(type);
  if (!builder) refuse(`no typed builder for stage type ${type}`);
  const { execution, ...spec } = node(stage.spec);
  const known = stageSpecKeys(type) ?? [];
  const unknown = Object.keys(spec).filter((key) => !known.includes(key) || STAGE_COMMON_KEYS.includes(key));
  if (unknown.length) refuse(`${builder}() has no option for spec.${unknown.join(', spec.')}`);
  if (execution !== undefined && !exec) refuse(`${builder}() needs spec.execution.steps`);
  if (exec) refuseExtraExecution(exec, builder);
  return withRollback(
    call(builder, [obj({ ...stageHead(stage), ...specOptions(spec), ...stageTail(stage) })]),
    exec ?? NO_EXECUTION,
    context,
  );
}

const NO_EXECUTION: Execution = { steps: [], rollbackSteps: [], rest: {}, hasRollbackKey: false };

/** The stage call (typed, generic, or raw) with its steps chained on it, verified exactly. */
interface StageCode {
  /** The stage builder call, without its execution steps. */
  readonly stage: Code;
  /** Steps, added with `.step()` (on the pipeline for a top-level stage, so the chain reads in order). */
  readonly steps: readonly Code[];
}

/** A stage call's chain with its `.rollbackStep()` calls moved after its `.step()` calls (the lists are apart). */
function stepsBeforeRollback(code: Code): Code {
  if (code.kind !== 'call' || !code.chain) return code;
  const isRollback = (entry: { readonly method: string }) => entry.method === 'rollbackStep';
  const rollback = code.chain.filter(isRollback);
  return rollback.length
    ? { ...code, chain: [...code.chain.filter((entry) => !isRollback(entry)), ...rollback] }
    : code;
}

/**
 * Splits the `.step()` calls verified on a stage off it, to be written after the stage on the pipeline; a stage
 * with `.rollbackStep()` after its steps keeps them (the pipeline has no `.rollbackStep()` to follow them).
 */
function splitSteps(code: Code, count: number): StageCode {
  if (code.kind !== 'call' || count === 0) return { stage: code, steps: [] };
  const chain = code.chain ?? [];
  if (chain.slice(chain.length - count).some((entry) => entry.method !== 'step')) return { stage: code, steps: [] };
  return {
    stage: { ...code, chain: chain.slice(0, chain.length - count) },
    steps: chain.slice(chain.length - count).map((c) => c.args[0]!),
  };
}

/** The fallback levels of `stageCode` whose code has the stage's steps chained on it. */
const TYPED_LINKED = 2;
const TYPED = 3;
const GENERIC_STEPS = 4;

function stageCode(lifted: Lifted, context: ImportContext): StageCode {
  const { element } = lifted;
  const stage = node(bodyOf(lifted));
  const exec = executionOf(lifted, stage);
  const steps = (exec?.steps ?? []).map((s) => stepElementCode(s, context));
  // Steps before rollback steps, as a person writes them (and as the execution lists them).
  const withSteps = (code: Code | undefined) =>
    code &&
    stepsBeforeRollback(
      chained(
        code,
        steps.map((s) => ({ method: 'step', args: [s] })),
      ),
    );
  const { type } = lifted.node;
  const template = isRecord(stage.template) ? stage.template : undefined;
  const importer = type ? STAGE_IMPORTERS[type] : undefined;
  // The fallback levels of a stage: template (as the template's builder, then as text), typed builder (its
  // references to imported documents as their builders, then as text), generic stage() with its steps, generic
  // stage() with the spec as it is, raw.stage(); the ones that take steps get them chained, as the pipeline
  // writes them.
  const candidates: Candidate[] = [
    () => {
      const linked = template && context.refer && linkedTemplate(specOptions(template), template, context.refer);
      return linked && call('stageTemplate', [obj({ ...stageHead(stage), ...linked, ...stageTail(stage) })]);
    },
    () =>
      template && call('stageTemplate', [obj({ ...stageHead(stage), ...specOptions(template), ...stageTail(stage) })]),
    () => {
      if (!importer || !context.refer) return undefined;
      const { link, linked } = stageLink(context.refer);
      const typed = importer(stage, exec, context, link);
      // Without a reference written as a builder it is the next candidate: not evaluated twice.
      return linked() ? withSteps(typed) : undefined;
    },
    () => {
      const typed = importer
        ? importer(stage, exec, context)
        : type
          ? catalogStageCode(type, stage, exec, context)
          : undefined;
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
  const code = choose(
    element as object,
    candidates,
    element,
    asStageElement,
    () => call('raw.stage', [wire(element)]),
    context.demoted,
  );
  const level = originOf(code)!.level;
  const stepsChained = ((level === TYPED_LINKED || level === TYPED) && type !== 'Pipeline') || level === GENERIC_STEPS;
  return splitSteps(code, stepsChained ? steps.length : 0);
}

/** A stage element lift did not take for a stage (a parallel block's odd entry): raw, as it is. */
const rawStageCode = ({ element }: Lifted, context: ImportContext): StageCode => ({
  stage: choose(
    element as object,
    [],
    element,
    asStageElement,
    () => call('raw.stage', [wire(element)]),
    context.demoted,
  ),
  steps: [],
});

/** A `stages` element as code: a stage (steps split out) or `parallel(...)` stages with their steps on them. */
export function stageElementCode(lifted: Lifted, context: ImportContext): StageCode {
  if (lifted.node.kind === 'stage') return stageCode(lifted, context);
  const { element } = lifted;
  const parallel = lifted.node.kind === 'parallel' ? childrenAt(lifted) : [];
  const candidates: Candidate[] = parallel.length
    ? [
        () =>
          call(
            'parallel',
            parallel.map((child) => {
              const inner = child.node.kind === 'stage' ? stageCode(child, context) : rawStageCode(child, context);
              return chained(
                inner.stage,
                inner.steps.map((s) => ({ method: 'step', args: [s] })),
              );
            }),
          ),
      ]
    : [];
  const code = choose(
    element as object,
    candidates,
    element,
    asStageElement,
    () => call('raw.stage', [wire(element)]),
    context.demoted,
  );
  return { stage: code, steps: [] };
}
