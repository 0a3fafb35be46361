import type { SourceSite } from '../core/source-site.js';
import { isDocumentCode, type DocumentCode } from '../core/diagnostic-codes.js';
import type { Suppression } from '../core/diagnostics.js';
import { irNode, type IrNode } from '../ir/node.js';
import { setField } from '../core/own-field.js';
import { plain } from './plain.js';

/** What every builder (the `raw.*` ones too) offers: a diagnostic accepted at its node and below it. */
export interface Suppressible {
  /**
   * Accepts one diagnostic code for this node and everything in it (a stage's steps, a pipeline's stages): the
   * diagnostic no longer fails compile, and `--json` still lists it as suppressed, with `reason`. For a document
   * the platform takes and pipewright refuses; other codes at the node are still reported.
   *
   * @example
   * ```ts
   * shell({ identifier: 'legacy', script: 'make' }).suppress('unknown-key', 'the platform takes it here (OPS-12)')
   * ```
   */
  suppress(code: DocumentCode, reason: string): this;
}

/**
 * What every builder the user holds offers besides its own methods: where it was made, and two helpers that keep
 * a chain unbroken. The public builder types are interfaces extending this one; the classes behind them stay
 * inside the package (kysely's pattern), so a builder shows only the methods that make sense for its kind.
 */
export interface Chainable extends Suppressible {
  /** Where the user's code created this builder. */
  readonly site: SourceSite;
  /** Applies `then` only when `condition` holds, keeping the chain unbroken. */
  $if<R>(condition: boolean, then: (builder: this) => R): this | R;
  /** Passes this builder through a function: `.$call(withSmokeTests)`. */
  $call<R>(fn: (builder: this) => R): R;
  /**
   * Wire fields written into the node as given, beside the ones its options write: the escape for a field no
   * option models (a notification rule's `conditions`, a step group's `spec`), so one such field does not turn
   * the whole node into `raw.*`. A field the builder writes itself is refused: give it through its option.
   * The fields are checked with the document like any other.
   *
   * @example
   * ```ts
   * stepGroup({ identifier: 'checks', steps: [shell({ identifier: 'lint', script: 'make lint' })] }).withFields({ spec: {} })
   * ```
   */
  withFields(fields: WireFields): this;
}

/** Wire fields as written in YAML: any data, keyed by the field's name. */
export type WireFields = { readonly [field: string]: unknown };

/**
 * The identity of a node reused under another identifier (`.withIdentifier()` of steps, step groups, stages):
 * the name given, else the old name, unless that only repeated the old identifier (then it follows the new one).
 */
export const reidentified = (
  props: { readonly identifier: string; readonly name?: string },
  identifier: string,
  name?: string,
) => ({
  identifier,
  name: name ?? (props.name === props.identifier ? undefined : props.name),
});

/** Where a builder keeps its `.suppress()` calls among its props: a symbol, so no option can collide with it. */
const SUPPRESSIONS = Symbol('pipewright.suppressions');
/** Where a builder keeps its `.withFields()` fields among its props, for the same reason. */
const FIELDS = Symbol('pipewright.fields');

/** The fields of `.withFields()` checked: JavaScript callers get no type check of them. */
function checkedFields(fields: unknown): WireFields {
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
    throw new TypeError('.withFields(fields): give an object of wire fields, e.g. .withFields({ spec: {} })');
  return fields as WireFields;
}

/**
 * The node with the fields of `.withFields()` added to its body (a copy: the body is the builder's fresh data, but
 * the node is frozen). A field the body has already is the builder's own: refused, so one field is set in one place.
 */
function withWireFields(node: IrNode, fields: WireFields | undefined): IrNode {
  if (!fields) return node;
  const body = node.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new TypeError(`.withFields(): a ${node.kind} has no fields of its own; set them on what it holds`);
  const merged = { ...(body as Record<string, unknown>) };
  for (const [field, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (Object.hasOwn(merged, field))
      throw new TypeError(
        `.withFields(): "${field}" is written by the builder's own options; give it through the option instead`,
      );
    setField(merged, field, plain(value));
  }
  return irNode({ ...node, body: merged });
}

/** The suppressions so far plus one, checked: JavaScript callers get no type check of the code or the reason. */
export function addSuppression(
  existing: readonly Suppression[] | undefined,
  code: DocumentCode,
  reason: string,
): readonly Suppression[] {
  if (!isDocumentCode(code))
    throw new Error(
      `.suppress(${JSON.stringify(code)}, ...): not a code about a document; use a code from docs/troubleshooting.md, e.g. 'unknown-key'`,
    );
  if (typeof reason !== 'string' || reason.trim() === '')
    throw new Error(
      `.suppress('${code}', reason): give the reason the diagnostic is wrong here (it is listed with the suppression in --json)`,
    );
  return [...(existing ?? []), { code, reason: reason.trim() }];
}

/** A node carrying suppressions (none: the node itself). */
export const suppressedNode = (node: IrNode, suppressions: readonly Suppression[] | undefined): IrNode =>
  suppressions?.length ? irNode({ ...node, suppressions: [...(node.suppressions ?? []), ...suppressions] }) : node;

/**
 * Base of the builder classes: frozen props, and methods that return a new builder of the same class.
 * A stage or step defined once can be reused anywhere without one use changing another.
 */
export abstract class Builder<Props extends object> implements Chainable {
  protected readonly props: Readonly<Props>;
  readonly site: SourceSite;

  constructor(props: Props, site: SourceSite) {
    this.props = Object.freeze({ ...props });
    this.site = site;
    Object.freeze(this);
  }

  /** A copy of this builder with some props replaced. */
  protected with(patch: Partial<Props>): this {
    const Ctor = this.constructor as new (props: Props, site: SourceSite) => this;
    return new Ctor({ ...this.props, ...patch }, this.site);
  }

  $if<R>(condition: boolean, then: (builder: this) => R): this | R {
    return condition ? then(this) : this;
  }

  $call<R>(fn: (builder: this) => R): R {
    return fn(this);
  }

  suppress(code: DocumentCode, reason: string): this {
    const existing = (this.props as { [SUPPRESSIONS]?: readonly Suppression[] })[SUPPRESSIONS];
    return this.with({ [SUPPRESSIONS]: addSuppression(existing, code, reason) } as unknown as Partial<Props>);
  }

  withFields(fields: WireFields): this {
    const existing = (this.props as { [FIELDS]?: WireFields })[FIELDS];
    return this.with({ [FIELDS]: { ...existing, ...checkedFields(fields) } } as unknown as Partial<Props>);
  }

  /**
   * The builder's IR node, with its `.withFields()` fields and its suppressions; each kind of builder makes its
   * node in `makeNode`.
   */
  toNode(): IrNode {
    const props = this.props as { [SUPPRESSIONS]?: readonly Suppression[]; [FIELDS]?: WireFields };
    return suppressedNode(withWireFields(this.makeNode(), props[FIELDS]), props[SUPPRESSIONS]);
  }

  protected abstract makeNode(): IrNode;
}
