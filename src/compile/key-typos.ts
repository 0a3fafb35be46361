import type { z } from 'zod';
import type { Rule } from '../ir/walk.js';
import { typedSpecRegistries, variantSchemas } from '../schema/common.js';
import { describePath } from './document-path.js';
import { isNode, ruleError } from './rule-kit.js';
import { closest } from './suggest.js';

/** zod's definition, read structurally: the public types do not expose it uniformly. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  getter?: () => z.ZodType;
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** What the document's schema models at one map: its fields, and whether it lets other keys through. */
export interface Fields {
  /** The fields of the object schema (a variant's included: `spec` of `type: Inline`). */
  readonly shape: Readonly<Record<string, z.ZodType>>;
  /** Keys beyond the shape pass (a loose object): a typo there would pass silently. */
  readonly loose: boolean;
  /** The schema of `spec`, picked by the map's `type` from the per-type registry (`typedBy`). */
  readonly spec?: z.ZodType;
}

/** Where the one walk stands in the document's zod schema: at a map, its fields; at a list, its items' schema. */
export type SchemaAt = { readonly fields: Fields } | { readonly element: z.ZodType };

/** Unwrapping chains (optional of default of lazy ...) are a few links long; this only stops a cycle. */
const MAX_UNWRAP = 64;

/**
 * The object or array schema that validates `value`, through optional, nullable, default, readonly, pipe, lazy
 * and unions (the option the value's shape picks, else the one it parses with). `written` gives the value as
 * written (child nodes lowered), which parsing needs; it is asked for only when the shape does not decide.
 */
export function schemaAt(schema: z.ZodType, value: unknown, written: () => unknown): SchemaAt | undefined {
  let current = schema;
  for (let depth = 0; depth < MAX_UNWRAP; depth++) {
    const def = defOf(current);
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'readonly':
        current = def.innerType!;
        continue;
      case 'pipe':
        current = def.in!;
        continue;
      case 'lazy':
        current = def.getter!();
        continue;
      case 'array':
        return Array.isArray(value) ? { element: def.element! } : undefined;
      case 'union': {
        const options = def.options ?? [];
        // Parsing each option re-validates the whole subtree: when the value's shape picks one option, that is the one.
        const byShape = options.filter((option) => fitsShape(option, value));
        let fitting = byShape[0];
        if (byShape.length !== 1) {
          const text = written();
          fitting = options.find((option) => option.safeParse(text).success) ?? byShape[0];
        }
        if (!fitting) return undefined;
        current = fitting;
        continue;
      }
      case 'object': {
        if (!isNode(value)) return undefined;
        const variant = variantSchemas.get(current)?.(value);
        // A variant's fields are known too: `spec` is declared by the `type: Inline` variant, not the base.
        // (Merged only when there is a variant: copying every object's shape was most of this check's time.)
        const shape = variant ? { ...(defOf(variant).shape ?? {}), ...(def.shape ?? {}) } : (def.shape ?? {});
        const loose = !def.catchall || defOf(def.catchall).type === 'unknown';
        const registry = typedSpecRegistries.get(current);
        const type = value.type;
        const spec = registry && typeof type === 'string' && Object.hasOwn(registry, type) ? registry[type] : undefined;
        return { fields: spec ? { shape, loose, spec } : { shape, loose } };
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

/** The schema of one key of a map: the typed `spec` by its `type`, else the field's. */
export const fieldSchema = (fields: Fields, key: string): z.ZodType | undefined =>
  key === 'spec' && fields.spec ? fields.spec : Object.hasOwn(fields.shape, key) ? fields.shape[key] : undefined;

/** A union option worth taking when nothing parses: the object option for a map, the array one for a list. */
function fitsShape(option: z.ZodType, value: unknown): boolean {
  let def = defOf(option);
  while (def.innerType) def = defOf(def.innerType);
  return Array.isArray(value) ? def.type === 'array' : isNode(value) ? def.type === 'object' : false;
}

/** Keys shorter than this are too easily one edit from another real key to call a typo. */
const MIN_KEY_LENGTH = 4;

/**
 * Unknown keys one or two edits from a key the schema models are typos (`scipt`, `identifer`): the loose
 * objects would otherwise let them through silently. The walk follows the document's own zod schema (the
 * per-type spec registries included) and calls this at each key a loose object does not model.
 */
export const unknownKeys: Rule = {
  code: 'unknown-key',
  unmodelledKey(key, fields, at) {
    if (key.length < MIN_KEY_LENGTH) return;
    const suggestion = closest(key, Object.keys(fields.shape));
    if (!suggestion) return;
    const path = at.path;
    const { field } = describePath(at.document, path);
    at.report(ruleError(at.document, [...path, key], 'unknown-key', `unknown key "${key}"${field ? ` in ${field}` : ''}`, `did you mean "${suggestion}"?`));
  },
};
