import { captureSite } from '../../core/source-site.js';
import { missingOptions, unknownOptions } from '../option-check.js';
import { genericStage, STAGE_COMMON_KEYS, type StageBuilder, type StageCommonOptions } from '../stage.js';
import { stageEntry, stageSpecKeys } from '../../catalog/catalog.js';
import type { StageSpecs } from './generated/types.js';

/** A stage type the catalogue knows. */
export type StageType = keyof StageSpecs & string;

type CommonKey = keyof StageCommonOptions | 'execution' | 'spec' | 'type';
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Options of a catalogue stage: the common stage options and the type's wire `spec` fields, flat. */
export type CatalogStageOptions<T extends StageType> = StageCommonOptions & DistributiveOmit<StageSpecs[T], CommonKey>;

export type CatalogStageFactory<T extends StageType> = (options: CatalogStageOptions<T>) => StageBuilder<T>;

/** The builder of one catalogue stage type; unknown option keys are reported at the call. */
export function catalogStage<T extends StageType>(type: T): CatalogStageFactory<T> {
  const builder = stageEntry(type)?.builder ?? type;
  const factory = (options: Record<string, unknown>) => {
    const site = captureSite(factory);
    const specKeys = (stageSpecKeys(type) ?? []).filter((key) => key !== 'execution');
    const common: Record<string, unknown> = {};
    const spec: Record<string, unknown> = {};
    const unknown: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options ?? {})) {
      if (STAGE_COMMON_KEYS.includes(key)) common[key] = value;
      else if (specKeys.includes(key)) spec[key] = value;
      else unknown[key] = value;
    }
    const issues = [
      ...unknownOptions(builder, unknown, [...STAGE_COMMON_KEYS, ...specKeys]),
      ...missingOptions(builder, options ?? {}, ['identifier']),
    ];
    return genericStage({ ...(common as unknown as StageCommonOptions), type, spec, issues }, site);
  };
  return factory as unknown as CatalogStageFactory<T>;
}
