import type { StageSpecs } from './catalog/generated/types.js';
import {
  childrenAt,
  irNode,
  isIrNode,
  type Child,
  type IrNode,
  type OptionIssue,
  type Reference,
  isResource,
  type AnyResource,
  type RESOURCE_BRAND,
} from '../ir/node.js';
import { liftStepLists } from '../ir/lift.js';
import { keyList } from './key-list.js';
import { checkOptions, missingOptions, unknownOptions } from './option-check.js';
import { Builder, reidentified, type Chainable } from './builder.js';
import { captureSite, type SourceSite } from '../core/source-site.js';
import { appendUsed, usesOf } from './use-sites.js';
import {
  defined,
  failureStrategiesDocument,
  tagsDocument,
  variablesDocument,
  type FailureStrategyOption,
  type TagsOption,
  type VariableOption,
} from './common-options.js';
import { Expr, optionalText, valueText, type Expressive, type Value } from './expr.js';
import { plain } from './plain.js';
import { refValue, wireValue } from './references.js';
import type { EnvironmentBuilder } from './environment.js';
import type { InfrastructureBuilder } from './infrastructure.js';
import type { ServiceBuilder } from './service.js';
import { isStepNode, type StepBuilder, type StepNode, type StrategyOption, type WhenOption } from './step.js';
import type { PlacementCheck } from './catalog/placement-types.js';
import type {
  EnvironmentYaml,
  InfraUseFromStage,
  InfrastructureDef,
  ServiceDefinition,
  ServiceUseFromStage,
  ServiceYaml,
  StageOverridesConfig,
} from './catalog/generated/types.js';
import type { PipewrightTypeError } from '../core/type-error.js';
import { noStepsReason, type NoStepsReason } from './refusals.js';
import { templateBlock, type TemplateRefOption } from './template.js';

export const STAGE_BRAND = Symbol.for('pipewright.stage');
/** On a stage that takes no steps: why (registered, so a stage from another copy of the library is read too). */
export const NO_STEPS = Symbol.for('pipewright.stage.noSteps');

/** Why a stage list entry takes no `.step()`, or undefined when it does. */
export const stepsRefusal = (stage: StageNode): string | undefined =>
  (stage as { readonly [NO_STEPS]?: string })[NO_STEPS];

export interface StageCommonOptions {
  readonly identifier: string;
  /** Display name; defaults to the identifier. */
  readonly name?: string;
  readonly description?: string;
  readonly tags?: TagsOption;
  readonly failureStrategies?: readonly FailureStrategyOption[];
  readonly when?: WhenOption;
  readonly variables?: Readonly<Record<string, VariableOption>>;
  readonly timeout?: Value;
  readonly delegateSelectors?: readonly string[];
  /** Run this stage several times: matrix, repeat or parallelism. */
  readonly strategy?: StrategyOption;
  /** Steps of the stage's execution. */
  readonly steps?: readonly StepNode[];
  /** Steps run on rollback. */
  readonly rollbackSteps?: readonly StepNode[];
}

/**
 * `steps` and `rollbackSteps` given as options, each step checked against the stage type in the types as
 * `.step()` checks it (a K8sRollingDeploy in a CI stage is a type error, with the reason).
 */
export interface PlacedSteps<
  Type extends string,
  Steps extends readonly StepNode[],
  Rollback extends readonly StepNode[],
> {
  readonly steps?: Steps & PlacementCheck<Steps, Type>;
  readonly rollbackSteps?: Rollback & PlacementCheck<Rollback, Type>;
}

/** The stage's steps as nodes, which the spec places at `execution.steps` and `execution.rollbackSteps`. */
export type Execution = { steps: IrNode[]; rollbackSteps: IrNode[] };

/** Builds the stage `spec` around its already-built execution; references are recorded at paths from the stage's body. */
type SpecFactory = (references: Reference[], execution: Execution | undefined) => Record<string, unknown> | undefined;

interface StageProps extends StageCommonOptions {
  /** Empty for a stage made from a template (the template has the type). */
  readonly type: string;
  readonly buildSpec: SpecFactory;
  readonly template?: TemplateRefOption;
  /** Mistakes in the options the builder was given, reported when the document is built. */
  readonly issues?: readonly OptionIssue[];
}

/** Anything that stands in a pipeline's list of stages: a stage, `parallel(...)` stages, `raw.stage(...)`. */
export interface StageNode<Type extends string = string> {
  readonly [STAGE_BRAND]: true;
  readonly identifier: string;
  /** Its wire type; `''` for a stage made from a template (the template has the type), `parallel` for a parallel block. */
  readonly type: Type;
  readonly site: SourceSite;
  /** Its node in the IR (`lower` gives the wire element). */
  toNode(): IrNode;
}

/** What every single stage has, whether or not it runs steps of its own. */
export interface StageSettings<Type extends string = string> extends StageNode<Type>, Chainable {
  /** `<+pipeline.stages.STAGE.variables.NAME>`: a variable of this stage, for later stages. */
  variable(name: string): Expr;
  failureStrategies(...strategies: FailureStrategyOption[]): this;
  when(when: WhenOption): this;
  variables(variables: Readonly<Record<string, VariableOption>>): this;
  /** A looping strategy: `{ matrix: { region: ['eu', 'us'] } }`, `{ repeat: { items: [...] } }`, `{ parallelism: n }`. */
  strategy(strategy: StrategyOption): this;
  /**
   * The same stage under another identifier (and name, unless given; a name equal to the old identifier follows
   * the new one): one definition run twice, e.g. the same checks against two environments.
   */
  withIdentifier(identifier: string, name?: string): this;
}

/** The reference to an output of a step of a stage, as later stages write it. */
export interface StageOutputs {
  /**
   * `<+pipeline.stages.STAGE.spec.execution.steps.STEP.output.outputVariables.NAME>`: an output of a step of
   * this stage, for later stages (within the stage, `step.output(name)` is shorter). Only the step's declared
   * outputs type-check.
   */
  output<Outputs extends string>(step: StepBuilder<Outputs, string>, name: NoInfer<Outputs>): Expr;
}

/** A stage that runs steps; `Type` is its wire type, so `.step()` refuses in the types a step the stage cannot run. */
export interface StageBuilder<Type extends string = string> extends StageSettings<Type>, StageOutputs {
  /** Appends steps to the stage's execution; a step type the stage type cannot run is a type error. */
  step<const Steps extends readonly StepNode[]>(...steps: Steps & PlacementCheck<Steps, Type>): this;
  /** Appends steps to the stage's rollback. */
  rollbackStep<const Steps extends readonly StepNode[]>(...steps: Steps & PlacementCheck<Steps, Type>): this;
}

/**
 * A stage that runs no steps of its own (a Pipeline stage, a stage made from a template, a stage type whose
 * schema has no execution): `.step()` is refused, and the type error says why.
 */
export interface StageWithoutSteps<Type extends string = string> extends StageSettings<Type> {
  /** Refused: this stage has no steps of its own (the type error says why). */
  step(refused: PipewrightTypeError<NoStepsReason<Type>>, ...more: unknown[]): never;
  /** Refused: this stage has no steps of its own (the type error says why). */
  rollbackStep(refused: PipewrightTypeError<NoStepsReason<Type>>, ...more: unknown[]): never;
}

/** The stage classes' common part: settings, references, and the node around the spec each kind builds. */
abstract class StageBase<Type extends string> extends Builder<StageProps> implements StageSettings<Type> {
  get [STAGE_BRAND](): true {
    return true;
  }
  get identifier(): string {
    return this.props.identifier;
  }
  get type(): Type {
    return this.props.type as Type;
  }

  variable(name: string): Expr {
    if (this.props.variables && !Object.hasOwn(this.props.variables, name))
      throw new TypeError(
        `stage "${this.identifier}" has no variable "${name}" (it has: ${Object.keys(this.props.variables).join(', ')})`,
      );
    return new Expr(`<+pipeline.stages.${this.identifier}.variables.${name}>`);
  }
  failureStrategies(...strategies: FailureStrategyOption[]): this {
    return this.with({ failureStrategies: strategies });
  }
  when(when: WhenOption): this {
    return this.with({ when });
  }
  variables(variables: Readonly<Record<string, VariableOption>>): this {
    return this.with({ variables: { ...this.props.variables, ...variables } });
  }
  strategy(strategy: StrategyOption): this {
    return this.with({ strategy });
  }
  withIdentifier(identifier: string, name?: string): this {
    return this.with(reidentified(this.props, identifier, name));
  }

  /** The stage's own steps as nodes, for the spec to place; undefined for a stage without steps. */
  protected abstract execution(): Execution | undefined;

  protected makeNode(): IrNode {
    const p = this.props;
    const references: Reference[] = [];
    const execution = this.execution();
    const spec = p.buildSpec(references, execution);
    const body = defined({
      name: p.name ?? p.identifier,
      identifier: p.identifier,
      description: p.description,
      type: p.type || undefined,
      spec,
      template: p.template && templateBlock(p.template, references, ['template']),
      tags: tagsDocument(p.tags),
      failureStrategies: p.failureStrategies && failureStrategiesDocument(p.failureStrategies),
      when: p.when && (plain(p.when) as Record<string, unknown>),
      strategy: p.strategy && (plain(p.strategy) as Record<string, unknown>),
      variables: p.variables && variablesDocument(p.variables),
      timeout: p.timeout === undefined ? undefined : valueText(p.timeout),
      delegateSelectors: p.delegateSelectors && [...p.delegateSelectors],
    });
    const placed = spec?.execution as Partial<Execution> | undefined;
    const children: Child[] = [];
    for (const key of ['steps', 'rollbackSteps'] as const) {
      const list = placed?.[key];
      if (!Array.isArray(list)) continue;
      // Steps given in the spec as data were lifted to nodes too; only the builder's own list has use sites.
      const uses = list === execution?.[key] ? usesOf(p[key]) : undefined;
      childrenAt(['spec', 'execution', key], list, uses).forEach(
        (child) => isIrNode(child.node) && children.push(child),
      );
    }
    return irNode({
      kind: 'stage',
      wrapper: 'stage',
      identifier: p.identifier,
      type: p.type || undefined,
      site: this.site,
      body,
      children,
      references,
      issues: p.issues,
    });
  }
}

/** `<+pipeline.stages.STAGE.spec.execution.steps.STEP.output.outputVariables.NAME>`. */
export const stepOutputOf = (stage: string, step: StepNode & { readonly identifier: string }, name: string): Expr =>
  new Expr(`<+pipeline.stages.${stage}.spec.execution.steps.${step.identifier}.output.outputVariables.${name}>`);

/** The class of the stages that run steps; users hold it as a `StageBuilder`. */
export class StageImpl<Type extends string = string> extends StageBase<Type> implements StageBuilder<Type> {
  output<Outputs extends string>(step: StepBuilder<Outputs, string>, name: NoInfer<Outputs>): Expr {
    return stepOutputOf(this.identifier, step, name);
  }
  step<const Steps extends readonly StepNode[]>(...steps: Steps & PlacementCheck<Steps, Type>): this {
    this.#assertSteps(steps, 'step');
    return this.with({ steps: appendUsed(this.props.steps, steps) });
  }
  rollbackStep<const Steps extends readonly StepNode[]>(...steps: Steps & PlacementCheck<Steps, Type>): this {
    this.#assertSteps(steps, 'rollbackStep');
    return this.with({ rollbackSteps: appendUsed(this.props.rollbackSteps, steps) });
  }

  #assertSteps(steps: readonly unknown[], method: string): void {
    steps.forEach((candidate, index) => {
      if (!isStepNode(candidate))
        throw new TypeError(
          `stage "${this.identifier}".${method}(): argument ${index + 1} is not a step; build one with shell(), step() or another step builder`,
        );
    });
  }

  protected execution(): Execution {
    return {
      steps: (this.props.steps ?? []).map((node) => node.toNode()),
      rollbackSteps: (this.props.rollbackSteps ?? []).map((node) => node.toNode()),
    };
  }
}

/** The class of the stages without steps of their own; `.step()` throws for JavaScript callers, with the reason. */
export class StageWithoutStepsImpl<Type extends string = string>
  extends StageBase<Type>
  implements StageWithoutSteps<Type>
{
  get [NO_STEPS](): string {
    return noStepsReason(this.props.type);
  }
  step(..._steps: unknown[]): never {
    throw new TypeError(`stage "${this.identifier}".step(): ${this[NO_STEPS]}`);
  }
  rollbackStep(..._steps: unknown[]): never {
    throw new TypeError(`stage "${this.identifier}".rollbackStep(): ${this[NO_STEPS]}`);
  }
  protected execution(): undefined {
    return undefined;
  }
}

export const isStageBuilder = (value: unknown): value is StageNode =>
  typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[STAGE_BRAND] === true;

export interface GenericStageOptions extends StageCommonOptions {
  /** Stage type on the wire, e.g. `Approval`, `Custom`, `CI`. */
  readonly type: string;
  /** The stage spec; with steps, `execution` is filled from them. */
  readonly spec?: Readonly<Record<string, unknown>>;
}

/**
 * Any stage type, given its wire `type` and `spec` as the platform writes them: for stage types without a builder
 * of their own. Steps added with `.step()` fill `spec.execution`.
 *
 * @example
 * ```ts
 * stage({ identifier: 'flags', type: 'FeatureFlag', spec: {} })
 * ```
 */
export function stage(options: GenericStageOptions): StageBuilder {
  const issues = [
    ...unknownOptions('stage', options, [...STAGE_COMMON_KEYS, 'type', 'spec']),
    ...missingOptions('stage', options, ['identifier', 'type']),
  ];
  return genericStage({ ...options, issues }, captureSite(stage));
}

/** The options every stage builder takes besides its type's own. */
export const STAGE_COMMON_KEYS: readonly string[] = keyList<StageCommonOptions>()([
  'identifier',
  'name',
  'description',
  'tags',
  'failureStrategies',
  'when',
  'variables',
  'timeout',
  'delegateSelectors',
  'strategy',
  'steps',
  'rollbackSteps',
]);

/** `steps` or `rollbackSteps` given to a stage of a `type` that takes none: reported with the reason, never dropped. */
export const stepsOptionIssues = (builder: string, options: object, type: string): OptionIssue[] =>
  (['steps', 'rollbackSteps'] as const)
    .filter((key) => (options as Record<string, unknown> | undefined)?.[key] !== undefined)
    .map((key) => ({
      code: 'unknown-option',
      message: `${builder}() has no option "${key}"`,
      hint: noStepsReason(type),
    }));

type GenericStageProps<Type extends string> = GenericStageOptions & {
  readonly type: Type;
  readonly issues?: readonly OptionIssue[];
};

/** A stage of any type from its wire `spec`; steps added with `.step()` fill `spec.execution`. */
export function genericStage<Type extends string>(
  options: GenericStageProps<Type>,
  site: SourceSite,
): StageBuilder<Type> {
  const { spec, ...common } = options;
  return new StageImpl<Type>({ ...common, type: options.type, buildSpec: wireSpec(spec, site) }, site);
}

/** A stage of a type that runs no steps (its catalogue entry has no execution), from its wire `spec`. */
export function genericStageWithoutSteps<Type extends string>(
  options: GenericStageProps<Type>,
  site: SourceSite,
): StageWithoutSteps<Type> {
  const { spec, ...common } = options;
  return new StageWithoutStepsImpl<Type>({ ...common, type: options.type, buildSpec: wireSpec(spec, site) }, site);
}

/** The spec as given, with the stage's steps (if any) in `execution`. */
function wireSpec(spec: Readonly<Record<string, unknown>> | undefined, site: SourceSite): SpecFactory {
  return (references, execution) => {
    const base = wireValue(spec ?? {}, references, ['spec']) as Record<string, unknown>;
    const hasSteps = execution && (execution.steps.length > 0 || execution.rollbackSteps.length > 0);
    // Steps written into the spec as data are lifted, so the rules see them as they see built ones.
    if (!hasSteps) return spec === undefined ? undefined : withLiftedSteps(base, site);
    const existing = (base.execution ?? {}) as Record<string, unknown>;
    // rollbackSteps appears when there are some, or when the given spec lists it (even empty).
    const rollback =
      execution.rollbackSteps.length > 0 || 'rollbackSteps' in existing
        ? { rollbackSteps: execution.rollbackSteps }
        : {};
    return { ...base, execution: { ...existing, steps: execution.steps, ...rollback } };
  };
}

function withLiftedSteps(spec: Record<string, unknown>, site: SourceSite): Record<string, unknown> {
  const execution = spec.execution;
  if (typeof execution !== 'object' || execution === null || Array.isArray(execution)) return spec;
  return { ...spec, execution: liftStepLists(execution as Record<string, unknown>, [], site).body };
}

export interface KubernetesInfrastructureOption {
  /** Infrastructure definition type; default KubernetesDirect. */
  readonly type?: string;
  /** Cluster connector: a connector builder, an identifier, or `input()`. */
  readonly connector: Value | AnyResource;
  readonly namespace: Value;
  /** Helm-style release name; default `release-<+INFRA_KEY>`, as the platform's editor writes. */
  readonly releaseName?: Value;
}

/** The deployment types of the platform's schema (DeploymentStageConfig's `deploymentType` enum). */
type DeploymentType = DeploymentTypeOf<StageSpecs['Deployment']>;
type DeploymentTypeOf<Spec> = Spec extends { readonly deploymentType: infer Type extends string } ? Type : never;

export interface DeploymentOptions extends StageCommonOptions {
  /** Service reference (`serviceConfig.serviceRef`): the service's builder (checked to be compiled too), an identifier or `input()`. */
  readonly service: Value | ServiceBuilder;
  /** Deployment type (`serviceDefinition.type`); default Kubernetes. */
  readonly deploymentType?: DeploymentType;
  /** Service variables (`serviceDefinition.spec.variables`). */
  readonly serviceVariables?: Readonly<Record<string, VariableOption>>;
  /** Environment reference (`infrastructure.environmentRef`): the environment's builder (checked to be compiled too), an identifier or `input()`. */
  readonly environment: Value | EnvironmentBuilder;
  readonly infrastructure: KubernetesInfrastructureOption;
  /** Allow several runs to deploy to the same infrastructure at once (default false). */
  readonly allowSimultaneousDeployments?: Expressive<boolean>;
  /** Never given in this form; it tells the forms apart. */
  readonly serviceConfig?: never;
}

/**
 * The older form's service, given whole: an earlier stage's (`useFromStage`), or a `serviceRef` or an inline
 * `service: { name, identifier }` with its `serviceDefinition` (type, manifests, artifacts, variables); each with
 * optional `stageOverrides`. The schema takes exactly these combinations.
 */
type ServiceConfigOption = { readonly stageOverrides?: StageOverridesConfig } & (
  | {
      readonly useFromStage: ServiceUseFromStage;
      readonly serviceRef?: never;
      readonly service?: never;
      readonly serviceDefinition?: never;
    }
  | {
      readonly serviceRef: Value;
      readonly service?: never;
      readonly serviceDefinition: ServiceDefinition;
      readonly useFromStage?: never;
    }
  | {
      readonly service: ServiceYaml;
      readonly serviceRef?: never;
      readonly serviceDefinition: ServiceDefinition;
      readonly useFromStage?: never;
    }
);

/**
 * The older form's infrastructure, given whole: an `environmentRef` or an inline `environment: { name,
 * identifier, type }`, and an `infrastructureDefinition` (or an earlier stage's, `useFromStage`).
 */
type PipelineInfrastructureOption = {
  readonly allowSimultaneousDeployments?: Expressive<boolean>;
  readonly infrastructureKey?: Value;
} & (
  | { readonly environmentRef: Value; readonly environment?: never }
  | { readonly environment: EnvironmentYaml; readonly environmentRef?: never }
) &
  (
    | { readonly infrastructureDefinition: InfrastructureDef; readonly useFromStage?: never }
    | { readonly useFromStage: InfraUseFromStage; readonly infrastructureDefinition?: never }
  );

/**
 * The older `serviceConfig`/`infrastructure` form as the platform writes it, for what the Kubernetes shorthand
 * above does not say: a service from an earlier stage, an inline service or environment, stage overrides,
 * artifacts and manifests. Written as given, in the platform's key order.
 */
export interface ServiceConfigDeploymentOptions extends StageCommonOptions {
  readonly serviceConfig: ServiceConfigOption;
  readonly infrastructure: PipelineInfrastructureOption;
  /** Never given in this form: `serviceConfig` says the service. */
  readonly service?: never;
  /** Never given in this form: `infrastructure` says the environment. */
  readonly environment?: never;
  readonly deploymentType?: never;
}

/**
 * An infrastructure of the environment: its builder, its identifier, or with values for its runtime inputs (a
 * plain object: another kind's builder, which has an identifier too, is refused).
 */
export type InfrastructureDefinitionOption =
  | string
  | InfrastructureBuilder
  | {
      readonly identifier: string;
      readonly inputs?: Readonly<Record<string, unknown>>;
      readonly [RESOURCE_BRAND]?: never;
    };

/** The newer form: a service and an environment defined on their own, referenced by identifier. */
export interface ServiceEnvironmentDeploymentOptions extends StageCommonOptions {
  /** `deploymentType`, e.g. Kubernetes, NativeHelm, Ssh, ECS: one of the platform's (an enum in its schema, no expression). */
  readonly deploymentType: DeploymentType;
  /**
   * `service.serviceRef`: the service's builder (checked to be compiled too), an identifier or `input()`; or
   * `{ useFromStage }` to deploy an earlier stage's service.
   */
  readonly service: Value | ServiceBuilder | { readonly useFromStage: string };
  /** `service.serviceInputs`: values for the service's runtime inputs (or `input()`). */
  readonly serviceInputs?: unknown;
  /** `environment.environmentRef`: the environment's builder (checked to be compiled too), an identifier or `input()`. */
  readonly environment: Value | EnvironmentBuilder;
  readonly environmentInputs?: unknown;
  /** `environment.serviceOverrideInputs`: values for the runtime inputs of the service overrides (or `input()`). */
  readonly serviceOverrideInputs?: unknown;
  /** Deploy to every infrastructure of the environment. */
  readonly deployToAll?: Expressive<boolean>;
  /** Infrastructures to deploy to, or `input()`. */
  readonly infrastructureDefinitions?: readonly InfrastructureDefinitionOption[] | Value;
  /**
   * `gitOpsEnabled`: the stage syncs GitOps applications (an Argo agent's clusters) instead of deploying to an
   * infrastructure; it then names `gitOpsClusters` (or `deployToAll`) rather than infrastructures.
   */
  readonly gitOpsEnabled?: Expressive<boolean>;
  /** `environment.gitOpsClusters`: the GitOps clusters to sync (`{ identifier, agentIdentifier }`), or `input()`. */
  readonly gitOpsClusters?: readonly { readonly identifier: string; readonly agentIdentifier?: string }[] | Value;
  /** `customDeploymentRef`: the deployment template a `CustomDeployment` stage deploys with. */
  readonly customDeploymentRef?: { readonly templateRef: string; readonly versionLabel?: string };
  /** `deploymentMetadata`: settings of the deployment type (a Google Cloud Functions stage's `environmentType`). */
  readonly deploymentMetadata?: Readonly<Record<string, unknown>>;
  /** `service.gitBranch`: the branch a service kept in Git is read from. */
  readonly serviceGitBranch?: Value;
  /** `environment.gitBranch`: the branch an environment kept in Git is read from. */
  readonly environmentGitBranch?: Value;
  /** Never given in this form; it tells the forms apart. */
  readonly infrastructure?: never;
  readonly serviceConfig?: never;
}

function serviceEnvironmentSpec(options: ServiceEnvironmentDeploymentOptions): SpecFactory {
  const {
    deploymentType,
    gitOpsEnabled,
    customDeploymentRef,
    deploymentMetadata,
    service,
    serviceInputs,
    serviceGitBranch,
    environment,
    environmentInputs,
    serviceOverrideInputs,
    deployToAll,
    infrastructureDefinitions,
    gitOpsClusters,
    environmentGitBranch,
  } = options;
  return (references, execution) => {
    const wire = (value: unknown, ...path: Array<string | number>) => wireValue(value, references, ['spec', ...path]);
    const infrastructures =
      infrastructureDefinitions === undefined ||
      typeof infrastructureDefinitions === 'string' ||
      !Array.isArray(infrastructureDefinitions)
        ? (infrastructureDefinitions as Value | undefined)
        : (infrastructureDefinitions as readonly InfrastructureDefinitionOption[]).map((entry, index) => {
            if (typeof entry === 'string') return { identifier: entry };
            if (!isResource(entry)) return entry;
            references.push({
              path: ['spec', 'environment', 'infrastructureDefinitions', index, 'identifier'],
              target: entry,
            });
            return { identifier: entry.identifier };
          });
    return {
      deploymentType,
      ...defined({
        gitOpsEnabled: wire(gitOpsEnabled, 'gitOpsEnabled'),
        customDeploymentRef: wire(customDeploymentRef, 'customDeploymentRef'),
        deploymentMetadata: wire(deploymentMetadata, 'deploymentMetadata'),
      }),
      service:
        typeof service === 'object' && 'useFromStage' in service
          ? { useFromStage: { stage: service.useFromStage } }
          : defined({
              serviceRef: refValue(service as Value | ServiceBuilder, references, ['spec', 'service', 'serviceRef']),
              serviceInputs: wire(serviceInputs, 'service', 'serviceInputs'),
              gitBranch: wire(serviceGitBranch, 'service', 'gitBranch'),
            }),
      environment: defined({
        environmentRef: refValue(environment, references, ['spec', 'environment', 'environmentRef']),
        deployToAll: wire(deployToAll, 'environment', 'deployToAll'),
        environmentInputs: wire(environmentInputs, 'environment', 'environmentInputs'),
        serviceOverrideInputs: wire(serviceOverrideInputs, 'environment', 'serviceOverrideInputs'),
        infrastructureDefinitions: wire(infrastructures, 'environment', 'infrastructureDefinitions'),
        gitOpsClusters: wire(gitOpsClusters, 'environment', 'gitOpsClusters'),
        gitBranch: wire(environmentGitBranch, 'environment', 'gitBranch'),
      }),
      execution,
    };
  };
}

/** The options `deployment()` takes, in any of its forms. */
const DEPLOYMENT_KEYS = [
  ...STAGE_COMMON_KEYS,
  ...keyList<
    DeploymentOptions | ServiceEnvironmentDeploymentOptions | ServiceConfigDeploymentOptions,
    keyof StageCommonOptions
  >()([
    'service',
    'deploymentType',
    'serviceVariables',
    'environment',
    'infrastructure',
    'allowSimultaneousDeployments',
    'serviceInputs',
    'environmentInputs',
    'serviceOverrideInputs',
    'deployToAll',
    'infrastructureDefinitions',
    'serviceConfig',
    'gitOpsEnabled',
    'gitOpsClusters',
    'customDeploymentRef',
    'deploymentMetadata',
    'serviceGitBranch',
    'environmentGitBranch',
  ]),
];

/**
 * The failure strategies of a Deployment stage that names none: what the platform's stage editor writes for a new
 * one (roll the stage back on any error). The platform requires them on a Deployment stage and refuses the
 * pipeline without them (DeploymentStageNode extends AbstractStageNodeWithFailureInfo, whose failureStrategies is
 * @NotNull: harness-core 125-cd-nextgen/.../AbstractStageNodeWithFailureInfo.java L31-35, and the published schema's
 * DeploymentStageNode `required`; saving runs the schema validation, platform-facts-2.md).
 */
const DEPLOYMENT_FAILURE_STRATEGIES: readonly FailureStrategyOption[] = [
  { errors: 'AllErrors', action: 'StageRollback' },
];

/**
 * A Deployment stage: deploys a service to an environment's infrastructure with CD steps (rolling, canary,
 * blue/green, Helm, ...). Without `failureStrategies` it gets DEPLOYMENT_FAILURE_STRATEGIES (the platform requires some). With `deploymentType` and `environment`, the current form (a service and an environment
 * defined on their own); with `infrastructure: { connector, namespace }`, the older Kubernetes `serviceConfig` form;
 * with `serviceConfig`, the older form given whole as the platform writes it.
 *
 * @example
 * ```ts
 * deployment({ identifier: 'prod', deploymentType: 'Kubernetes', service: 'web', environment: 'prod', infrastructureDefinitions: ['prodCluster'] })
 *   .step(k8sRollingDeploy({ identifier: 'rollout' }))
 *   .rollbackStep(k8sRollingRollback({ identifier: 'rollback' }))
 * ```
 */
export function deployment<
  const Steps extends readonly StepNode[] = [],
  const Rollback extends readonly StepNode[] = [],
>(
  given: (DeploymentOptions | ServiceEnvironmentDeploymentOptions | ServiceConfigDeploymentOptions) &
    PlacedSteps<'Deployment', Steps, Rollback>,
): StageBuilder<'Deployment'> {
  const options =
    given && !('failureStrategies' in given) ? { ...given, failureStrategies: DEPLOYMENT_FAILURE_STRATEGIES } : given;
  if (options?.serviceConfig !== undefined) {
    const issues = checkOptions('deployment', options, DEPLOYMENT_KEYS, ['identifier', 'infrastructure']);
    return serviceConfigWhole({ ...options, issues } as ServiceConfigDeploymentOptions, captureSite(deployment));
  }
  const issues = checkOptions('deployment', options, DEPLOYMENT_KEYS, ['identifier', 'service', 'environment']);
  if (options?.infrastructure !== undefined)
    issues.push(
      ...missingOptions(
        'deployment',
        {
          'infrastructure.connector': options.infrastructure.connector,
          'infrastructure.namespace': options.infrastructure.namespace,
        },
        ['infrastructure.connector', 'infrastructure.namespace'],
      ),
    );
  if (!('infrastructure' in options) || options.infrastructure === undefined) {
    const {
      deploymentType: _type,
      service: _service,
      serviceInputs: _si,
      environment: _env,
      environmentInputs: _ei,
      deployToAll: _all,
      serviceOverrideInputs: _soi,
      infrastructureDefinitions: _defs,
      gitOpsEnabled: _gitOps,
      gitOpsClusters: _clusters,
      customDeploymentRef: _custom,
      deploymentMetadata: _metadata,
      serviceGitBranch: _sb,
      environmentGitBranch: _eb,
      ...common
    } = options as ServiceEnvironmentDeploymentOptions;
    return new StageImpl<'Deployment'>(
      {
        ...common,
        type: 'Deployment',
        buildSpec: serviceEnvironmentSpec(options as ServiceEnvironmentDeploymentOptions),
        issues,
      },
      captureSite(deployment),
    );
  }
  return serviceConfigDeployment({ ...options, issues } as DeploymentOptions, captureSite(deployment));
}

/**
 * What `deployment()` (the serviceConfig form) writes for options left out. Import leaves out a value equal to
 * its default, but for `releaseName`, whose expression it writes to show where the name comes from.
 */
export const DEPLOYMENT_DEFAULTS = {
  deploymentType: 'Kubernetes',
  allowSimultaneousDeployments: false,
  infrastructure: {
    type: 'KubernetesDirect',
    // The platform requires a release name; its editor writes this one (unique per infrastructure).
    releaseName: 'release-<+INFRA_KEY>',
  },
} as const satisfies Pick<DeploymentOptions, 'deploymentType' | 'allowSimultaneousDeployments'> & {
  readonly infrastructure: Pick<KubernetesInfrastructureOption, 'type' | 'releaseName'>;
};

function serviceConfigDeployment(options: DeploymentOptions, site: SourceSite): StageBuilder<'Deployment'> {
  const {
    service,
    deploymentType,
    serviceVariables,
    environment,
    infrastructure,
    allowSimultaneousDeployments,
    ...common
  } = options;
  const buildSpec: SpecFactory = (references, execution) => ({
    serviceConfig: {
      serviceRef: refValue(service, references, ['spec', 'serviceConfig', 'serviceRef']),
      serviceDefinition: {
        type: deploymentType ?? DEPLOYMENT_DEFAULTS.deploymentType,
        spec: { variables: variablesDocument(serviceVariables ?? {}) },
      },
    },
    infrastructure: {
      environmentRef: refValue(environment, references, ['spec', 'infrastructure', 'environmentRef']),
      infrastructureDefinition: {
        type: infrastructure.type ?? DEPLOYMENT_DEFAULTS.infrastructure.type,
        spec: defined({
          connectorRef: refValue(infrastructure.connector, references, [
            'spec',
            'infrastructure',
            'infrastructureDefinition',
            'spec',
            'connectorRef',
          ]),
          namespace: optionalText(infrastructure.namespace),
          releaseName: valueText(infrastructure.releaseName ?? DEPLOYMENT_DEFAULTS.infrastructure.releaseName),
        }),
      },
      allowSimultaneousDeployments: wireValue(
        allowSimultaneousDeployments ?? DEPLOYMENT_DEFAULTS.allowSimultaneousDeployments,
        references,
        ['spec', 'infrastructure', 'allowSimultaneousDeployments'],
      ),
    },
    execution,
  });
  return new StageImpl<'Deployment'>({ ...common, type: 'Deployment', buildSpec }, site);
}

/** The older form given whole: `serviceConfig` and `infrastructure` written as given, then the execution. */
function serviceConfigWhole(options: ServiceConfigDeploymentOptions, site: SourceSite): StageBuilder<'Deployment'> {
  const {
    serviceConfig,
    infrastructure,
    service: _service,
    environment: _environment,
    deploymentType: _type,
    ...common
  } = options;
  const buildSpec: SpecFactory = (references, execution) => ({
    serviceConfig: wireValue(serviceConfig, references, ['spec', 'serviceConfig']),
    infrastructure: wireValue(infrastructure, references, ['spec', 'infrastructure']),
    execution,
  });
  return new StageImpl<'Deployment'>({ ...common, type: 'Deployment', buildSpec }, site);
}
