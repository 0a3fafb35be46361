import type { z } from 'zod';
import { CATALOG_DATA } from './generated/data.js';
import type { CatalogData, Shape } from './shape.js';
import { shapeCompiler, shapeKeys } from './shape-to-zod.js';

/**
 * The catalogue: every step, stage and connector type the platform's schema knows, declared once (generated
 * structure in ./generated, hand-written sugar beside it). Registries, placement, option keys, JSON Schema
 * branches and import's builder lookup all read it.
 */
const data: CatalogData = CATALOG_DATA;
const compiler = shapeCompiler(data.defs);

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
  steps: Object.freeze(Object.entries(data.steps).map(([type, entry]) => Object.freeze({ type, builder: entry.builder, stages: entry.stages }))),
  stages: Object.freeze(Object.entries(data.stages).map(([type, entry]) => Object.freeze({ type, builder: entry.builder }))),
  connectors: Object.freeze(Object.entries(data.connectors).map(([type, entry]) => Object.freeze({ type, builder: entry.builder }))),
});

export const STEP_TYPES: readonly string[] = Object.keys(data.steps);
export const STAGE_TYPES: readonly string[] = Object.keys(data.stages);
export const CONNECTOR_TYPES: readonly string[] = Object.keys(data.connectors);

export const stepEntry = (type: string) => (Object.hasOwn(data.steps, type) ? data.steps[type] : undefined);
export const stageEntry = (type: string) => (Object.hasOwn(data.stages, type) ? data.stages[type] : undefined);

/** Stage types a step type may run in, or undefined for a type the catalogue does not know. */
export const stagesForStep = (type: string): readonly string[] | undefined => stepEntry(type)?.stages;

/** A registry `{ type: zod schema }` whose schemas are compiled on first use, by type. */
function lazyRegistry(entries: Readonly<Record<string, { readonly spec: Shape }>>): Record<string, z.ZodType> {
  const registry: Record<string, z.ZodType> = {};
  for (const [type, entry] of Object.entries(entries)) {
    let schema: z.ZodType | undefined;
    Object.defineProperty(registry, type, { enumerable: true, get: () => (schema ??= compiler.compile(entry.spec)) });
  }
  return Object.freeze(registry);
}

/** The wire `spec` schema of each step type, by `type`. */
export const stepSpecRegistry = lazyRegistry(data.steps);
/** The wire `spec` schema of each stage type (its `execution` left to the step checks), by `type`. */
export const stageSpecRegistry = lazyRegistry(data.stages);
/** The wire `spec` schema of each connector type, by `type`. */
export const connectorSpecRegistry = lazyRegistry(data.connectors);
/** The `spec` schema of the template types that hold no pipeline part (SecretManager, Workspace, ...), by `type`. */
export const templateSpecRegistry = lazyRegistry(Object.fromEntries(Object.entries(data.templateSpecs).map(([type, spec]) => [type, { spec }])));
/** A part of a document beside pipelines, as the published schema has it (`CatalogData.documents` says which). */
export function documentPartSchema(part: keyof CatalogData['documents']): z.ZodType {
  const shape = data.documents[part];
  // The named definition itself, not a lazy reference to it: callers extend the object.
  return typeof shape !== 'string' && shape[0] === 'ref' ? compiler.def(shape[1]) : compiler.compile(shape);
}

const keyCache = new Map<string, readonly string[] | undefined>();
const cachedKeys = (cacheKey: string, shape: Shape | undefined) => {
  if (!keyCache.has(cacheKey)) keyCache.set(cacheKey, shape === undefined ? undefined : shapeKeys(shape, data.defs));
  return keyCache.get(cacheKey);
};

/** The `spec` field names of a step type (undefined: it takes anything). */
export const stepSpecKeys = (type: string) => cachedKeys(`step:${type}`, stepEntry(type)?.spec);
/** The `spec` field names of a stage type (undefined: it takes anything). */
export const stageSpecKeys = (type: string) => cachedKeys(`stage:${type}`, stageEntry(type)?.spec);
/** The `spec` field names of a connector type. */
export const connectorSpecKeys = (type: string) =>
  cachedKeys(`connector:${type}`, Object.hasOwn(data.connectors, type) ? data.connectors[type]!.spec : undefined);
