import { lift, liftStage, liftStep } from '../ir/lift.js';
import { lower } from '../ir/lower.js';
import { type IrNode, type PublishFlags, RESOURCE_BRAND, type Resource, type Scope } from '../ir/node.js';
import { captureSite, type SourceSite } from '../core/source-site.js';
import { plain } from './plain.js';
import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { NO_STEPS, STAGE_BRAND, type StageNode } from './stage.js';
import { STEP_BRAND, type StepNode } from './step.js';
import { addSuppression, suppressedNode, type Suppressible } from './builder.js';
import type { DocumentCode } from '../core/diagnostic-codes.js';
import type { Suppression } from '../core/diagnostics.js';

/**
 * Escape hatches that emit a wire element exactly as given: for what no builder models yet. `import` uses
 * them only where a builder cannot reproduce the YAML, so nothing is ever dropped. "As written" is not "unchecked":
 * their documents are checked like any other, and `.suppress(code, reason)` accepts a diagnostic, as on any builder.
 */

const copy = <T>(value: T): T => plain(value) as T;

/** A wire element emitted as given, with the suppressions its `.suppress()` calls added: raw.step and raw.stage. */
abstract class RawElement implements Suppressible {
  readonly #element: Readonly<Record<string, unknown>>;
  readonly #suppressions: readonly Suppression[] | undefined;
  readonly site: SourceSite;
  constructor(element: Record<string, unknown>, site: SourceSite, suppressions?: readonly Suppression[]) {
    this.#element = copy(element);
    this.#suppressions = suppressions;
    this.site = site;
    Object.freeze(this);
  }
  protected get element(): Readonly<Record<string, unknown>> {
    return this.#element;
  }
  /** The same kind of element, as given, with these suppressions. */
  protected abstract remade(element: Record<string, unknown>, suppressions: readonly Suppression[]): this;
  /** The element's node (a copy is given: a node keeps what it is made of). */
  protected abstract lifted(element: Record<string, unknown>): IrNode;
  suppress(code: DocumentCode, reason: string): this {
    return this.remade(this.#element, addSuppression(this.#suppressions, code, reason));
  }
  toNode(): IrNode {
    return suppressedNode(this.lifted(copy(this.#element)), this.#suppressions);
  }
}

class RawStep extends RawElement implements StepNode {
  get [STEP_BRAND](): true {
    return true;
  }
  protected remade(element: Record<string, unknown>, suppressions: readonly Suppression[]): this {
    return new RawStep(element, this.site, suppressions) as this;
  }
  protected lifted(element: Record<string, unknown>): IrNode {
    return liftStep(element, this.site);
  }
}

const stageOf = (element: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  (element.stage ?? {}) as Record<string, unknown>;

/** A stage element (`{ stage: {...} }` or `{ parallel: [...] }`) emitted verbatim. */
class RawStage extends RawElement implements StageNode {
  get [STAGE_BRAND](): true {
    return true;
  }
  get [NO_STEPS](): string {
    return 'raw.stage(...) is written as given: put its steps in the element';
  }
  // From the element each time, not a private accessor: the base has frozen the object, and a subclass's own
  // private names would be added to it after that.
  get identifier(): string {
    return String(stageOf(this.element).identifier ?? '');
  }
  get type(): string {
    return String(stageOf(this.element).type ?? 'parallel');
  }
  protected remade(element: Record<string, unknown>, suppressions: readonly Suppression[]): this {
    return new RawStage(element, this.site, suppressions) as this;
  }
  protected lifted(element: Record<string, unknown>): IrNode {
    return liftStage(element, this.site);
  }
}

class RawResource<K extends ResourceKind> implements Resource<K, Record<string, unknown>>, Suppressible {
  readonly #kind: K;
  readonly #document: Readonly<Record<string, unknown>>;
  readonly #suppressions: readonly Suppression[] | undefined;
  readonly site: SourceSite;
  readonly publishFlags: PublishFlags | undefined;
  constructor(
    kind: K,
    document: Record<string, unknown>,
    site: SourceSite,
    suppressions?: readonly Suppression[],
    publishFlags?: PublishFlags,
  ) {
    this.#kind = kind;
    this.#document = copy(document);
    this.#suppressions = suppressions;
    this.site = site;
    this.publishFlags = publishFlags;
    Object.freeze(this);
  }
  suppress(code: DocumentCode, reason: string): this {
    return new RawResource(
      this.#kind,
      this.#document,
      this.site,
      addSuppression(this.#suppressions, code, reason),
      this.publishFlags,
    ) as this;
  }
  get [RESOURCE_BRAND](): K {
    return this.#kind;
  }
  get #body(): Record<string, unknown> {
    return (this.#document[kindRow(this.#kind).rootKey] ?? {}) as Record<string, unknown>;
  }
  get identifier(): string {
    return String(this.#body.identifier ?? '');
  }
  get scope(): Scope {
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const org = text(this.#body.orgIdentifier);
    const project = kindRow(this.#kind).scopes.includes('project') ? text(this.#body.projectIdentifier) : undefined;
    return { ...(org ? { org } : {}), ...(project ? { project } : {}) };
  }
  toNode(): IrNode {
    return suppressedNode(lift(this.#kind, copy(this.#document), this.site), this.#suppressions);
  }
  toDocument(): Record<string, unknown> {
    return lower(this.toNode()) as Record<string, unknown>;
  }
}

function rawStep(element: Record<string, unknown>): StepNode & Suppressible {
  return new RawStep(element, captureSite(rawStep));
}

function rawStage(element: Record<string, unknown>): StageNode & Suppressible {
  return new RawStage(element, captureSite(rawStage));
}

const rawResource = <K extends ResourceKind>(kind: K) =>
  function rawDocument(document: Record<string, unknown>): Resource<K, Record<string, unknown>> & Suppressible {
    return new RawResource(kind, document, captureSite(rawDocument));
  };

/** What `raw.template` takes beside the document: what is not part of the YAML. */
export interface RawTemplateOptions {
  /** Make this version the stable one when it is published, as `template.stage({ stable: true })` does. */
  readonly stable?: boolean;
}

function rawTemplate(
  document: Record<string, unknown>,
  options: RawTemplateOptions = {},
): Resource<'template', Record<string, unknown>> & Suppressible {
  return new RawResource(
    'template',
    document,
    captureSite(rawTemplate),
    undefined,
    options.stable ? { stable: true } : undefined,
  );
}

/**
 * Wire data as written, for what no builder expresses: `raw.step({ step: {...} })`, `raw.stage({ stage: {...} })`,
 * and `raw.<kind>({ <root key>: {...} })` for each kind (`raw.infrastructure({ infrastructureDefinition: {...} })`).
 * It is checked like the rest.
 *
 * @example
 * ```ts
 * raw.step({ step: { identifier: 'pause', name: 'pause', type: 'Wait', spec: { duration: '1m' } } })
 * ```
 */
export const raw = {
  step: rawStep,
  stage: rawStage,
  pipeline: rawResource('pipeline'),
  project: rawResource('project'),
  connector: rawResource('connector'),
  service: rawResource('service'),
  environment: rawResource('environment'),
  infrastructure: rawResource('infrastructure'),
  /** `raw.template(document, { stable: true })`: the stable flag is not in the YAML, so it is an option beside it. */
  template: rawTemplate,
  inputSet: rawResource('inputSet'),
  overlayInputSet: rawResource('overlayInputSet'),
  trigger: rawResource('trigger'),
};
