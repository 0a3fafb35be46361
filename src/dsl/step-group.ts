import { childrenAt, irNode, type IrNode, type Reference, type AnyResource } from '../ir/node.js';
import { Builder, reidentified, type Chainable } from './builder.js';
import type { PipewrightTypeError } from '../core/type-error.js';
import { TEMPLATE_GROUP_HAS_NO_STEPS } from './refusals.js';
import { captureSite } from '../core/source-site.js';
import { appendUsed, usesOf } from './use-sites.js';
import {
  defined,
  failureStrategiesDocument,
  variablesDocument,
  type FailureStrategyOption,
  type VariableOption,
} from './common-options.js';
import { valueText, type Value } from './expr.js';
import { plain } from './plain.js';
import { refValue } from './references.js';
import { templateBlock, type TemplateRefOption } from './template.js';
import { isStepNode, STEP_BRAND, type StepNode, type StrategyOption, type WhenOption } from './step.js';
import { keyList } from './key-list.js';
import { checkOptions, type WithIssues } from './option-check.js';

export interface ContainerInfraOption {
  /** Kubernetes cluster connector: a connector builder, an identifier or `input()`. */
  readonly connector: Value | AnyResource;
  readonly namespace: Value;
  /** Infrastructure type; default KubernetesDirect. */
  readonly type?: string;
}

/** What a containerised group writes for options left out (import leaves out values equal to these). */
export const CONTAINER_INFRA_DEFAULTS = { type: 'KubernetesDirect' } as const satisfies Pick<
  ContainerInfraOption,
  'type'
>;

export interface StepGroupOptions {
  readonly identifier: string;
  /** Display name; defaults to the identifier. */
  readonly name?: string;
  readonly steps?: readonly StepNode[];
  /** Steps run when the group fails and rolls back (the platform's canary phases use these). */
  readonly rollbackSteps?: readonly StepNode[];
  readonly when?: WhenOption;
  readonly failureStrategies?: readonly FailureStrategyOption[];
  readonly strategy?: StrategyOption;
  readonly variables?: Readonly<Record<string, VariableOption>>;
  readonly timeout?: Value;
  readonly delegateSelectors?: readonly string[];
  /** Makes this a containerised step group: container steps (Run, Plugin, ...) run on this cluster. */
  readonly containerInfra?: ContainerInfraOption;
  readonly sharedPaths?: readonly string[];
  /** Make the group from a step-group template (then `steps` come from the template). */
  readonly template?: TemplateRefOption;
}

const assertSteps = (owner: string, steps: readonly unknown[]) =>
  steps.forEach((candidate, index) => {
    if (!isStepNode(candidate))
      throw new TypeError(
        `${owner}: argument ${index + 1} is not a step; build one with shell(), run(), step() or another step builder`,
      );
  });

/** A step group; `Types` are the wire types of the steps inside, for placement checks in the types. */
export interface StepGroupBuilder<Types extends string = string> extends StepNode<Types>, Chainable {
  readonly identifier: string;
  /**
   * The same group under another identifier (and name, unless given; a name equal to the old identifier follows
   * the new one): one phase written once and run twice.
   */
  withIdentifier(identifier: string, name?: string): this;
  /** Appends steps to the group. */
  step<const Steps extends readonly StepNode[]>(...steps: Steps): StepGroupBuilder<Types | StepTypesOf<Steps>>;
  /** Appends steps to the group's rollback. */
  rollbackStep<const Steps extends readonly StepNode[]>(...steps: Steps): StepGroupBuilder<Types | StepTypesOf<Steps>>;
}

/** A step group made from a step-group template (`stepGroup({ template })`): the template has the steps. */
export interface TemplateStepGroupBuilder extends StepNode, Chainable {
  readonly identifier: string;
  /** The same group under another identifier (and name, unless given), as `StepGroupBuilder.withIdentifier`. */
  withIdentifier(identifier: string, name?: string): this;
  /** Refused: the steps are in the template. */
  step(refused: PipewrightTypeError<typeof TEMPLATE_GROUP_HAS_NO_STEPS>, ...more: unknown[]): never;
  /** Refused: the steps are in the template. */
  rollbackStep(refused: PipewrightTypeError<typeof TEMPLATE_GROUP_HAS_NO_STEPS>, ...more: unknown[]): never;
}

abstract class StepGroupBase<Types extends string>
  extends Builder<StepGroupOptions & WithIssues>
  implements StepNode<Types>
{
  declare readonly stepTypes?: Types;
  get [STEP_BRAND](): true {
    return true;
  }
  get identifier(): string {
    return this.props.identifier;
  }
  withIdentifier(identifier: string, name?: string): this {
    return this.with(reidentified(this.props, identifier, name));
  }

  protected makeNode(): IrNode {
    const p = this.props;
    const references: Reference[] = [];
    const infra = p.containerInfra;
    const steps = p.template && !p.steps ? undefined : (p.steps ?? []).map((node) => node.toNode());
    const rollbackSteps = p.rollbackSteps?.map((node) => node.toNode());
    const body = defined({
      name: p.name ?? p.identifier,
      identifier: p.identifier,
      steps,
      rollbackSteps,
      template: p.template && templateBlock(p.template, references, ['template']),
      stepGroupInfra: infra && {
        type: infra.type ?? CONTAINER_INFRA_DEFAULTS.type,
        spec: {
          connectorRef: refValue(infra.connector, references, ['stepGroupInfra', 'spec', 'connectorRef'])!,
          namespace: valueText(infra.namespace),
        },
      },
      sharedPaths: p.sharedPaths && [...p.sharedPaths],
      when: p.when && (plain(p.when) as never),
      failureStrategies: p.failureStrategies && failureStrategiesDocument(p.failureStrategies),
      strategy: p.strategy && (plain(p.strategy) as never),
      variables: p.variables && variablesDocument(p.variables),
      timeout: p.timeout === undefined ? undefined : valueText(p.timeout),
      delegateSelectors: p.delegateSelectors && [...p.delegateSelectors],
    });
    const children = [
      ...childrenAt(['steps'], steps ?? [], usesOf(p.steps)),
      ...childrenAt(['rollbackSteps'], rollbackSteps ?? [], usesOf(p.rollbackSteps)),
    ];
    return irNode({
      kind: 'stepGroup',
      wrapper: 'stepGroup',
      identifier: p.identifier,
      site: this.site,
      body,
      children,
      references,
      issues: p.issues,
    });
  }
}

class StepGroupImpl<Types extends string> extends StepGroupBase<Types> implements StepGroupBuilder<Types> {
  step<const Steps extends readonly StepNode[]>(...steps: Steps): StepGroupBuilder<Types | StepTypesOf<Steps>> {
    assertSteps(`stepGroup "${this.identifier}".step()`, steps);
    return this.with({ steps: appendUsed(this.props.steps, steps) }) as StepGroupBuilder<Types | StepTypesOf<Steps>>;
  }
  rollbackStep<const Steps extends readonly StepNode[]>(...steps: Steps): StepGroupBuilder<Types | StepTypesOf<Steps>> {
    assertSteps(`stepGroup "${this.identifier}".rollbackStep()`, steps);
    return this.with({ rollbackSteps: appendUsed(this.props.rollbackSteps, steps) }) as StepGroupBuilder<
      Types | StepTypesOf<Steps>
    >;
  }
}

class TemplateStepGroupImpl extends StepGroupBase<string> implements TemplateStepGroupBuilder {
  step(): never {
    throw new TypeError(`stepGroup "${this.identifier}".step(): ${TEMPLATE_GROUP_HAS_NO_STEPS}`);
  }
  rollbackStep(): never {
    throw new TypeError(`stepGroup "${this.identifier}".rollbackStep(): ${TEMPLATE_GROUP_HAS_NO_STEPS}`);
  }
}

const STEP_GROUP_KEYS: readonly string[] = keyList<StepGroupOptions>()([
  'identifier',
  'name',
  'steps',
  'rollbackSteps',
  'when',
  'failureStrategies',
  'strategy',
  'variables',
  'timeout',
  'delegateSelectors',
  'containerInfra',
  'sharedPaths',
  'template',
]);

/** The wire types of the steps in a list (of step nodes). */
export type StepTypesOf<Steps extends readonly unknown[]> = Steps[number] extends infer Node
  ? Node extends StepNode<infer Types>
    ? Types
    : never
  : never;

/**
 * Steps that run together, sharing conditions, failure strategies, a looping strategy or a container cluster.
 * A containerised group (`containerInfra`) may hold container steps in any stage that runs steps. With `template`,
 * the group is made from a step-group template, which has its steps.
 *
 * @example
 * ```ts
 * stepGroup({
 *   identifier: 'checks',
 *   steps: [shell({ identifier: 'lint', script: 'make lint' }), shell({ identifier: 'test', script: 'make test' })],
 *   failureStrategies: [{ action: 'Ignore' }],
 * })
 * ```
 */
export function stepGroup(
  options: StepGroupOptions & { readonly template: TemplateRefOption },
): TemplateStepGroupBuilder;
export function stepGroup<
  const Steps extends readonly StepNode[] = [],
  const Rollback extends readonly StepNode[] = [],
>(
  options: StepGroupOptions & { readonly steps?: Steps; readonly rollbackSteps?: Rollback },
): StepGroupBuilder<StepTypesOf<Steps> | StepTypesOf<Rollback>>;
export function stepGroup(options: StepGroupOptions): StepGroupBuilder | TemplateStepGroupBuilder {
  assertSteps(`stepGroup "${options.identifier}"`, [...(options.steps ?? []), ...(options.rollbackSteps ?? [])]);
  const issues = checkOptions('stepGroup', options, STEP_GROUP_KEYS, ['identifier']);
  const site = captureSite(stepGroup);
  return options.template === undefined
    ? new StepGroupImpl({ ...options, issues }, site)
    : new TemplateStepGroupImpl({ ...options, issues }, site);
}
