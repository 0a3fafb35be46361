import { captureSite } from '../../core/source-site.js';
import { missingOptions, unknownOptions } from '../option-check.js';
import { ordered } from '../references.js';
import { STEP_COMMON_KEYS, StepBuilderImpl, type StepBuilder, type StepCommonOptions } from '../step.js';
import { stepEntry, stepSpecKeys } from '../../catalog/catalog.js';
import type { StepSpecs } from './generated/types.js';

/** A step type the catalogue knows. */
export type StepType = keyof StepSpecs & string;

type CommonKey = 'identifier' | 'name' | 'description' | 'timeout' | 'when' | 'failureStrategies' | 'strategy' | 'spec' | 'type';
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** `outputVariables` whose names become the step's typed outputs (`step.output('NAME')`). */
type WithOutputs<Spec, Names extends string> = Spec extends { readonly outputVariables?: ReadonlyArray<infer Variable> }
  ? Omit<Spec, 'outputVariables'> & { readonly outputVariables?: ReadonlyArray<Variable & { readonly name: Names }> }
  : Spec;

/**
 * Wire `spec` fields given as they are: those whose names the common step options already use (a Chaos
 * step's own `identifier`), and fields the platform takes that its published schema does not list yet.
 */
interface SpecOverride {
  readonly spec?: { readonly [key: string]: unknown };
}

type PartialBy<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> & { readonly [P in K & keyof T]?: T[P] } : never;

/**
 * Options of a catalogue step: the common step options, and the type's wire `spec` fields flat beside them
 * (same names as in YAML, so code and YAML read alike).
 */
export type CatalogStepOptions<T extends StepType, Names extends string = never, Defaulted extends string = never> = StepCommonOptions &
  PartialBy<DistributiveOmit<WithOutputs<StepSpecs[T], Names>, CommonKey>, Defaulted> &
  SpecOverride;

/** A step builder from the catalogue; output names come from the `outputVariables` given. */
export type CatalogStepFactory<T extends StepType, Defaulted extends string = never> = <const Names extends string = never>(
  options: CatalogStepOptions<T, Names, Defaulted>,
) => StepBuilder<Names, T>;

interface CatalogStepSettings<Defaulted extends string> {
  /** The name users call (for messages); defaults to the catalogue's. */
  readonly builder?: string;
  /** The platform's customary key order for the spec; keys not listed keep the order given. */
  readonly order?: readonly string[];
  /** Spec values written when not given (the values the platform's editor writes). */
  readonly defaults?: Readonly<Record<Defaulted, unknown>>;
}

/**
 * The builder of one catalogue step type. Option keys that are neither common step options nor fields of
 * the type's spec are reported at the call (with the closest name), never dropped or passed on silently.
 */
export function catalogStep<T extends StepType, Defaulted extends string = never>(
  type: T,
  settings: CatalogStepSettings<Defaulted> = {},
): CatalogStepFactory<T, Defaulted> {
  const builder = settings.builder ?? stepEntry(type)?.builder ?? type;
  const factory = (options: Record<string, unknown>) => {
    const site = captureSite(factory);
    const { spec: explicit, ...rest } = options ?? {};
    const specKeys = stepSpecKeys(type);
    const common: Record<string, unknown> = {};
    const spec: Record<string, unknown> = { ...settings.defaults };
    const unknown: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rest)) {
      if (STEP_COMMON_KEYS.includes(key)) common[key] = value;
      else if (specKeys === undefined || specKeys.includes(key)) spec[key] = value;
      else unknown[key] = value;
    }
    if (explicit && typeof explicit === 'object') Object.assign(spec, explicit);
    const issues = [
      ...unknownOptions(builder, unknown, [...STEP_COMMON_KEYS, ...(specKeys ?? [])]),
      ...missingOptions(builder, options ?? {}, ['identifier']),
    ];
    const outputs = Array.isArray(spec.outputVariables)
      ? spec.outputVariables.flatMap((variable) => (typeof variable?.name === 'string' ? [variable.name as string] : []))
      : undefined;
    return new StepBuilderImpl(
      {
        ...(common as unknown as StepCommonOptions),
        type,
        spec: settings.order ? ordered(spec, settings.order) : spec,
        outputs,
        issues,
      },
      site,
    );
  };
  return factory as unknown as CatalogStepFactory<T, Defaulted>;
}
