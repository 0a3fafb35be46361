import {
  irNode,
  type Child,
  type IrNode,
  type Reference,
  isResource,
  RESOURCE_BRAND,
  type PublishFlags,
} from '../ir/node.js';
import { captureSite } from '../core/source-site.js';
import { keyList } from './key-list.js';
import { checkOptions } from './option-check.js';
import type { TemplateKind, TemplateRef } from './template-inputs.js';
import type { PipelineBuilder } from './pipeline.js';
import { wireValue } from './references.js';
import { SCOPED_KEYS, ScopedResource, type OtherFieldsOption, type ScopedOptions } from './scoped-resource.js';
import type { Chainable } from './builder.js';
import { isStageBuilder, type StageSettings } from './stage.js';
import { isParallelStages } from './parallel.js';
import type { StepGroupBuilder } from './step-group.js';
import { isStepNode, type StepNode } from './step.js';

/** What a template holds: a builder of that part (its identity is dropped: each use gives its own), or the wire `spec`. */
type PartOf<T extends TemplateKind> = T extends 'Step'
  ? StepNode
  : T extends 'Stage'
    ? StageSettings
    : T extends 'StepGroup'
      ? StepGroupBuilder
      : PipelineBuilder<string, string>;

export interface TemplateOptions<T extends TemplateKind = TemplateKind> extends ScopedOptions, OtherFieldsOption {
  /** This version's label (`v1`, `1.2.0`). */
  readonly versionLabel: string;
  /**
   * Make this version the stable one (what uses without a `versionLabel` get) when it is published: not part of the
   * YAML, publish sets it with the platform's own call. Without it, publish leaves the stable version as it is.
   */
  readonly stable?: boolean;
  /** The part itself: a builder, or the wire `spec` (the part without identifier and name); absent in a stub. */
  readonly spec?: PartOf<T> | { readonly [key: string]: unknown };
  readonly icon?: string;
  readonly variables?: ReadonlyArray<{ readonly [key: string]: unknown }>;
}

/** Identity fields a use of the template supplies: a template's part has none of its own. */
const IDENTITY = new Set(['identifier', 'name', 'orgIdentifier', 'projectIdentifier']);
const withoutIdentity = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).filter(([key]) => !IDENTITY.has(key)));

/** One version of a template (`template.step(...)` and its kin): pass it as `templateRef` to use it. */
export interface TemplateBuilder<T extends TemplateKind = TemplateKind, S = unknown>
  extends TemplateRef<T, S>, Chainable {
  toDocument(): Record<string, Record<string, unknown>>;
  readonly publishFlags: PublishFlags | undefined;
}

class TemplateImpl<T extends TemplateKind, S>
  extends ScopedResource<'template', TemplateOptions<T> & { readonly type: T }>
  implements TemplateBuilder<T, S>
{
  /** Never set: carries the spec's type, for `templateInputs`. */
  declare readonly specType?: S;
  get [RESOURCE_BRAND]() {
    return 'template' as const;
  }
  get versionLabel(): string {
    return this.props.versionLabel;
  }
  get templateType(): T {
    return this.props.type;
  }
  get publishFlags(): PublishFlags | undefined {
    return this.props.stable ? { stable: true } : undefined;
  }
  protected fields(references: Reference[], children: Child[]): Record<string, unknown> {
    const { versionLabel, type, spec, icon, variables } = this.props;
    let body: unknown;
    if (isResource(spec) || isStepNode(spec) || isStageBuilder(spec)) {
      // The part is a node of its own (its call site, references and option mistakes stay its own), written
      // as its body without the identity each use of the template supplies.
      const { resourceKind: _kind, key: _key, ...part } = spec.toNode();
      body = irNode({ ...part, body: withoutIdentity(part.body as Record<string, unknown>) });
      children.push({ at: ['spec'], node: body as IrNode, unwrap: true });
    } else if (spec !== undefined) body = wireValue(spec, references, ['spec']);
    return {
      versionLabel,
      type,
      icon,
      variables: variables && wireValue(variables, references, ['variables']),
      spec: body,
    };
  }
}

const TEMPLATE_KEYS = [
  ...SCOPED_KEYS,
  ...keyList<TemplateOptions, keyof ScopedOptions>()([
    'otherFields',
    'versionLabel',
    'stable',
    'spec',
    'icon',
    'variables',
  ]),
];

const templateOf = <T extends TemplateKind>(type: T, name: string) =>
  function build<const S extends TemplateOptions<T>['spec'] = undefined>(
    options: TemplateOptions<T> & { readonly spec?: S },
  ): TemplateBuilder<T, S> {
    const issues = checkOptions(name, options, TEMPLATE_KEYS, ['identifier', 'versionLabel']);
    if (isStageBuilder(options?.spec) && isParallelStages(options.spec))
      throw new TypeError(
        `${name}(): the spec is parallel(...) stages; a stage template holds one stage (make one template per stage)`,
      );
    return new TemplateImpl<T, S>({ ...options, type, issues }, captureSite(build));
  };

/**
 * Templates, one version per builder: `template.step({ identifier, versionLabel, spec: shell({...}) })`, and
 * `template.stage`, `template.stepGroup`, `template.pipeline`. Use one with `stepTemplate()`/`stageTemplate()`
 * (`stepGroup({ template })`, `pipeline({ template })` for the others),
 * passing the builder as `templateRef`.
 *
 * @example
 * ```ts
 * const echo = template.step({ identifier: 'echo', versionLabel: 'v1', spec: shell({ identifier: 'echo', script: 'echo <+input>' }) });
 * stepTemplate({ identifier: 'hello', templateRef: echo });
 * ```
 */
export const template = Object.freeze({
  step: templateOf('Step', 'template.step'),
  stage: templateOf('Stage', 'template.stage'),
  stepGroup: templateOf('StepGroup', 'template.stepGroup'),
  pipeline: templateOf('Pipeline', 'template.pipeline'),
});
