import type { z } from 'zod';
import type { ciSpec, pipelineStageSpec } from '../schema/stages.js';
import { captureSite } from '../core/source-site.js';
import { defined } from './common-options.js';
import { valueText, type Value } from './expr.js';
import { ordered, wireValue } from './references.js';
import { isRecord } from '../core/is-record.js';
import { declareMappedStage } from './catalog/stage-sugar.js';
import { sameField, specOfOptions } from './catalog/sugar.js';
import { checkOptions } from './option-check.js';
import type { StepBuilder, StepNode } from './step.js';
import type { Expr } from './expr.js';
import {
  STAGE_COMMON_KEYS,
  stepsOptionIssues,
  StageImpl,
  StageWithoutStepsImpl,
  stepOutputOf,
  type Execution,
  type PlacedSteps,
  type StageBuilder,
  type StageCommonOptions,
  type StageOutputs,
  type StageWithoutSteps,
} from './stage.js';
import type { PipelineBuilder, TemplatePipelineBuilder } from './pipeline.js';
import {
  TEMPLATE_KEYS,
  type StepTemplateOptions,
  type WithTemplateBuilder,
  type WithTemplateText,
} from './template.js';
import type { Expressible } from './wire-types.js';
import { templateInputsIssues } from './template-input-check.js';
import { setField } from '../core/own-field.js';

/** `execution` with rollbackSteps only when there are some: CI, Approval and Custom stages rarely roll back. */
const stepsOnly = (execution: Execution | undefined) =>
  execution && (execution.rollbackSteps.length > 0 ? execution : { steps: execution.steps });

type CiSpecOptions = Omit<Expressible<z.input<typeof ciSpec>>, 'execution' | 'runtime'>;

export interface CiOptions extends StageCommonOptions, CiSpecOptions {
  /** `Cloud` (Harness Cloud) or `Docker` (a local runner), or the full `{ type, spec }`; use with `platform`. */
  readonly runtime?:
    'Cloud' | 'Docker' | { readonly type: 'Cloud' | 'Docker'; readonly spec?: Readonly<Record<string, unknown>> };
}

/** `ci()` declared beside the CI catalogue entry: its options are the spec's fields, `runtime` also as a bare type. */
export const CI_SUGAR = declareMappedStage<Omit<CiOptions, keyof StageCommonOptions>>()('CI', {
  builder: 'ci',
  order: [
    'cloneCodebase',
    'caching',
    'buildIntelligence',
    'platform',
    'runtime',
    'infrastructure',
    'sharedPaths',
    'serviceDependencies',
    'slsa_provenance',
  ],
  fields: {
    cloneCodebase: sameField('cloneCodebase'),
    caching: sameField('caching'),
    buildIntelligence: sameField('buildIntelligence'),
    platform: sameField('platform'),
    runtime: {
      key: 'runtime',
      write: (runtime) => (typeof runtime === 'string' ? { type: runtime, spec: {} } : runtime),
      read: (runtime) =>
        isRecord(runtime) &&
        typeof runtime.type === 'string' &&
        Object.keys(runtime).length === 2 &&
        isRecord(runtime.spec) &&
        Object.keys(runtime.spec).length === 0
          ? runtime.type
          : (runtime ?? undefined),
    },
    infrastructure: sameField('infrastructure'),
    sharedPaths: sameField('sharedPaths'),
    serviceDependencies: sameField('serviceDependencies'),
  },
});
const CI_OPTIONS = Object.keys(CI_SUGAR.fields!);

const split = (options: object, specKeys: readonly string[]) => {
  const common: Record<string, unknown> = {};
  const spec: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options))
    setField(specKeys.includes(key) || !STAGE_COMMON_KEYS.includes(key) ? spec : common, key, value);
  return { common: common as unknown as StageCommonOptions, spec };
};

/**
 * A CI (build) stage: clones the pipeline's codebase and runs build steps in containers, on Harness Cloud
 * (`runtime: 'Cloud'`), a Docker host, or a Kubernetes cluster (`infrastructure`).
 *
 * @example
 * ```ts
 * ci({ identifier: 'build', runtime: 'Cloud', platform: { os: 'Linux', arch: 'Amd64' } })
 *   .step(run({ identifier: 'test', shell: 'Sh', command: 'npm test' }))
 * ```
 */
export function ci<const Steps extends readonly StepNode[] = [], const Rollback extends readonly StepNode[] = []>(
  options: CiOptions & PlacedSteps<'CI', Steps, Rollback>,
): StageBuilder<'CI'> {
  const issues = checkOptions('ci', options, [...STAGE_COMMON_KEYS, ...CI_OPTIONS], ['identifier']);
  const { common, spec } = split(options, CI_OPTIONS);
  return new StageImpl<'CI'>(
    {
      ...common,
      issues,
      type: 'CI',
      buildSpec: (references, execution) => ({
        // An option ci() does not know is reported, and written as given (so the document shows what was meant).
        ...(wireValue(ordered({ ...spec, ...specOfOptions(CI_SUGAR, spec) }, CI_SUGAR.order), references, [
          'spec',
        ]) as Record<string, unknown>),
        execution: execution && { steps: execution.steps },
      }),
    },
    captureSite(ci),
  );
}

/**
 * An Approval stage: holds the pipeline at approval steps (people, Jira, ServiceNow) before the stages it guards.
 *
 * @example
 * ```ts
 * approval({ identifier: 'signOff' }).step(
 *   harnessApproval({ identifier: 'ok', approvers: { userGroups: ['ops'], minimumCount: 1, disallowPipelineExecutor: false } }),
 * )
 * ```
 */
export function approval<const Steps extends readonly StepNode[] = [], const Rollback extends readonly StepNode[] = []>(
  options: StageCommonOptions & PlacedSteps<'Approval', Steps, Rollback>,
): StageBuilder<'Approval'> {
  const issues = checkOptions('approval', options, STAGE_COMMON_KEYS, ['identifier']);
  return new StageImpl<'Approval'>(
    {
      ...options,
      issues,
      type: 'Approval',
      buildSpec: (_references, execution) => ({ execution: stepsOnly(execution) }),
    },
    captureSite(approval),
  );
}

export interface CustomOptions extends StageCommonOptions {
  /** `environment` as on the wire, for custom stages that target an environment. */
  readonly environment?: Readonly<Record<string, unknown>>;
}

/**
 * A Custom stage: steps that need no service and no build infrastructure (scripts, HTTP calls, approvals, Terraform).
 *
 * @example
 * ```ts
 * custom({ identifier: 'notify' }).step(http({ identifier: 'hook', url: 'https://hooks.example.com/done', method: 'POST' }))
 * ```
 */
export function custom<const Steps extends readonly StepNode[] = [], const Rollback extends readonly StepNode[] = []>(
  options: CustomOptions & PlacedSteps<'Custom', Steps, Rollback>,
): StageBuilder<'Custom'> {
  const issues = checkOptions('custom', options, [...STAGE_COMMON_KEYS, 'environment'], ['identifier']);
  const { environment, ...common } = options;
  return new StageImpl<'Custom'>(
    {
      ...common,
      issues,
      type: 'Custom',
      buildSpec: (references, execution) =>
        defined({
          environment: wireValue(environment, references, ['spec', 'environment']),
          execution: stepsOnly(execution),
        }),
    },
    captureSite(custom),
  );
}

type PipelineStageSpec = Omit<Expressible<z.input<typeof pipelineStageSpec>>, 'outputs' | 'pipeline'>;

export interface PipelineStageOptions extends Omit<StageCommonOptions, 'steps' | 'rollbackSteps'>, PipelineStageSpec {
  /** The child pipeline: its builder (checked to be compiled too) or its identifier. */
  readonly pipeline: Value | PipelineBuilder<string> | TemplatePipelineBuilder;
  /** Outputs of the child pipeline, by name: `{ image: expr.raw('pipeline.stages.build.variables.image') }`. */
  readonly outputs?: Readonly<Record<string, Value>>;
}

/** A list of wire entries that are records with a string `name` and a `value` (else undefined). */
const namedValues = (list: unknown): Array<{ name: string; value: unknown }> | undefined =>
  Array.isArray(list) &&
  list.every(
    (entry) => isRecord(entry) && typeof entry.name === 'string' && 'value' in entry && Object.keys(entry).length === 2,
  )
    ? (list as Array<{ name: string; value: unknown }>)
    : undefined;

/** `pipelineStage()` declared beside the Pipeline catalogue entry: the spec's fields, `outputs` as a map by name. */
export const PIPELINE_STAGE_SUGAR = declareMappedStage<Omit<PipelineStageOptions, keyof StageCommonOptions>>()(
  'Pipeline',
  {
    builder: 'pipelineStage',
    order: ['org', 'pipeline', 'project', 'inputSetReferences', 'inputs', 'outputs', 'pipelineInputs'],
    fields: {
      org: sameField('org'),
      pipeline: sameField('pipeline'),
      project: sameField('project'),
      inputSetReferences: sameField('inputSetReferences'),
      inputs: sameField('inputs'),
      outputs: {
        key: 'outputs',
        write: (outputs) =>
          outputs && Object.entries(outputs).map(([name, value]) => ({ name, value: valueText(value) })),
        read: (list) =>
          namedValues(list) && Object.fromEntries(namedValues(list)!.map((output) => [output.name, output.value])),
      },
    },
  },
);
const PIPELINE_STAGE_OPTIONS = Object.keys(PIPELINE_STAGE_SUGAR.fields!);

/** A Pipeline stage: it runs another pipeline, whose stages have the steps. */
export interface PipelineStageBuilder extends StageWithoutSteps<'Pipeline'> {}

/**
 * A Pipeline stage (a chained pipeline): runs another pipeline, giving values for its runtime inputs; its `outputs`
 * name values the later stages can read.
 *
 * @example
 * ```ts
 * pipelineStage({ identifier: 'deployAll', pipeline: 'deploy_services', project: 'platform', org: 'default' })
 * ```
 */
export function pipelineStage(options: PipelineStageOptions): PipelineStageBuilder {
  const issues = [
    ...checkOptions(
      'pipelineStage',
      options,
      [...STAGE_COMMON_KEYS, ...PIPELINE_STAGE_OPTIONS],
      ['identifier', 'pipeline'],
    ),
    ...stepsOptionIssues('pipelineStage', options, 'Pipeline'),
  ];
  const { common, spec } = split(options, PIPELINE_STAGE_OPTIONS);
  return new StageWithoutStepsImpl<'Pipeline'>(
    {
      ...common,
      issues,
      type: 'Pipeline',
      buildSpec: (references) =>
        // An option pipelineStage() does not know is reported, and written as given.
        wireValue(
          ordered({ ...spec, ...specOfOptions(PIPELINE_STAGE_SUGAR, spec) }, PIPELINE_STAGE_SUGAR.order),
          references,
          ['spec'],
        ) as Record<string, unknown>,
    },
    captureSite(pipelineStage),
  );
}

export type StageTemplateOptions = Omit<StepTemplateOptions, 'timeout' | 'when' | 'failureStrategies' | 'strategy'> &
  Omit<StageCommonOptions, 'steps' | 'rollbackSteps'>;

/**
 * A stage made from a stage template (`stageTemplate()`): the template has its type and its steps, so it takes no
 * `.step()`; `output()` still names an output of a step the template runs.
 */
export interface TemplateStageBuilder extends StageWithoutSteps<''>, StageOutputs {}

class TemplateStageImpl extends StageWithoutStepsImpl<''> implements TemplateStageBuilder {
  output<Outputs extends string>(step: StepBuilder<Outputs, string>, name: NoInfer<Outputs>): Expr {
    return stepOutputOf(this.identifier, step, name);
  }
}

/**
 * A stage made from a stage template: the template's identifier (or its builder) as `templateRef`, a `versionLabel`,
 * and values for the template's runtime inputs in `templateInputs`.
 *
 * @example
 * ```ts
 * stageTemplate({ identifier: 'deployProd', templateRef: 'k8s_deploy', versionLabel: 'v2' })
 * ```
 */
export function stageTemplate<S>(options: WithTemplateBuilder<StageTemplateOptions, 'Stage', S>): TemplateStageBuilder;
export function stageTemplate(options: WithTemplateText<StageTemplateOptions>): TemplateStageBuilder;
export function stageTemplate(options: StageTemplateOptions): TemplateStageBuilder {
  const issues = [
    ...checkOptions('stageTemplate', options, [...STAGE_COMMON_KEYS, ...TEMPLATE_KEYS], ['identifier', 'templateRef']),
    ...stepsOptionIssues('stageTemplate', options, ''),
    ...templateInputsIssues('stageTemplate', options.templateRef, options.templateInputs),
  ];
  const { templateRef, versionLabel, gitBranch, templateInputs, ...common } = options;
  return new TemplateStageImpl(
    {
      ...common,
      type: '',
      buildSpec: () => undefined,
      template: defined({ templateRef, versionLabel, gitBranch, templateInputs }),
      issues,
    },
    captureSite(stageTemplate),
  );
}
