import type { CoversKeys } from '../key-list.js';

/**
 * Sugar declared beside its type: a hand-written builder's mapping of options to its wire spec, the values it
 * writes for options left out, and the spec's key order, in one declaration the builder writes with and import
 * reads backwards. step-sugar.ts and stage-sugar.ts tie a declaration to its option and spec types.
 */

/** A value a builder writes for an option left out: one scalar, so import can compare it as it is. */
export type DefaultValue = string | number | boolean;

/**
 * One option of a builder whose options are not its spec's fields: the spec field it writes, and the way back.
 * Methods, not function properties, so a mapping of one option's type fits the table of all options.
 */
export interface FieldMapping<Option = unknown> {
  /** The spec field the option writes. */
  readonly key: string;
  /** Written even when the option is left out (the builder reports the missing option; the field keeps its place). */
  readonly required?: true;
  /** Kept as written by import (a script): text with expressions inside stays text rather than `expr` helpers. */
  readonly verbatim?: true;
  /**
   * The option takes `null` for "no field": the spec leaves the key out (the platform's own handling applies)
   * rather than writing the option's default. Import reads a spec without the key as `null`.
   */
  readonly omittable?: true;
  /** The option's value -> the spec field's value. */
  write(value: Option): unknown;
  /** The spec field's value, as read from YAML -> the option's value; undefined when no option value writes it. */
  read(wire: unknown): unknown;
}

/** One declaration: what the builder of a catalogue type writes, and how import reads it back. */
export interface Sugar {
  /** The catalogue type (step or stage) the builder makes. */
  readonly type: string;
  /** The builder's exported name, which import writes. */
  readonly builder: string;
  /** Spec keys in the platform's customary order: every key of the type's spec. */
  readonly order: readonly string[];
  /** Values written for options left out, by option name. */
  readonly defaults: Readonly<Record<string, DefaultValue>>;
  /** Each option's mapping to the spec, in the order the options are written; absent: the spec's fields, flat. */
  readonly fields?: Readonly<Record<string, FieldMapping>>;
}

/**
 * A mapped declaration's settings, tied to the types: a mapping for every option of `Options` (none left out,
 * none extra), each writing one of the spec's keys `Key`; an `order` naming every key; a default only for an
 * option, and only a value that option takes.
 */
export interface MappedSettings<
  Options,
  Key extends string,
  Order extends readonly unknown[],
  Defaulted extends keyof Options,
> {
  readonly builder: string;
  readonly order: Order & CoversKeys<Key, Order>;
  readonly defaults?: { readonly [K in Defaulted]: Options[K] & DefaultValue };
  readonly fields: {
    readonly [K in keyof Options]-?: FieldMapping<Exclude<Options[K], undefined>> & { readonly key: Key };
  };
}

/** The declaration made of mapped settings (their types checked where they are written). */
export const mappedSugar = <
  Options,
  Key extends string,
  Order extends readonly unknown[],
  Defaulted extends keyof Options,
>(
  type: string,
  settings: MappedSettings<Options, Key, Order, Defaulted>,
): Sugar =>
  Object.freeze({
    type,
    builder: settings.builder,
    order: settings.order as readonly string[],
    defaults: (settings.defaults ?? {}) as Readonly<Record<string, DefaultValue>>,
    fields: settings.fields as unknown as Readonly<Record<string, FieldMapping>>,
  });

/** A mapping for an option that is the spec field of the same name, as it is. */
export const sameField = <K extends string>(key: K) => ({
  key,
  write: (value: unknown) => value,
  // A typed option takes no null: a spec with one is written by a more general builder.
  read: (wire: unknown) => (wire === null ? undefined : wire),
});

/** The spec a mapped builder writes for its options (defaults filled in for options left out), in the declared order. */
export function specOfOptions(sugar: Sugar, options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  for (const [option, field] of mappingsInOrder(sugar)) {
    const value = options[option] === undefined ? sugar.defaults[option] : options[option];
    if (value === null && field.omittable) continue;
    if (value === undefined && !field.required) continue;
    const written = field.write(value);
    if (written !== undefined) spec[field.key] = written;
  }
  return spec;
}

const inOrder = new WeakMap<Sugar, ReadonlyArray<readonly [string, FieldMapping]>>();

/**
 * A declaration's mappings in its spec's key order (a key `order` does not name after the others, as `ordered`
 * puts it), worked out once: a spec is then written in order, with no copy to reorder it. Every shell() call
 * writes one.
 */
function mappingsInOrder(sugar: Sugar): ReadonlyArray<readonly [string, FieldMapping]> {
  let found = inOrder.get(sugar);
  if (!found) {
    const rank = (key: string) => (sugar.order.includes(key) ? sugar.order.indexOf(key) : sugar.order.length);
    found = Object.entries(sugar.fields ?? {}).sort(([, a], [, b]) => rank(a.key) - rank(b.key));
    inOrder.set(sugar, found);
  }
  return found;
}

/**
 * The inverse: a mapped builder's options for a spec read from YAML, leaving out those equal to their default;
 * undefined when some field is one no option writes (a more general builder takes the step then).
 */
export function optionsOfSpec(sugar: Sugar, spec: unknown): Record<string, unknown> | undefined {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return undefined;
  const fields = Object.entries(sugar.fields ?? {});
  const wire = spec as Record<string, unknown>;
  if (Object.keys(wire).some((key) => !fields.some(([, field]) => field.key === key))) return undefined;
  const options: Record<string, unknown> = {};
  for (const [option, field] of fields) {
    if (wire[field.key] === undefined) {
      if (field.required) return undefined;
      // Left out where the builder would write its default: the option says so with null.
      if (field.omittable && sugar.defaults[option] !== undefined) options[option] = null;
      continue;
    }
    const value = field.read(wire[field.key]);
    if (value === undefined) return undefined;
    if (value !== sugar.defaults[option]) options[option] = value;
  }
  return options;
}
