import { lift, liftStage, liftStep } from '../ir/lift.js';
import { lower } from '../ir/lower.js';
import { type IrNode, RESOURCE_BRAND, type Resource, type Scope } from '../ir/node.js';
import { captureSite, type SourceSite } from '../core/source-site.js';
import { plain } from './plain.js';
import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { NO_STEPS, STAGE_BRAND, type StageNode } from './stage.js';
import { STEP_BRAND, type StepNode } from './step.js';

/**
 * Escape hatches that emit a wire element exactly as given: for what no builder models yet. `import` uses
 * them only where a builder cannot reproduce the YAML, so nothing is ever dropped.
 */

const copy = <T>(value: T): T => plain(value) as T;

class RawStep implements StepNode {
  readonly #element: Readonly<Record<string, unknown>>;
  readonly site: SourceSite;
  constructor(element: Record<string, unknown>, site: SourceSite) {
    this.#element = copy(element);
    this.site = site;
    Object.freeze(this);
  }
  get [STEP_BRAND](): true {
    return true;
  }
  toNode(): IrNode {
    return liftStep(copy(this.#element), this.site);
  }
}

/** A stage element (`{ stage: {...} }` or `{ parallel: [...] }`) emitted verbatim. */
class RawStage implements StageNode {
  readonly #element: Readonly<Record<string, unknown>>;
  readonly site: SourceSite;
  constructor(element: Record<string, unknown>, site: SourceSite) {
    this.#element = copy(element);
    this.site = site;
    Object.freeze(this);
  }
  get [STAGE_BRAND](): true {
    return true;
  }
  get [NO_STEPS](): string {
    return 'raw.stage(...) is written as given: put its steps in the element';
  }
  get #inner(): Record<string, unknown> {
    return (this.#element.stage ?? {}) as Record<string, unknown>;
  }
  get identifier(): string {
    return String(this.#inner.identifier ?? '');
  }
  get type(): string {
    return String(this.#inner.type ?? 'parallel');
  }
  toNode(): IrNode {
    return liftStage(copy(this.#element), this.site);
  }
}

class RawResource<K extends ResourceKind> implements Resource<K, Record<string, unknown>> {
  readonly #kind: K;
  readonly #document: Readonly<Record<string, unknown>>;
  readonly site: SourceSite;
  constructor(kind: K, document: Record<string, unknown>, site: SourceSite) {
    this.#kind = kind;
    this.#document = copy(document);
    this.site = site;
    Object.freeze(this);
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
    return lift(this.#kind, copy(this.#document), this.site);
  }
  toDocument(): Record<string, unknown> {
    return lower(this.toNode()) as Record<string, unknown>;
  }
}

function rawStep(element: Record<string, unknown>): StepNode {
  return new RawStep(element, captureSite(rawStep));
}

function rawStage(element: Record<string, unknown>): StageNode {
  return new RawStage(element, captureSite(rawStage));
}

const rawResource = <K extends ResourceKind>(kind: K) =>
  function rawDocument(document: Record<string, unknown>): Resource<K, Record<string, unknown>> {
    return new RawResource(kind, document, captureSite(rawDocument));
  };

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
  template: rawResource('template'),
  inputSet: rawResource('inputSet'),
  overlayInputSet: rawResource('overlayInputSet'),
  trigger: rawResource('trigger'),
};
