import { captureSite } from '../../core/source-site.js';
import { missingOptions, unknownOptions } from '../option-check.js';
import {
  genericStage,
  genericStageWithoutSteps,
  STAGE_COMMON_KEYS,
  stepsOptionIssues,
  type StageBuilder,
  type StageCommonOptions,
  type StageWithoutSteps,
} from '../stage.js';
import { stageEntry, stageSpecKeys } from '../../catalog/catalog.js';
import type { StageSpecs } from './generated/types.js';
import type { StepRunningStage } from './placement-types.js';
import { setField } from '../../core/own-field.js';

/** A stage type the catalogue knows. */
export type StageType = keyof StageSpecs & string;

type CommonKey = keyof StageCommonOptions | 'execution' | 'spec' | 'type';
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The common options of a stage of type `T`: steps only where the type runs some. */
type CommonOptionsOf<T extends StageType> = T extends StepRunningStage
  ? StageCommonOptions
  : Omit<StageCommonOptions, 'steps' | 'rollbackSteps'>;

/** Options of a catalogue stage: the common stage options and the type's wire `spec` fields, flat. */
export type CatalogStageOptions<T extends StageType> = CommonOptionsOf<T> & DistributiveOmit<StageSpecs[T], CommonKey>;

/** The builder a catalogue stage type gets: one that takes steps when its schema has an execution. */
export type CatalogStageOf<T extends StageType> = T extends StepRunningStage ? StageBuilder<T> : StageWithoutSteps<T>;

export type CatalogStageFactory<T extends StageType> = (options: CatalogStageOptions<T>) => CatalogStageOf<T>;

/** The builder of one catalogue stage type; unknown option keys are reported at the call. */
export function catalogStage<T extends StageType>(type: T): CatalogStageFactory<T> {
  const entry = stageEntry(type);
  const builder = entry?.builder ?? type;
  const runsSteps = entry?.hasExecution !== false;
  const factory = (options: Record<string, unknown>) => {
    const site = captureSite(factory);
    const specKeys = (stageSpecKeys(type) ?? []).filter((key) => key !== 'execution');
    const common: Record<string, unknown> = {};
    const spec: Record<string, unknown> = {};
    const unknown: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options ?? {})) {
      setField(STAGE_COMMON_KEYS.includes(key) ? common : specKeys.includes(key) ? spec : unknown, key, value);
    }
    const issues = [
      ...unknownOptions(builder, unknown, [...STAGE_COMMON_KEYS, ...specKeys]),
      ...missingOptions(builder, options ?? {}, ['identifier']),
      ...(runsSteps ? [] : stepsOptionIssues(builder, options, type)),
    ];
    const stageOptions = { ...(common as unknown as StageCommonOptions), type, spec, issues };
    return runsSteps ? genericStage(stageOptions, site) : genericStageWithoutSteps(stageOptions, site);
  };
  return factory as unknown as CatalogStageFactory<T>;
}
