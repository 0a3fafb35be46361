import type { KeysOf } from '../key-list.js';
import type { StageType } from './catalog-stage.js';
import type { StageSpecs } from './generated/types.js';
import { mappedSugar, type MappedSettings, type Sugar } from './sugar.js';

/** The spec fields of a stage type that its builder takes as options (`execution` holds its steps). */
export type StageSpecKey<T extends StageType> = Exclude<KeysOf<StageSpecs[T]>, 'execution'>;

/**
 * A hand-written stage builder whose options map to its spec (`ci`: `runtime: 'Cloud'` ->
 * `runtime: { type: Cloud, spec: {} }`), declared once beside it: every option of `Options` needs a mapping to
 * a field of the type's spec, `order` names every such field. Curried so that `Options` is given and the rest
 * inferred. The builder writes the spec with it; import reads it backwards.
 */
export const declareMappedStage =
  <Options extends object>() =>
  <
    T extends StageType,
    const Order extends readonly StageSpecKey<T>[],
    Defaulted extends keyof Options & string = never,
  >(
    type: T,
    settings: MappedSettings<Options, StageSpecKey<T>, Order, Defaulted>,
  ): Sugar =>
    mappedSugar(type, settings);
