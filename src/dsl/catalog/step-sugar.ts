import { stepEntry } from '../../catalog/catalog.js';
import type { CoversKeys, KeysOf } from '../key-list.js';
import { mappedSugar, type DefaultValue, type MappedSettings, type Sugar } from './sugar.js';
import type { StepSpecs } from './generated/types.js';

/** A step type the catalogue knows. */
export type StepType = keyof StepSpecs & string;

/** Names the common step options take: a spec field of the same name is given under `spec`, not flat. */
export type CommonKey =
  'identifier' | 'name' | 'description' | 'timeout' | 'when' | 'failureStrategies' | 'strategy' | 'spec' | 'type';

/** The spec fields of a step type that its builder takes as flat options. */
export type SpecKey<T extends StepType> = Exclude<KeysOf<StepSpecs[T]>, CommonKey>;

/**
 * A hand-written step builder, declared once beside its catalogue entry: the spec's key order, the values it
 * writes for options left out, and, when its options are not the spec's fields flat, how each option maps to
 * the spec. The builder reads it to write a spec; import reads it to write the builder call back (leaving out
 * values equal to their default). The `declare*` functions below tie it to the types.
 */
export interface StepSugar extends Sugar {
  readonly type: StepType;
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
    settings: MappedSettings<Options, SpecKey<T>, Order, Defaulted>,
  ): StepSugar =>
    mappedSugar(type, settings) as StepSugar;
