import type { z } from 'zod';
import { catalogData } from '../catalog/catalog.js';
import type { CatalogData, Shape } from '../catalog/shape.js';
import { shapeCompiler } from './shape-to-zod.js';

/** The catalogue's types as zod schemas, each compiled from its shape on first use. */
const compiler = shapeCompiler(catalogData.defs);

/**
 * Connectors are read straight into their Java classes with Jackson, with no JSON Schema check first (harness-core
 * `440-connector-nextgen/.../connector/apis/resource/ConnectorResource.java` L419-420: the body is a `@Valid
 * ConnectorDTO`), so a number or boolean in a text field is taken as its text (docs/fidelity.md).
 */
const connectorCompiler = shapeCompiler(catalogData.defs, { scalarsAsText: true });

/** A registry `{ type: zod schema }` whose schemas are compiled on first use, by type. */
function lazyRegistry(
  entries: Readonly<Record<string, { readonly spec: Shape }>>,
  from = compiler,
): Record<string, z.ZodType> {
  const registry: Record<string, z.ZodType> = {};
  for (const [type, entry] of Object.entries(entries)) {
    let schema: z.ZodType | undefined;
    Object.defineProperty(registry, type, { enumerable: true, get: () => (schema ??= from.compile(entry.spec)) });
  }
  return Object.freeze(registry);
}

/** The wire `spec` schema of each step type, by `type`. */
export const stepSpecRegistry = lazyRegistry(catalogData.steps);
/** The wire `spec` schema of each stage type (its `execution` left to the step checks), by `type`. */
export const stageSpecRegistry = lazyRegistry(catalogData.stages);
/** The wire `spec` schema of each connector type, by `type`. */
export const connectorSpecRegistry = lazyRegistry(catalogData.connectors, connectorCompiler);
/** The `spec` schema of the template types that hold no pipeline part (SecretManager, Workspace, ...), by `type`. */
export const templateSpecRegistry = lazyRegistry(
  Object.fromEntries(Object.entries(catalogData.templateSpecs).map(([type, spec]) => [type, { spec }])),
);
/** A part of a document beside pipelines, as the published schema has it (`CatalogData.documents` says which). */
export function documentPartSchema(part: keyof CatalogData['documents']): z.ZodType {
  const shape = catalogData.documents[part];
  // The named definition itself, not a lazy reference to it: callers extend the object.
  return typeof shape !== 'string' && shape[0] === 'ref' ? compiler.def(shape[1]) : compiler.compile(shape);
}

/**
 * A named definition of the platform's schema (`ServiceConfig`, `PipelineInfrastructure`), compiled on first use:
 * for a hand-modelled spec that takes a part whole from the schema rather than modelling it again.
 */
export const catalogDefinition = (name: string): z.ZodType => compiler.def(name);
