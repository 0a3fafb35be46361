import type { z } from 'zod';
import type { ciSpec, pipelineStageSpec } from '../schema/stages.js';
import { childrenAt, irNode, type IrNode } from '../ir/node.js';
import { captureSite } from '../core/source-site.js';
import { defined } from './common-options.js';
import { valueText, type Value } from './expr.js';
import { ordered, wireValue } from './references.js';
import type { FailureStrategyOption, VariableOption } from './common-options.js';
import { keyList } from './key-list.js';
import { checkOptions } from './option-check.js';
import type { StrategyOption, WhenOption } from './step.js';
import { STAGE_COMMON_KEYS, StageBuilder, type Execution, type StageCommonOptions, type StageProps } from './stage.js';
import type { PipelineBuilder } from './pipeline.js';
import { TEMPLATE_KEYS, type StepTemplateOptions, type WithTemplateBuilder, type WithTemplateText } from './template.js';
import type { Expressible } from './wire-types.js';

/** `execution` with rollbackSteps only when there are some: CI, Approval and Custom stages rarely roll back. */
const stepsOnly = (execution: Execution | undefined) =>
  execution && (execution.rollbackSteps.length > 0 ? execution : { steps: execution.steps });

type CiSpecOptions = Omit<Expressible<z.input<typeof ciSpec>>, 'execution' | 'runtime'>;

export interface CiOptions extends StageCommonOptions, CiSpecOptions {
  /** `Cloud` (Harness Cloud) or `Docker` (a local runner), or the full `{ type, spec }`; use with `platform`. */
  readonly runtime?: 'Cloud' | 'Docker' | { readonly type: 'Cloud' | 'Docker'; readonly spec?: Readonly<Record<string, unknown>> };
}

/** The CI spec's fields, in the platform's order; each is an option of `ci()`. */
const CI_SPEC_KEYS: readonly string[] = keyList<CiOptions, keyof StageCommonOptions>()([
  'cloneCodebase', 'caching', 'buildIntelligence', 'platform', 'runtime', 'infrastructure', 'sharedPaths', 'serviceDependencies',
]);

const split = (options: object, specKeys: readonly string[]) => {
  const common: Record<string, unknown> = {};
  const spec: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) (specKeys.includes(key) || !STAGE_COMMON_KEYS.includes(key) ? spec : common)[key] = value;
  return { common: common as unknown as StageCommonOptions, spec };
};

/** A CI (build) stage: clones `properties.ci.codebase` and runs container steps on `runtime` or `infrastructure`. */
export function ci(options: CiOptions): StageBuilder<'CI'> {
  const issues = checkOptions('ci', options, [...STAGE_COMMON_KEYS, ...CI_SPEC_KEYS], ['identifier']);
  const { common, spec } = split(options, CI_SPEC_KEYS);
  const runtime = typeof spec.runtime === 'string' ? { type: spec.runtime, spec: {} } : spec.runtime;
  return new StageBuilder<'CI'>(
    {
      ...common,
      issues,
      type: 'CI',
      hasExecution: true,
      buildSpec: (references, execution) => ({
        ...(wireValue(ordered({ ...spec, runtime }, CI_SPEC_KEYS), references, ['spec']) as Record<string, unknown>),
        execution: execution && { steps: execution.steps },
      }),
    },
    captureSite(ci),
  );
}

/** An Approval stage: approval steps (and a few utility steps) before the stages they guard. */
export function approval(options: StageCommonOptions): StageBuilder<'Approval'> {
  const issues = checkOptions('approval', options, STAGE_COMMON_KEYS, ['identifier']);
  return new StageBuilder<'Approval'>(
    { ...options, issues, type: 'Approval', hasExecution: true, buildSpec: (_references, execution) => ({ execution: stepsOnly(execution) }) },
    captureSite(approval),
  );
}

export interface CustomOptions extends StageCommonOptions {
  /** `environment` as on the wire, for custom stages that target an environment. */
  readonly environment?: Readonly<Record<string, unknown>>;
}

/** A Custom stage: any steps that do not need a service or build infrastructure (scripts, HTTP, approvals). */
export function custom(options: CustomOptions): StageBuilder<'Custom'> {
  const issues = checkOptions('custom', options, [...STAGE_COMMON_KEYS, 'environment'], ['identifier']);
  const { environment, ...common } = options;
  return new StageBuilder<'Custom'>(
    {
      ...common,
      issues,
      type: 'Custom',
      hasExecution: true,
      buildSpec: (references, execution) =>
        defined({ environment: wireValue(environment, references, ['spec', 'environment']), execution: stepsOnly(execution) }),
    },
    captureSite(custom),
  );
}

type PipelineStageSpec = Omit<Expressible<z.input<typeof pipelineStageSpec>>, 'outputs' | 'pipeline'>;

export interface PipelineStageOptions extends Omit<StageCommonOptions, 'steps' | 'rollbackSteps'>, PipelineStageSpec {
  /** The child pipeline: its builder (checked to be compiled too) or its identifier. */
  readonly pipeline: Value | PipelineBuilder<string>;
  /** Outputs of the child pipeline, by name: `{ image: expr.raw('pipeline.stages.build.variables.image') }`. */
  readonly outputs?: Readonly<Record<string, Value>>;
}

/** The Pipeline stage spec's fields, in the platform's order; each is an option of `pipelineStage()`. */
const PIPELINE_STAGE_KEYS: readonly string[] = keyList<PipelineStageOptions, keyof StageCommonOptions>()([
  'org', 'pipeline', 'project', 'inputSetReferences', 'inputs', 'outputs',
]);

/** A Pipeline stage (chained pipeline): runs another pipeline, with values for its inputs. */
export function pipelineStage(options: PipelineStageOptions): StageBuilder<'Pipeline'> {
  const issues = checkOptions('pipelineStage', options, [...STAGE_COMMON_KEYS, ...PIPELINE_STAGE_KEYS], ['identifier', 'pipeline']);
  const { common, spec } = split(options, PIPELINE_STAGE_KEYS);
  const outputs = spec.outputs as Readonly<Record<string, Value>> | undefined;
  return new StageBuilder<'Pipeline'>(
    {
      ...common,
      issues,
      type: 'Pipeline',
      hasExecution: false,
      buildSpec: (references) =>
        wireValue(
          ordered(
            { ...spec, outputs: outputs && Object.entries(outputs).map(([name, value]) => ({ name, value: valueText(value) })) },
            PIPELINE_STAGE_KEYS,
          ),
          references,
          ['spec'],
        ) as Record<string, unknown>,
    },
    captureSite(pipelineStage),
  );
}

export type StageTemplateOptions = Omit<StepTemplateOptions, 'timeout' | 'when' | 'failureStrategies' | 'strategy'> &
  Omit<StageCommonOptions, 'steps' | 'rollbackSteps'>;

/** A stage made from a stage template: `templateRef`, `versionLabel`, and values for its `templateInputs`. */
export function stageTemplate<S>(options: WithTemplateBuilder<StageTemplateOptions, 'Stage', S>): StageBuilder;
export function stageTemplate(options: WithTemplateText<StageTemplateOptions>): StageBuilder;
export function stageTemplate(options: StageTemplateOptions): StageBuilder {
  const issues = checkOptions('stageTemplate', options, [...STAGE_COMMON_KEYS, ...TEMPLATE_KEYS], ['identifier', 'templateRef']);
  const { templateRef, versionLabel, gitBranch, templateInputs, ...common } = options;
  return new StageBuilder(
    {
      ...common,
      type: '',
      hasExecution: false,
      buildSpec: () => undefined,
      template: defined({ templateRef, versionLabel, gitBranch, templateInputs }),
      issues,
    },
    captureSite(stageTemplate),
  );
}

interface ParallelStagesProps extends StageProps {
  readonly stages: readonly StageBuilder[];
}

/** Stages that run at the same time: `{ parallel: [{ stage }, ...] }` in the pipeline's stages. */
export class ParallelStages extends StageBuilder<'parallel'> {
  get stages(): readonly StageBuilder[] {
    return (this.props as ParallelStagesProps).stages;
  }

  // A parallel group is a list on the wire: it has no when, failure strategies, variables or strategy of its
  // own. Setting one is reported (it used to vanish from the YAML without a word).
  override when(_when: WhenOption): this {
    return this.#refuse('when');
  }
  override failureStrategies(..._strategies: FailureStrategyOption[]): this {
    return this.#refuse('failureStrategies');
  }
  override variables(_variables: Readonly<Record<string, VariableOption>>): this {
    return this.#refuse('variables');
  }
  override strategy(_strategy: StrategyOption): this {
    return this.#refuse('strategy');
  }
  #refuse(method: string): this {
    const issue = {
      code: 'unknown-option' as const,
      message: `parallel(...) stages have no ${method} of their own; .${method}() on the group would be lost`,
      hint: `set ${method} on each stage inside parallel(...)`,
    };
    return this.with({ issues: [...(this.props.issues ?? []), issue] } as Partial<StageProps>);
  }

  override toNode(): IrNode {
    const nodes = this.stages.map((stage) => stage.toNode());
    return irNode({ kind: 'parallel', wrapper: 'parallel', site: this.site, body: nodes, children: childrenAt([], nodes), issues: this.props.issues });
  }
}

export const parallelStages = (stages: readonly StageBuilder[], site: StageBuilder['site']): ParallelStages =>
  new ParallelStages(
    {
      identifier: stages.map((stage) => stage.identifier).join('+'),
      type: 'parallel',
      hasExecution: false,
      buildSpec: () => undefined,
      stages,
    } as ParallelStagesProps,
    site,
  );
