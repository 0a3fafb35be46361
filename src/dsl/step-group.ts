import type { StepElementShape } from '../schema/pipeline-elements.js';
import type { BuildContext, DocPath } from './build-context.js';
import { Builder } from './builder.js';
import { captureSite, type SourceSite } from './call-site.js';
import { defined, failureStrategiesDocument, variablesDocument, type FailureStrategyOption, type VariableOption } from './common-options.js';
import { valueText, type Value } from './expr.js';
import { plain } from './plain.js';
import { refValue } from './references.js';
import type { AnyResource } from './resource.js';
import { templateBlock, type TemplateRefOption } from './template.js';
import { isStepNode, STEP_BRAND, type StepNode, type StrategyOption, type WhenOption } from './step.js';

export interface ContainerInfraOption {
  /** Kubernetes cluster connector: a connector builder, an identifier or `input()`. */
  readonly connector: Value | AnyResource;
  readonly namespace: Value;
  /** Infrastructure type; default KubernetesDirect. */
  readonly type?: string;
}

export interface StepGroupOptions {
  readonly identifier: string;
  /** Display name; defaults to the identifier. */
  readonly name?: string;
  readonly steps?: readonly StepNode[];
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
      throw new TypeError(`${owner}: argument ${index + 1} is not a step; build one with shell(), run(), step() or another step builder`);
  });

export class StepGroupBuilder extends Builder<StepGroupOptions> implements StepNode {
  get [STEP_BRAND](): true {
    return true;
  }
  get identifier(): string {
    return this.props.identifier;
  }

  /** Appends steps to the group. */
  step(...steps: StepNode[]): StepGroupBuilder {
    assertSteps(`stepGroup "${this.identifier}".step()`, steps);
    return this.with({ steps: [...(this.props.steps ?? []), ...steps] });
  }

  toElement(context: BuildContext, path: DocPath): StepElementShape {
    const p = this.props;
    const groupPath = [...path, 'stepGroup'];
    context.sites.push({ path: groupPath, site: this.site });
    const infra = p.containerInfra;
    return {
      stepGroup: defined({
        name: p.name ?? p.identifier,
        identifier: p.identifier,
        steps:
          p.template && !p.steps ? undefined : (p.steps ?? []).map((node, index) => node.toElement(context, [...groupPath, 'steps', index])),
        template: p.template && templateBlock(p.template, context, [...groupPath, 'template'], this.site),
        stepGroupInfra: infra && {
          type: infra.type ?? 'KubernetesDirect',
          spec: {
            connectorRef: refValue(infra.connector, context, [...groupPath, 'stepGroupInfra', 'spec', 'connectorRef'], this.site)!,
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
      }),
    };
  }
}

/** Steps that run together, sharing conditions, failure strategies, a looping strategy or a container cluster. */
export function stepGroup(options: StepGroupOptions): StepGroupBuilder {
  assertSteps(`stepGroup "${options.identifier}"`, options.steps ?? []);
  return new StepGroupBuilder(options, captureSite(stepGroup));
}

/** Steps that run at the same time: `{ parallel: [...] }` in a step list. */
export class ParallelSteps implements StepNode {
  readonly #steps: readonly StepNode[];
  readonly site: SourceSite;
  constructor(steps: readonly StepNode[], site: SourceSite) {
    this.#steps = Object.freeze([...steps]);
    this.site = site;
    Object.freeze(this);
  }
  get [STEP_BRAND](): true {
    return true;
  }
  toElement(context: BuildContext, path: DocPath): StepElementShape {
    context.sites.push({ path, site: this.site });
    return { parallel: this.#steps.map((node, index) => node.toElement(context, [...path, 'parallel', index])) };
  }
}
