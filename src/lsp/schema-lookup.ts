import { z } from 'zod';
import { kindOfDocument } from '../catalog/kinds.js';
import { STAGE_TYPES, STEP_TYPES, stagesForStep, stepEntry, stageEntry } from '../catalog/catalog.js';
import type { DocPath } from '../core/document-path.js';
import { isRecord } from '../core/is-record.js';
import { fieldSchema, resolved, schemaAt, type Fields } from '../check/schema-position.js';
import { documentSchemas } from '../schema/index.js';
import { zodDef } from '../schema/zod-internals.js';

/** What the document's schema says at a map of a document: its fields (the typed `spec` by the map's `type`). */
export interface MapAt {
  readonly fields: Fields;
  /** The map as the document holds it so far (empty when it is being written). */
  readonly value: Record<string, unknown>;
  /** The type of the stage the map is in, when it is in one: which step types it may run. */
  readonly stageType?: string;
}

/**
 * Follows a path of a document (as `readYaml` read it) through the zod schema of its kind, as the document check's
 * walk does (`schemaAt`: unions by the value's shape, a spec by its type); the map at the end, even one that is
 * not written yet.
 */
export function mapAt(document: unknown, path: DocPath): MapAt | undefined {
  const kind = kindOfDocument(document);
  if (!kind) return undefined;
  let schema: z.ZodType = documentSchemas[kind];
  let value: unknown = document;
  let stageType: string | undefined;
  for (let i = 0; i <= path.length; i++) {
    const step = path[i];
    const here = value ?? (typeof step === 'number' ? [] : {});
    const at = schemaAt(schema, here, () => here);
    if (!at) return undefined;
    if (i === path.length)
      return 'fields' in at
        ? { fields: at.fields, value: isRecord(here) ? here : {}, ...(stageType ? { stageType } : {}) }
        : undefined;
    if ('element' in at) {
      schema = at.element;
      value = Array.isArray(here) ? here[step as number] : undefined;
    } else {
      const field = fieldSchema(at.fields, String(step));
      if (!field) return undefined;
      schema = field;
      value = isRecord(here) ? here[String(step)] : undefined;
      if (step === 'stage' && isRecord(value) && typeof value.type === 'string') stageType = value.type;
    }
  }
  return undefined;
}

/** The values a field takes when they are a closed set (an enum, literals, booleans), through wrappers and unions. */
function enumValues(schema: z.ZodType): string[] {
  const def = zodDef(resolved(schema));
  if (def.type === 'enum') return Object.values(def.entries ?? {}).map(String);
  if (def.type === 'literal') return (def.values ?? []).map(String);
  if (def.type === 'boolean') return ['true', 'false'];
  if (def.type === 'union') return [...new Set((def.options ?? []).flatMap(enumValues))];
  return [];
}

/** The values offered for `key` in a map: step and stage types by the catalogue (a step's by its stage), else the field's set. */
export function valuesFor(place: MapAt, key: string, path: DocPath): string[] {
  const wrapper = path[path.length - 1];
  if (key === 'type' && wrapper === 'step')
    return place.stageType
      ? STEP_TYPES.filter((type) => stagesForStep(type)?.includes(place.stageType!))
      : [...STEP_TYPES];
  if (key === 'type' && wrapper === 'stage') return [...STAGE_TYPES];
  const field = fieldSchema(place.fields, key);
  return field ? enumValues(field) : [];
}

/** A field's type in a few words: `one of Bash | PowerShell`, `list of objects`, `duration text`. */
export function describeType(schema: z.ZodType): string {
  const values = enumValues(schema);
  if (values.length)
    return `one of ${values.slice(0, 12).join(' | ')}${values.length > 12 ? ` | ... (${values.length})` : ''}`;
  const def = zodDef(resolved(schema));
  if (def.type === 'array') return `list of ${plural(describeType(def.element!))}`;
  if (def.type === 'union') return [...new Set((def.options ?? []).map(describeType))].join(' or ');
  return def.type === 'object' ? 'object' : def.type === 'record' ? 'map' : def.type;
}

/** Whether a field may be left out (an optional field, or one with a default). */
export const isOptional = (schema: z.ZodType): boolean => ['optional', 'default'].includes(zodDef(schema).type);

const plural = (words: string) => (/^(object|map|string|number|boolean)$/.test(words) ? `${words}s` : words);

/** Our description of a field, when the schema has one (`.meta({ description })`), through its wrappers. */
export function descriptionOf(schema: z.ZodType): string | undefined {
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current && depth < 8; depth++) {
    const description = z.globalRegistry.get(current)?.description;
    if (description) return description;
    const def = zodDef(current);
    current = def.innerType ?? def.in ?? (def.type === 'lazy' ? def.getter!() : undefined);
  }
  return undefined;
}

/** What the catalogue says of a step or stage type: its builder and where it runs. */
export function typeNote(type: string, wrapper: unknown): string | undefined {
  if (wrapper === 'step') {
    const entry = stepEntry(type);
    return entry && `step type \`${type}\`: built by \`${entry.builder}()\`; runs in ${entry.stages.join(', ')} stages`;
  }
  if (wrapper === 'stage') {
    const entry = stageEntry(type);
    return entry && `stage type \`${type}\`: built by \`${entry.builder}()\``;
  }
  return undefined;
}
