import type { z } from 'zod';
import { captureSite } from '../core/source-site.js';
import type { KeysOf } from './key-list.js';
import { ordered } from './references.js';
import { STEP_COMMON_KEYS, StepBuilderImpl, type StepBuilder, type StepCommonOptions } from './step.js';
import type { Expressible } from './wire-types.js';
import { setField } from '../core/own-field.js';

/** Options of a typed step: the common step options plus the fields of its wire `spec`, flat. */
export type TypedStepOptions<Spec extends z.ZodType> = StepCommonOptions & Expressible<z.input<Spec>>;

/**
 * A builder for one step type whose options are its spec's fields (same names as on the wire, so YAML and
 * code read alike). The spec keeps the platform's customary key order (`order`: fields of the spec, a
 * misspelt one is a type error); nothing is added that was not given.
 */
export function typedStep<Spec extends z.ZodType>(type: string, order: readonly KeysOf<z.input<Spec>>[]) {
  const factory = (options: TypedStepOptions<Spec>): StepBuilder<string> => {
    const common: Record<string, unknown> = {};
    const spec: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options))
      setField(STEP_COMMON_KEYS.includes(key) ? common : spec, key, value);
    return new StepBuilderImpl<string>(
      { ...(common as unknown as StepCommonOptions), type, spec: ordered(spec, order) },
      captureSite(factory),
    );
  };
  return factory;
}
