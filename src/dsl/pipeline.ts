import type { z } from 'zod';
import type { notificationRule } from '../schema/notification.js';
import type { PipelineDocument } from '../schema/pipeline.js';
import type { codebase } from '../schema/stage-ci.js';
import {
  childrenAt,
  irNode,
  type IrNode,
  type Reference,
  RESOURCE_BRAND,
  type Resource,
  type Scope,
} from '../ir/node.js';
import { lower } from '../ir/lower.js';
import { Builder, type Chainable } from './builder.js';
import { captureSite } from '../core/source-site.js';
import { defined, tagsDocument, variablesDocument, type TagsOption, type VariableOption } from './common-options.js';
import { Expr, valueText, type Value } from './expr.js';
import { plain } from './plain.js';
import { wireValue } from './references.js';
import type { Expressible } from './wire-types.js';
import { DEFAULT_ORG, type ProjectBuilder } from './project.js';
import { keyList } from './key-list.js';
import { checkOptions, type WithIssues } from './option-check.js';
import { isStageBuilder, stepsRefusal, type StageBuilder, type StageNode } from './stage.js';
import type { StepNode } from './step.js';
import type { StepsFor } from './catalog/placement-types.js';
import { isParallelStages } from './parallel.js';
import { NO_STAGE_YET, TEMPLATE_PIPELINE_HAS_NO_STAGES } from './refusals.js';
import type { PipewrightTypeError } from '../core/type-error.js';
import type { OptionIssue } from '../ir/node.js';
import { templateInputsIssues } from './template-input-check.js';
import type { RuntimeInput } from './input.js';
import { templateBlock, type TemplateRefOption, type WithTemplateBuilder, type WithTemplateText } from './template.js';

type NotificationRuleInput = z.input<typeof notificationRule>;
type EventInput = NonNullable<NotificationRuleInput['pipelineEvents']>[number];
type MethodInput = NonNullable<NotificationRuleInput['notificationMethod']>;
/**
 * A notification rule as the builder takes it: a name, events with their type and a method with its spec, which
 * the platform needs to send anything (the schema leaves them optional, as the platform saves a rule without them).
 */
type NotificationRuleOption = Omit<NotificationRuleInput, 'name' | 'pipelineEvents' | 'notificationMethod'> & {
  readonly name: string;
  readonly pipelineEvents: ReadonlyArray<EventInput & { readonly type: string }>;
  readonly notificationMethod: MethodInput & { readonly spec: NonNullable<MethodInput['spec']> };
};

export interface PipelineOptions {
  readonly identifier: string;
  /** Display name; defaults to the identifier. */
  readonly name?: string;
  /** Owning project: a project builder (checked to be compiled too) or its identifier. */
  readonly project: ProjectBuilder | string;
  /** Owning org; defaults to the project builder's org, else `default`. */
  readonly org?: string;
  readonly description?: string;
  readonly tags?: TagsOption;
  readonly variables?: Readonly<Record<string, VariableOption>>;
  /** Overall timeout of a run, e.g. `1h`. */
  readonly timeout?: Value;
  readonly delegateSelectors?: readonly string[];
  /** `properties` as on the wire (e.g. `ci.codebase`). */
  readonly properties?: Readonly<Record<string, unknown>>;
  /** The repository CI stages clone (`properties.ci.codebase`); `connectorRef` may be a connector builder. */
  readonly codebase?: Expressible<z.input<typeof codebase>>;
  /** Who hears about which pipeline and stage events. */
  readonly notificationRules?: ReadonlyArray<Expressible<NotificationRuleOption>>;
  /** Barriers (`flowControl.barriers`) that Barrier steps wait at: identifiers, or `{ name, identifier }`. */
  readonly barriers?: ReadonlyArray<string | { readonly name: string; readonly identifier: string }>;
  /** Allow running single stages of this pipeline. */
  readonly allowStageExecutions?: boolean;
  /** A rerun keeps the runtime input values of the run it repeats (no new values are asked for). */
  readonly fixedInputsOnRerun?: boolean;
  readonly stages?: readonly StageNode[];
}

/** The options of a pipeline made from a pipeline template: a pipeline's, with `template` instead of `stages`. */
export interface PipelineFromTemplateOptions<S = unknown> extends Omit<PipelineOptions, 'stages'> {
  /**
   * The pipeline template (`templateRef`, `versionLabel`, `templateInputs`, as a stage's): it has the stages, so
   * the pipeline takes none. `templateRef` may be the template's builder (`template.pipeline(...)`): its runtime
   * inputs then type `templateInputs`.
   */
  readonly template: WithTemplateBuilder<TemplateRefOption, 'Pipeline', S> | WithTemplateText<TemplateRefOption>;
}

/**
 * What the builder holds: either kind of options (`template` is kept out of `PipelineOptions`, so a value typed
 * `PipelineOptions` still passes to `pipeline()`).
 */
type PipelineProps = PipelineOptions & { readonly template?: TemplateRefOption };

/** A pipeline made from a pipeline template (`pipeline({ template })`): the template has the stages. */
export interface TemplatePipelineBuilder extends Resource<'pipeline', PipelineDocument>, Chainable {
  /** Refused: the stages are in the template. */
  stage(refused: PipewrightTypeError<typeof TEMPLATE_PIPELINE_HAS_NO_STAGES>, ...more: unknown[]): never;
  /** Refused: the stages, and their steps, are in the template. */
  step(refused: PipewrightTypeError<typeof TEMPLATE_PIPELINE_HAS_NO_STAGES>, ...more: unknown[]): never;
  tags(tags: TagsOption): this;
}

/**
 * Whether a variable's value may be a runtime input: `input()` or its text, or a type too wide to tell (`string`,
 * `Value`); a number, a literal text or an `expr` is fixed.
 */
type MaybeInput<V> = V extends RuntimeInput
  ? true
  : V extends `<+input>${string}`
    ? true
    : V extends string
      ? string extends V
        ? true
        : false
      : V extends number | Expr
        ? false
        : V extends { readonly value: infer Inner }
          ? MaybeInput<Inner>
          : true;
/** The names of the declared variables whose value is a runtime input: what an input set of the pipeline may fill. */
export type InputVariables<Declared> = string extends keyof Declared
  ? string
  : { [Name in keyof Declared]: true extends MaybeInput<Declared[Name]> ? Name : never }[keyof Declared] & string;

/** The wire type of the stage `.step()` adds to after `.stage(...stages)`: the last one's, or `Previous` when none is added. */
type LastStageType<Stages extends readonly unknown[], Previous extends string> = Stages extends readonly []
  ? Previous
  : Stages extends readonly [...unknown[], infer Last]
    ? Last extends StageNode<infer Type>
      ? Type
      : string
    : string;

/**
 * A pipeline; `LastStage` is the wire type of the stage `.step()` adds to, so a step that stage type cannot
 * run, or a step after a stage that takes none, is a type error at the `.step()` call.
 */
export interface PipelineBuilder<
  LastStage extends string = string,
  Variables extends string = string,
  Inputs extends string = string,
>
  extends Resource<'pipeline', PipelineDocument>, Chainable {
  /** Never set: the names of the variables that are runtime inputs, which type an input set's `values`. */
  readonly inputVariables?: Inputs;
  /** The stages' identifiers, in order (those of a parallel block one by one). */
  readonly stageIdentifiers: string[];
  /** Appends stages. */
  stage<const Stages extends readonly StageNode[]>(
    ...stages: Stages
  ): PipelineBuilder<LastStageType<Stages, LastStage>, Variables, Inputs>;
  /** Appends steps to the last stage added, so `.stage(deployment(...)).step(shell(...))` reads in order. */
  step<const Steps extends readonly StepNode[]>(...steps: Steps & StepsFor<Steps, LastStage>): this;
  /** Declares pipeline variables; `variable(name)` then takes their names. */
  variables<const Added extends Readonly<Record<string, VariableOption>>>(
    variables: Added,
  ): PipelineBuilder<LastStage, Variables | (keyof Added & string), Inputs | InputVariables<Added>>;
  /** `<+pipeline.variables.NAME>`: a variable this pipeline declares (only declared names type-check). */
  variable(name: Variables): Expr;
  tags(tags: TagsOption): this;
}

class PipelineBuilderImpl<
  LastStage extends string = string,
  Variables extends string = string,
  Inputs extends string = string,
>
  extends Builder<PipelineProps & WithIssues>
  implements PipelineBuilder<LastStage, Variables, Inputs>
{
  declare readonly inputVariables?: Inputs;
  get [RESOURCE_BRAND]() {
    return 'pipeline' as const;
  }
  get identifier(): string {
    return this.props.identifier;
  }
  get scope(): Scope {
    const { project, org } = this.props;
    const projectOrg = typeof project === 'object' ? project?.org : undefined;
    // A missing project is reported (missing-option); the scope still has a value so nothing crashes on the way.
    const projectId = typeof project === 'string' ? project : (project?.identifier ?? '');
    return { org: org ?? projectOrg ?? DEFAULT_ORG, project: projectId };
  }
  get stageIdentifiers(): string[] {
    const flat = (s: StageNode): string[] => (isParallelStages(s) ? s.stages.flatMap(flat) : [s.identifier]);
    return (this.props.stages ?? []).flatMap(flat);
  }

  stage<const Stages extends readonly StageNode[]>(
    ...stages: Stages
  ): PipelineBuilder<LastStageType<Stages, LastStage>, Variables, Inputs> {
    if (this.props.template !== undefined)
      throw new TypeError(`pipeline "${this.identifier}".stage(): ${TEMPLATE_PIPELINE_HAS_NO_STAGES}`);
    stages.forEach((candidate, index) => {
      if (!isStageBuilder(candidate))
        throw new TypeError(
          `pipeline "${this.identifier}".stage(): argument ${index + 1} is not a stage; build one with deployment() or stage()`,
        );
    });
    return this.with({ stages: [...(this.props.stages ?? []), ...stages] }) as unknown as PipelineBuilder<
      LastStageType<Stages, LastStage>,
      Variables,
      Inputs
    >;
  }

  step<const Steps extends readonly StepNode[]>(...steps: Steps & StepsFor<Steps, LastStage>): this {
    if (this.props.template !== undefined)
      throw new TypeError(`pipeline "${this.identifier}".step(): ${TEMPLATE_PIPELINE_HAS_NO_STAGES}`);
    const stages = this.props.stages ?? [];
    const last = stages[stages.length - 1];
    if (!last) throw new TypeError(`pipeline "${this.identifier}".step(): ${NO_STAGE_YET}`);
    const refusal = stepsRefusal(last);
    if (refusal) throw new TypeError(`pipeline "${this.identifier}".step(): the last stage takes no steps; ${refusal}`);
    return this.with({
      stages: [...stages.slice(0, -1), (last as StageBuilder).step(...(steps as readonly StepNode[]))],
    }) as this;
  }

  variables<const Added extends Readonly<Record<string, VariableOption>>>(
    variables: Added,
  ): PipelineBuilder<LastStage, Variables | (keyof Added & string), Inputs | InputVariables<Added>> {
    return this.with({ variables: { ...this.props.variables, ...variables } }) as unknown as PipelineBuilder<
      LastStage,
      Variables | (keyof Added & string),
      Inputs | InputVariables<Added>
    >;
  }

  variable(name: Variables): Expr {
    return new Expr(`<+pipeline.variables.${name}>`);
  }
  tags(tags: TagsOption): this {
    return this.with({ tags });
  }

  protected makeNode(): IrNode {
    const p = this.props;
    const { org, project } = this.scope;
    const references: Reference[] = [];
    if (typeof p.project === 'object' && p.project !== null)
      references.push({ path: ['projectIdentifier'], target: p.project });
    // A pipeline made from a template writes no `stages` (the template has them), unless some were given anyway.
    const stages =
      p.template !== undefined && p.stages === undefined
        ? undefined
        : (p.stages ?? []).map((builder) => builder.toNode());
    const properties =
      p.codebase === undefined
        ? p.properties
        : { ...p.properties, ci: { ...(p.properties?.ci as object | undefined), codebase: p.codebase } };
    const body = defined({
      name: p.name ?? p.identifier,
      identifier: p.identifier,
      projectIdentifier: project!,
      orgIdentifier: org!,
      description: p.description,
      tags: tagsDocument(p.tags),
      template: p.template && templateBlock(p.template, references, ['template']),
      properties: properties && (wireValue(properties, references, ['properties']) as Record<string, unknown>),
      allowStageExecutions: p.allowStageExecutions,
      fixedInputsOnRerun: p.fixedInputsOnRerun,
      timeout: p.timeout === undefined ? undefined : valueText(p.timeout),
      delegateSelectors: p.delegateSelectors && [...p.delegateSelectors],
      variables: p.variables && variablesDocument(p.variables),
      flowControl: p.barriers && {
        barriers: p.barriers.map((barrier) =>
          typeof barrier === 'string' ? { name: barrier, identifier: barrier } : { ...barrier },
        ),
      },
      stages,
      notificationRules: p.notificationRules && (plain(p.notificationRules) as never),
    });
    return irNode({
      kind: 'pipeline',
      wrapper: 'pipeline',
      resourceKind: 'pipeline',
      key:
        typeof p.identifier === 'string'
          ? { kind: 'pipeline', identifier: p.identifier, ...(org ? { org } : {}), ...(project ? { project } : {}) }
          : undefined,
      identifier: p.identifier,
      site: this.site,
      body,
      children: childrenAt(['stages'], stages ?? []),
      references,
      issues: p.issues,
    });
  }

  /** The wire document. */
  toDocument(): PipelineDocument {
    return lower(this.toNode()) as PipelineDocument;
  }
}

const PIPELINE_KEYS: readonly string[] = keyList<PipelineProps>()([
  'identifier',
  'name',
  'project',
  'org',
  'description',
  'tags',
  'variables',
  'timeout',
  'delegateSelectors',
  'properties',
  'codebase',
  'notificationRules',
  'barriers',
  'allowStageExecutions',
  'fixedInputsOnRerun',
  'template',
  'stages',
]);

/** `stages` given beside `template`: reported with the reason, never dropped (the platform takes the template's). */
const templateStagesIssues = (options: PipelineProps): OptionIssue[] =>
  options?.template !== undefined && options.stages !== undefined
    ? [
        {
          code: 'unknown-option',
          message: 'pipeline() made from a template has no option "stages"',
          hint: TEMPLATE_PIPELINE_HAS_NO_STAGES,
        },
      ]
    : [];

/**
 * A pipeline: its stages run one after another (or side by side with `parallel`), each with its own steps.
 * Add stages with `.stage(...)`; `.step(...)` adds steps to the last stage added.
 *
 * @example
 * ```ts
 * pipeline({ identifier: 'release', project: 'web' })
 *   .stage(custom({ identifier: 'smoke' }))
 *   .step(shell({ identifier: 'ping', script: 'curl -f https://web.example.com' }))
 * ```
 *
 * With `template`, the pipeline is made from a pipeline template, which has the stages:
 * `pipeline({ identifier: 'release', project: 'web', template: { templateRef: 'account.release_flow', versionLabel: 'v2' } })`.
 */
// `LastStage` starts as `string` (any stage), not as "no stage yet": `let p = pipeline(...)` reassigned in a loop
// (`p = p.stage(...)`, `p = p.step(...)`) keeps the type of its first value, and must still take steps.
export function pipeline<const Declared extends Readonly<Record<string, VariableOption>> = {}>(
  options: PipelineOptions & { readonly variables?: Declared; readonly template?: undefined },
): PipelineBuilder<string, keyof Declared & string, InputVariables<Declared>>;
export function pipeline<S = unknown>(options: PipelineFromTemplateOptions<S>): TemplatePipelineBuilder;
export function pipeline(options: PipelineProps): PipelineBuilder | TemplatePipelineBuilder {
  const issues = [
    ...checkOptions('pipeline', options, PIPELINE_KEYS, ['identifier', 'project']),
    ...templateStagesIssues(options),
    ...templateInputsIssues('pipeline', options?.template?.templateRef, options?.template?.templateInputs),
  ];
  const built = new PipelineBuilderImpl({ ...options, issues }, captureSite(pipeline));
  // One class for both: made from a template, its `.stage()` and `.step()` refuse at run time as the types do.
  return options?.template === undefined ? built : (built as unknown as TemplatePipelineBuilder);
}
