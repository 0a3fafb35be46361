import type { z } from 'zod';
import { captureSite } from '../core/source-site.js';
import { ordered } from './references.js';
import { StepBuilderImpl, type StepBuilder, type StepCommonOptions } from './step.js';
import type { Expressible } from './wire-types.js';

/** Options of a typed step: the common step options plus the fields of its wire `spec`, flat. */
export type TypedStepOptions<Spec extends z.ZodType> = StepCommonOptions & Expressible<z.input<Spec>>;

const COMMON_KEYS = ['identifier', 'name', 'description', 'timeout', 'when', 'failureStrategies', 'strategy'] as const;

/**
 * A builder for one step type whose options are its spec's fields (same names as on the wire, so YAML and
 * code read alike). The spec keeps the platform's customary key order; nothing is added that was not given.
 */
export function typedStep<Spec extends z.ZodType>(type: string, order: readonly string[]) {
  const factory = (options: TypedStepOptions<Spec>): StepBuilder<string> => {
    const common: Record<string, unknown> = {};
    const spec: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options))
      ((COMMON_KEYS as readonly string[]).includes(key) ? common : spec)[key] = value;
    return new StepBuilderImpl<string>(
      { ...(common as unknown as StepCommonOptions), type, spec: ordered(spec, order) },
      captureSite(factory),
    );
  };
  return factory;
}
