import { captureSite } from '../../core/source-site.js';
import { isRecord } from '../../core/is-record.js';
import { missingOptions, unknownOptions } from '../option-check.js';
import { ordered } from '../references.js';
import { STEP_COMMON_KEYS, StepBuilderImpl, type StepBuilder, type StepCommonOptions } from '../step.js';
import { stepEntry, stepSpecKeys } from '../../catalog/catalog.js';
import type { StepSpecs } from './generated/types.js';
import type { CommonKey, FlatStepSugar, StepSugar, StepType } from './step-sugar.js';
import type { DefaultValue } from './sugar.js';
import { assignFields, fieldOf, setField } from '../../core/own-field.js';

export type { StepType } from './step-sugar.js';

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

type PartialBy<T, K extends PropertyKey> = T extends unknown
  ? Omit<T, K> & { readonly [P in K & keyof T]?: T[P] }
  : never;

/**
 * Options of a catalogue step: the common step options, and the type's wire `spec` fields flat beside them
 * (same names as in YAML, so code and YAML read alike).
 */
export type CatalogStepOptions<
  T extends StepType,
  Names extends string = never,
  Defaulted extends string = never,
> = StepCommonOptions &
  PartialBy<DistributiveOmit<WithOutputs<StepSpecs[T], Names>, CommonKey>, Defaulted> &
  SpecOverride;

/**
 * The options of a hand-written step builder from its declaration (`declareStep`): a module names them
 * (`RunStepOptions`) so that hovers show that name.
 */
export type SugarStepOptions<Sugar extends FlatStepSugar<StepType, string>, Names extends string = never> =
  // Not a conditional type: a hover at a call then keeps the module's name (`K8sCanaryDeployStepOptions<never>`)
  // where a conditional one showed what it resolved to (`CatalogStepOptions<"K8sCanaryDeploy", never, never>`).
  CatalogStepOptions<SugarType<Sugar>, Names, SugarDefaulted<Sugar>>;
type SugarType<Sugar> = Sugar extends FlatStepSugar<infer T, string> ? T : never;
type SugarDefaulted<Sugar> = Sugar extends FlatStepSugar<StepType, infer Defaulted> ? Defaulted : never;

/** A step builder from the catalogue; output names come from the `outputVariables` given. */
export type CatalogStepFactory<T extends StepType, Defaulted extends string = never> = <
  const Names extends string = never,
>(
  options: CatalogStepOptions<T, Names, Defaulted>,
) => StepBuilder<Names, T>;

const COMMON_KEYS: ReadonlySet<string> = new Set(STEP_COMMON_KEYS);
const IDENTIFIER = ['identifier'];

/**
 * The builder of one catalogue step type: from its type (generated builders), or from a hand-written builder's
 * declaration (`declareStep`: key order, defaults). Option keys that are neither common step options nor fields
 * of the type's spec are reported at the call (with the closest name), never dropped or passed on silently.
 */
export function catalogStep<T extends StepType>(type: T): CatalogStepFactory<T>;
export function catalogStep<T extends StepType, Defaulted extends string>(
  sugar: FlatStepSugar<T, Defaulted>,
): CatalogStepFactory<T, Defaulted>;
export function catalogStep(declared: StepType | StepSugar): unknown {
  const sugar = typeof declared === 'string' ? undefined : declared;
  const type = sugar?.type ?? (declared as StepType);
  const builder = sugar?.builder ?? stepEntry(type)?.builder ?? type;
  // The type's option names, worked out at its first call (import evaluates thousands of calls): sets to sort
  // options by, and the list unknownOptions suggests from.
  let names: { readonly spec: ReadonlySet<string> | undefined; readonly known: readonly string[] } | undefined;
  const factory = (options: Record<string, unknown>) => {
    const site = captureSite(factory);
    const { spec: explicit, ...rest } = options ?? {};
    const specKeys = stepSpecKeys(type);
    names ??= { spec: specKeys && new Set(specKeys), known: [...STEP_COMMON_KEYS, ...(specKeys ?? [])] };
    const common: Record<string, unknown> = {};
    const spec: Record<string, unknown> = { ...sugar?.defaults };
    const unknown: Record<string, unknown> = {};
    for (const key in rest) {
      const value = rest[key];
      setField(
        COMMON_KEYS.has(key) ? common : names.spec === undefined || names.spec.has(key) ? spec : unknown,
        key,
        value,
      );
    }
    if (explicit && typeof explicit === 'object') assignFields(spec, explicit);
    const issues = [
      ...unknownOptions(builder, unknown, names.known),
      ...missingOptions(builder, options ?? {}, IDENTIFIER),
    ];
    const outputs = Array.isArray(spec.outputVariables)
      ? spec.outputVariables.flatMap((variable) =>
          typeof variable?.name === 'string' ? [variable.name as string] : [],
        )
      : undefined;
    return new StepBuilderImpl(
      {
        ...(common as unknown as StepCommonOptions),
        type,
        spec: sugar ? ordered(spec, sugar.order) : spec,
        outputs,
        issues,
      },
      site,
    );
  };
  return factory;
}

/**
 * Spec fields named like the step's own `spec` and `type` (a Verify step's `type: Canary`, a Policy step's
 * `type: Custom`): the options' types take them only under `spec` (CommonKey), so import writes them there.
 */
const SPEC_ONLY_KEYS: readonly string[] = ['spec', 'type'];

/**
 * The inverse of a catalogue step's options, for import: a spec read from YAML as its builder takes it, the
 * fields its type declares flat (but those equal to a declared default) and the rest (fields the published
 * schema does not list, or named like a common option) as they are under `spec`.
 */
export function catalogStepOptions(
  type: string,
  spec: unknown,
  defaults: Readonly<Record<string, DefaultValue>> = {},
): Record<string, unknown> {
  const known = stepSpecKeys(type);
  const flat: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(isRecord(spec) ? spec : {}))
    if (
      (known === undefined || known.includes(key)) &&
      !STEP_COMMON_KEYS.includes(key) &&
      !SPEC_ONLY_KEYS.includes(key)
    ) {
      if (field !== fieldOf(defaults, key)) setField(flat, key, field);
    } else setField(rest, key, field);
  return Object.keys(rest).length > 0 ? { ...flat, spec: rest } : flat;
}
