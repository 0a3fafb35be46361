import { CATALOG_DATA } from './generated/data.js';
import { shapeKeys, type CatalogData, type Shape, type StageEntryData, type StepEntryData } from './shape.js';

/**
 * The catalogue: every step, stage and connector type the platform's schema knows, declared once (generated
 * structure in ./generated, hand-written sugar beside it). Registries, placement, option keys, JSON Schema
 * branches and import's builder lookup all read it.
 */

/** The generated data itself; src/schema/catalog-schemas.ts makes zod schemas from its shapes. */
export const catalogData: CatalogData = CATALOG_DATA;

/** One catalogue entry as users see it: the wire type and the name of its builder export. */
export interface CatalogEntry {
  readonly type: string;
  readonly builder: string;
}
export interface StepCatalogEntry extends CatalogEntry {
  /** Stage types whose execution may hold the step. */
  readonly stages: readonly string[];
}

/** Every step and stage type with its builder: `catalog.steps`, `catalog.stages`, `catalog.connectors`. */
export const catalog: {
  readonly steps: readonly StepCatalogEntry[];
  readonly stages: readonly CatalogEntry[];
  readonly connectors: readonly CatalogEntry[];
} = Object.freeze({
  steps: Object.freeze(
    Object.entries(catalogData.steps).map(([type, entry]) =>
      Object.freeze({ type, builder: entry.builder, stages: entry.stages }),
    ),
  ),
  stages: Object.freeze(
    Object.entries(catalogData.stages).map(([type, entry]) => Object.freeze({ type, builder: entry.builder })),
  ),
  connectors: Object.freeze(
    Object.entries(catalogData.connectors).map(([type, entry]) => Object.freeze({ type, builder: entry.builder })),
  ),
});

export const STEP_TYPES: readonly string[] = Object.keys(catalogData.steps);
export const STAGE_TYPES: readonly string[] = Object.keys(catalogData.stages);
export const CONNECTOR_TYPES: readonly string[] = Object.keys(catalogData.connectors);

export const stepEntry = (type: string): StepEntryData | undefined =>
  Object.hasOwn(catalogData.steps, type) ? catalogData.steps[type] : undefined;
export const stageEntry = (type: string): StageEntryData | undefined =>
  Object.hasOwn(catalogData.stages, type) ? catalogData.stages[type] : undefined;

/** Stage types a step type may run in, or undefined for a type the catalogue does not know. */
export const stagesForStep = (type: string): readonly string[] | undefined => stepEntry(type)?.stages;

const keyCache = new Map<string, readonly string[] | undefined>();
const cachedKeys = (cacheKey: string, shape: Shape | undefined) => {
  if (!keyCache.has(cacheKey))
    keyCache.set(cacheKey, shape === undefined ? undefined : shapeKeys(shape, catalogData.defs));
  return keyCache.get(cacheKey);
};

/** The `spec` field names of a step type (undefined: it takes anything). */
export const stepSpecKeys = (type: string) => cachedKeys(`step:${type}`, stepEntry(type)?.spec);
/** The `spec` field names of a stage type (undefined: it takes anything). */
export const stageSpecKeys = (type: string) => cachedKeys(`stage:${type}`, stageEntry(type)?.spec);
/** The `spec` field names of a connector type. */
export const connectorSpecKeys = (type: string) =>
  cachedKeys(
    `connector:${type}`,
    Object.hasOwn(catalogData.connectors, type) ? catalogData.connectors[type]!.spec : undefined,
  );
