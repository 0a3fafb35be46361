export { catalog, type CatalogEntry, type StepCatalogEntry } from '../../catalog/catalog.js';
export type { CatalogStepFactory, CatalogStepOptions, StepType, SugarStepOptions } from './catalog-step.js';
export type { CatalogStageFactory, CatalogStageOf, CatalogStageOptions, StageType } from './catalog-stage.js';
export type { Expressive } from '../expr.js';
export type { StepSpecs, StepStages, StageSpecs, ConnectorSpecs } from './generated/types.js';
export * from './generated/builders.js';
