/**
 * The catalogue's description of a wire structure, generated from the platform's schema
 * (scripts/generate-catalog.mjs has the grammar). Small, plain JSON: zod schemas and option keys are made
 * from it on first use, by type.
 */
export type Shape =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'any'
  | readonly ['enum', ...unknown[]]
  | readonly ['pattern', string]
  | readonly ['list', Shape]
  | readonly ['map', Shape]
  | readonly ['or', ...Shape[]]
  | readonly ['expr', Shape]
  | readonly ['ref', string]
  | readonly [
      'obj',
      Readonly<Record<string, Shape>>,
      readonly string[],
      (readonly [string, Readonly<Record<string, Shape>>] | null)?,
      /** Open: fields beyond those listed are real (the schema does not describe them). */
      true?,
    ];

export interface StepEntryData {
  readonly builder: string;
  /** Stage types whose execution may hold this step. */
  readonly stages: readonly string[];
  readonly spec: Shape;
  readonly specRequired: boolean;
  /** Node fields beside the common ones (e.g. `contextType`). */
  readonly extraFields: readonly string[];
}

export interface StageEntryData {
  readonly builder: string;
  readonly hasExecution: boolean;
  readonly spec: Shape;
  /** Node fields the platform requires beyond type, identifier and name (e.g. failureStrategies). */
  readonly required: readonly string[];
}

interface ConnectorEntryData {
  readonly builder: string;
  readonly spec: Shape;
}

export interface CatalogData {
  readonly defs: Readonly<Record<string, Shape>>;
  readonly steps: Readonly<Record<string, StepEntryData>>;
  readonly stages: Readonly<Record<string, StageEntryData>>;
  readonly connectors: Readonly<Record<string, ConnectorEntryData>>;
  /**
   * Parts of the documents beside pipelines that a published schema describes: a template's own fields (not its
   * spec), a trigger, a service's `serviceDefinition`, an infrastructure definition's `type` and `spec`.
   */
  readonly documents: {
    readonly template: Shape;
    readonly trigger: Shape;
    readonly serviceDefinition: Shape;
    readonly infrastructure: Shape;
  };
  /** The `spec` of the template types that are not a step, stage, step group or pipeline, by `type`. */
  readonly templateSpecs: Readonly<Record<string, Shape>>;
}

/** The field names an object shape declares (through references), or undefined when it takes anything. */
export function shapeKeys(shape: Shape, defs: Readonly<Record<string, Shape>>, depth = 0): string[] | undefined {
  if (depth > 20 || typeof shape === 'string') return undefined;
  switch (shape[0]) {
    case 'ref':
      return shapeKeys(defs[shape[1]] ?? 'any', defs, depth + 1);
    case 'obj': {
      // An object that names no field takes any (a JSON node the schema leaves open).
      if ((Object.keys(shape[1]).length === 0 && !shape[3]) || shape[4]) return undefined;
      const keys = new Set(Object.keys(shape[1]));
      if (shape[3])
        for (const variant of Object.values(shape[3][1]))
          for (const key of shapeKeys(variant, defs, depth + 1) ?? []) keys.add(key);
      return [...keys];
    }
    case 'or': {
      const all = shape.slice(1).map((inner) => shapeKeys(inner as Shape, defs, depth + 1));
      return all.some((keys) => keys === undefined) ? undefined : [...new Set(all.flat() as string[])];
    }
    default:
      return undefined;
  }
}
