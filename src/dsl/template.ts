import type { z } from 'zod';
import type { templateRef } from '../schema/template-ref.js';
import { irNode, type IrNode, type Reference, isResource, kindOf } from '../ir/node.js';
import type { DocPath } from '../core/document-path.js';
import { Builder, type Chainable } from './builder.js';
import { captureSite } from '../core/source-site.js';
import { defined, failureStrategiesDocument, type FailureStrategyOption } from './common-options.js';
import { valueText, type Value } from './expr.js';
import { plain } from './plain.js';
import { keyList } from './key-list.js';
import { templateInputsIssues } from './template-input-check.js';
import { wireValue } from './references.js';
import { STEP_BRAND, type StepNode, type StrategyOption, type WhenOption } from './step.js';
import type { TemplateInputsOf, TemplateKind, TemplateRef } from './template-inputs.js';
import type { Expressible } from './wire-types.js';

/**
 * `templateRef`, `versionLabel` and `templateInputs` as on the wire; `templateRef` may be the template's builder
 * (`template.step(...)`): its scoped identifier is written, its version is the default `versionLabel`, and
 * compile checks that it is compiled too.
 */
export type TemplateRefOption = Omit<Expressible<z.input<typeof templateRef>>, 'templateRef'> & {
  readonly templateRef: Expressible<z.input<typeof templateRef>>['templateRef'] | TemplateRef;
};

export interface StepTemplateOptions extends TemplateRefOption {
  readonly identifier: string;
  /** Display name; defaults to the identifier. */
  readonly name?: string;
  readonly description?: string;
  readonly timeout?: Value;
  readonly when?: WhenOption;
  readonly failureStrategies?: readonly FailureStrategyOption[];
  readonly strategy?: StrategyOption;
}

/** The options naming a template and the values for its inputs (the `template:` block's fields). */
export const TEMPLATE_KEYS = keyList<TemplateRefOption>()([
  'templateRef',
  'versionLabel',
  'gitBranch',
  'templateInputs',
]);

/** The `template:` block of a stage or step made from a template. */
export function templateBlock(
  options: TemplateRefOption,
  references: Reference[],
  path: DocPath,
): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.fromEntries(TEMPLATE_KEYS.map((key) => [key, options[key]]));
  const ref = options.templateRef;
  if (isResource(ref) && kindOf(ref) === 'template' && fields.versionLabel === undefined)
    fields.versionLabel = (ref as TemplateRef).versionLabel;
  return wireValue(fields, references, path) as Record<string, unknown>;
}

/** A step made from a step template (`stepTemplate()`). */
export interface StepTemplateBuilder extends StepNode, Chainable {
  readonly identifier: string;
}

class StepTemplateImpl extends Builder<StepTemplateOptions> implements StepTemplateBuilder {
  get [STEP_BRAND](): true {
    return true;
  }
  get identifier(): string {
    return this.props.identifier;
  }
  protected makeNode(): IrNode {
    const p = this.props;
    const references: Reference[] = [];
    const body = defined({
      name: p.name ?? p.identifier,
      identifier: p.identifier,
      description: p.description,
      template: templateBlock(p, references, ['template']),
      timeout: p.timeout === undefined ? undefined : valueText(p.timeout),
      when: p.when && (plain(p.when) as never),
      failureStrategies: p.failureStrategies && failureStrategiesDocument(p.failureStrategies),
      strategy: p.strategy && (plain(p.strategy) as never),
    });
    const issues = templateInputsIssues('stepTemplate', p.templateRef, p.templateInputs);
    return irNode({
      kind: 'step',
      wrapper: 'step',
      identifier: p.identifier,
      site: this.site,
      body,
      references,
      issues,
    });
  }
}

/**
 * Options naming the template by its builder: `templateInputs` is typed by the template's runtime inputs.
 * `templateRef` given as text keeps the wire form (any `templateInputs`).
 */
export type WithTemplateBuilder<O extends TemplateRefOption, K extends TemplateKind, S> = Omit<
  O,
  'templateRef' | 'templateInputs'
> & {
  readonly templateRef: TemplateRef<K, S>;
  readonly templateInputs?: TemplateInputsOf<S, K>;
};
export type WithTemplateText<O extends TemplateRefOption> = Omit<O, 'templateRef'> & {
  readonly templateRef: Expressible<z.input<typeof templateRef>>['templateRef'];
};

/**
 * A step made from a step template: the template's identifier (or its builder) as `templateRef`, a `versionLabel`,
 * and values for the template's runtime inputs in `templateInputs`.
 *
 * @example
 * ```ts
 * stepTemplate({ identifier: 'scan', templateRef: 'account.image_scan', versionLabel: '1' })
 * ```
 */
export function stepTemplate<S>(options: WithTemplateBuilder<StepTemplateOptions, 'Step', S>): StepTemplateBuilder;
export function stepTemplate(options: WithTemplateText<StepTemplateOptions>): StepTemplateBuilder;
export function stepTemplate(options: StepTemplateOptions): StepTemplateBuilder {
  return new StepTemplateImpl(options, captureSite(stepTemplate));
}
