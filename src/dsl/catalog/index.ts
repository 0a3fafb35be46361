export { catalog, type CatalogEntry, type StepCatalogEntry } from '../../catalog/catalog.js';
export {
  catalogStep,
  type CatalogStepFactory,
  type CatalogStepOptions,
  type StepType,
  type SugarStepOptions,
} from './catalog-step.js';
export {
  catalogStage,
  type CatalogStageFactory,
  type CatalogStageOf,
  type CatalogStageOptions,
  type StageType,
} from './catalog-stage.js';
export type { Expressive } from '../expr.js';
export type { StepSpecs, StepStages, StageSpecs, ConnectorSpecs } from './generated/types.js';
export * from './generated/builders.js';
