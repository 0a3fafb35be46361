import { z } from 'zod';
import { typedSpecRegistries } from './common.js';
import { zodDef } from './zod-internals.js';
import { documentSchemas, type ResourceKind } from './index.js';

type JsonSchema = Record<string, unknown>;

/** `$defs` name of what every typed spec is at least (an object). */
const SPEC_OBJECT = 'TypedSpec';

/** `$defs` name of the spec of `type` in a registry, e.g. `StepSpec_Run`. */
const defName = (prefix: string, type: string) => `${prefix}_${type.replace(/[^A-Za-z0-9_]/g, '_')}`;

/** Registries of per-type specs reachable from each document kind, with their `$defs` prefixes. */
const prefixes = new Map<Readonly<Record<string, z.ZodType>>, string>();

function prefixOf(registry: Readonly<Record<string, z.ZodType>>): string {
  let prefix = prefixes.get(registry);
  if (!prefix) {
    prefix = `TypedSpec${prefixes.size + 1}`;
    prefixes.set(registry, prefix);
  }
  return prefix;
}

/**
 * The JSON Schema (draft 2020-12, input side) of one document kind, for editors. Validation checks a
 * `spec` by its `type` in a refinement, which JSON Schema cannot see; so every schema that has a spec
 * registry gets an `if type is X then spec is <X's schema>` branch per registered type, generated from
 * the same zod objects. Everything is generated in one pass (a carrier object holding the document and
 * every spec) so that shared and recursive parts land in one `$defs`.
 */
export function jsonSchemaOf(kind: ResourceKind): JsonSchema {
  const root = documentSchemas[kind];
  const registries = collectRegistries(root);
  const specs: Record<string, z.ZodType> = {};
  for (const registry of registries)
    for (const [type, spec] of Object.entries(registry)) specs[defName(prefixOf(registry), type)] = spec;
  const carrier = z.object({ document: root, ...specs });
  const generated = z.toJSONSchema(carrier, {
    io: 'input',
    target: 'draft-2020-12',
    unrepresentable: 'any',
    cycles: 'ref',
    override(ctx) {
      const schema = ctx.jsonSchema as JsonSchema;
      const registry = typedSpecRegistries.get(ctx.zodSchema as unknown as z.ZodType);
      if (!registry) return;
      const prefix = prefixOf(registry);
      const branches = Object.keys(registry).map((type) => ({
        if: { type: 'object', properties: { type: { const: type } }, required: ['type'] },
        then: { type: 'object', properties: { spec: { $ref: `#/$defs/${defName(prefix, type)}` } } },
      }));
      schema.allOf = [...((schema.allOf as unknown[]) ?? []), ...branches];
      // A stage or step names its type unless a template supplies it (validation: requireTypeOrTemplate).
      const properties = (schema.properties ?? {}) as Record<string, unknown>;
      if ('template' in properties && !(schema.required as string[] | undefined)?.includes('type'))
        schema.anyOf = [
          { type: 'object', properties: { type: {} }, required: ['type'] },
          { type: 'object', properties: { template: {} }, required: ['template'] },
        ];
    },
  }) as JsonSchema;
  const properties = generated.properties as Record<string, JsonSchema>;
  const defs: Record<string, unknown> = { ...((generated.$defs as Record<string, unknown>) ?? {}) };
  // Each spec holds a reference, so that validators which compile a schema to code (Ajv) keep it a function of
  // its own: a target without references is inlined, and the 350-odd step specs inlined into the recursive step
  // element made one function whose frame overflowed the stack at a step group inside a step group.
  defs[SPEC_OBJECT] = { type: 'object' };
  for (const name of Object.keys(specs))
    defs[name] = {
      ...properties[name],
      allOf: [...((properties[name]!.allOf as unknown[] | undefined) ?? []), { $ref: `#/$defs/${SPEC_OBJECT}` }],
    };
  const { $schema, ...document } = { $schema: generated.$schema, ...properties.document! };
  return withoutTypeLists({ $schema, ...document, $defs: defs }) as JsonSchema;
}

/** zod writes a union of primitives as `type: [a, b]`; ajv's strict mode wants `anyOf`, which every editor reads too. */
function withoutTypeLists(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTypeLists);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = withoutTypeLists(item);
  if (Array.isArray(out.type)) {
    out.anyOf = (out.type as string[]).map((type) => ({ type }));
    delete out.type;
  }
  return out;
}

/** Every spec registry reachable from a schema, found by walking zod definitions. */
function collectRegistries(schema: z.ZodType): Set<Readonly<Record<string, z.ZodType>>> {
  const found = new Set<Readonly<Record<string, z.ZodType>>>();
  const seen = new Set<unknown>();
  const visit = (current: unknown): void => {
    if (!current || typeof current !== 'object' || seen.has(current)) return;
    seen.add(current);
    const registry = typedSpecRegistries.get(current as z.ZodType);
    if (registry && !found.has(registry)) {
      found.add(registry);
      Object.values(registry).forEach(visit);
    }
    if (!('_zod' in current)) return;
    const def = zodDef(current as z.ZodType);
    for (const [key, value] of Object.entries(def)) {
      if (key === 'shape' && value && typeof value === 'object') Object.values(value).forEach(visit);
      else if (Array.isArray(value)) value.forEach(visit);
      else if (key === 'getter' && typeof value === 'function') visit((value as () => unknown)());
      else visit(value);
    }
  };
  visit(schema);
  return found;
}
