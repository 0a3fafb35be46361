import { stepEntry } from '../../catalog/catalog.js';
import type { CoversKeys, KeysOf } from '../key-list.js';
import { ordered } from '../references.js';
import type { StepSpecs } from './generated/types.js';

/** A step type the catalogue knows. */
export type StepType = keyof StepSpecs & string;

/** Names the common step options take: a spec field of the same name is given under `spec`, not flat. */
export type CommonKey = 'identifier' | 'name' | 'description' | 'timeout' | 'when' | 'failureStrategies' | 'strategy' | 'spec' | 'type';

/** The spec fields of a step type that its builder takes as flat options. */
export type SpecKey<T extends StepType> = Exclude<KeysOf<StepSpecs[T]>, CommonKey>;

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
  /** The option's value -> the spec field's value. */
  write(value: Option): unknown;
  /** The spec field's value, as read from YAML -> the option's value; undefined when no option value writes it. */
  read(wire: unknown): unknown;
}

/**
 * A hand-written step builder, declared once beside its catalogue entry: the spec's key order, the values it
 * writes for options left out, and, when its options are not the spec's fields flat, how each option maps to
 * the spec. The builder reads it to write a spec; import reads it to write the builder call back (leaving out
 * values equal to their default). The `declare*` functions below tie it to the types.
 */
export interface StepSugar {
  readonly type: StepType;
  /** The builder's exported name, which import writes. */
  readonly builder: string;
  /** Spec keys in the platform's customary order: every key of the type's spec. */
  readonly order: readonly string[];
  /** Values written for options left out, by option name. */
  readonly defaults: Readonly<Record<string, DefaultValue>>;
  /** Each option's mapping to the spec, in the order the options are written; absent: the spec's fields, flat. */
  readonly fields?: Readonly<Record<string, FieldMapping>>;
}

/** A flat declaration, remembering its type and its defaulted fields (those become optional options). */
export interface FlatStepSugar<T extends StepType, Defaulted extends string> extends StepSugar {
  readonly type: T;
  readonly defaults: { readonly [K in Defaulted]: DefaultValue };
  readonly fields?: undefined;
}

/**
 * A builder whose options are its spec's fields, flat (`run`, `http`, ...): `order` must name every field of
 * the type's spec (a field left out or misspelt fails to compile), plus any field in `outsideSchema`, which
 * the platform takes but its published schema does not list (users give those under `spec`).
 */
export function declareStep<
  T extends StepType,
  const Order extends readonly (SpecKey<T> | Extra)[],
  const Extra extends string = never,
  Defaulted extends SpecKey<T> = never,
>(
  type: T,
  settings: {
    readonly order: Order & CoversKeys<SpecKey<T>, Order>;
    readonly outsideSchema?: readonly Extra[];
    readonly defaults?: { readonly [K in Defaulted]: DefaultValue };
  },
): FlatStepSugar<T, Defaulted> {
  return Object.freeze({
    type,
    // The catalogue's name: the generator leaves it to the hand-written module (hand-written.ts lists it).
    builder: stepEntry(type)?.builder ?? type,
    order: settings.order,
    defaults: (settings.defaults ?? {}) as { readonly [K in Defaulted]: DefaultValue },
  });
}

/**
 * A builder whose options map to its spec (`shell`: `script` -> `source`, `env` -> `environmentVariables`):
 * every option of `Options` needs a mapping, `order` every field of the type's spec, and a default must be a
 * value its option takes. Curried so that `Options` is given and the rest inferred.
 */
export const declareMappedStep =
  <Options extends object>() =>
  <T extends StepType, const Order extends readonly SpecKey<T>[], Defaulted extends keyof Options & string = never>(
    type: T,
    settings: {
      readonly builder: string;
      readonly order: Order & CoversKeys<SpecKey<T>, Order>;
      readonly defaults?: { readonly [K in Defaulted]: Options[K] & DefaultValue };
      readonly fields: { readonly [K in keyof Options]-?: FieldMapping<Exclude<Options[K], undefined>> & { readonly key: SpecKey<T> } };
    },
  ): StepSugar =>
    Object.freeze({
      type,
      builder: settings.builder,
      order: settings.order,
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
export function specOfOptions(sugar: StepSugar, options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  for (const [option, field] of Object.entries(sugar.fields ?? {})) {
    const value = options[option] === undefined ? sugar.defaults[option] : options[option];
    if (value !== undefined || field.required) spec[field.key] = field.write(value);
  }
  return ordered(spec, sugar.order);
}

/**
 * The inverse: a mapped builder's options for a spec read from YAML, leaving out those equal to their default;
 * undefined when some field is one no option writes (a more general builder takes the step then).
 */
export function optionsOfSpec(sugar: StepSugar, spec: unknown): Record<string, unknown> | undefined {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return undefined;
  const fields = Object.entries(sugar.fields ?? {});
  const wire = spec as Record<string, unknown>;
  if (Object.keys(wire).some((key) => !fields.some(([, field]) => field.key === key))) return undefined;
  const options: Record<string, unknown> = {};
  for (const [option, field] of fields) {
    if (wire[field.key] === undefined) {
      if (field.required) return undefined;
      continue;
    }
    const value = field.read(wire[field.key]);
    if (value === undefined) return undefined;
    if (value !== sugar.defaults[option]) options[option] = value;
  }
  return options;
}
