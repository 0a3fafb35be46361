import type { z } from 'zod';
import { typedSpecRegistries, variantSchemas } from '../schema/common.js';
import type { Diagnostic } from './diagnostics.js';
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

/** Keys shorter than this are too easily one edit from another real key to call a typo. */
const MIN_KEY_LENGTH = 4;

/**
 * Unknown keys one or two edits from a key the schema models are typos (`scipt`, `identifer`): the loose
 * objects would otherwise let them through silently. Walks the document along the same zod schemas that
 * validate it, including the per-type spec registries.
 */
export function keyTypos(schema: z.ZodType, document: unknown): Diagnostic[] {
  const found: Diagnostic[] = [];
  // One shared path, copied only for a finding: a new array per key and item was most of this walk's garbage.
  const path: Array<string | number> = [];
  const walk = (current: z.ZodType, value: unknown, depth: number): void => {
    if (depth > 200 || value === undefined || value === null) return;
    const def = defOf(current);
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'readonly':
        return walk(def.innerType!, value, depth + 1);
      case 'pipe':
        return walk(def.in!, value, depth + 1);
      case 'lazy':
        return walk(def.getter!(), value, depth + 1);
      case 'array':
        if (Array.isArray(value))
          for (let index = 0; index < value.length; index++) {
            path.push(index);
            walk(def.element!, value[index], depth + 1);
            path.pop();
          }
        return;
      case 'union': {
        const options = def.options ?? [];
        // Parsing each option again re-validates the whole subtree once per level of nesting (the top item of
        // validate's profile): when the value's shape picks one option, that is the one.
        const byShape = options.filter((option) => fitsShape(option, value));
        const fitting =
          byShape.length === 1
            ? byShape[0]
            : (options.find((option) => option.safeParse(value).success) ?? byShape[0]);
        if (fitting) walk(fitting, value, depth + 1);
        return;
      }
      case 'object': {
        if (!isNode(value)) return;
        const variant = variantSchemas.get(current)?.(value);
        // A variant's fields are known too: `spec` is declared by the `type: Inline` variant, not the base.
        // (Merged only when there is a variant: copying every object's shape was most of this walk's time.)
        const shape = variant ? { ...(defOf(variant).shape ?? {}), ...(def.shape ?? {}) } : (def.shape ?? {});
        const loose = !def.catchall || defOf(def.catchall).type === 'unknown';
        for (const key in value) {
          const item = value[key];
          if (Object.hasOwn(shape, key)) {
            path.push(key);
            walk(shape[key]!, item, depth + 1);
            path.pop();
          } else if (loose && key.length >= MIN_KEY_LENGTH) {
            const suggestion = closest(key, Object.keys(shape));
            if (suggestion) {
              const { field } = describePath(document, path);
              found.push(
                ruleError(document, [...path, key], 'unknown-key', `unknown key "${key}"${field ? ` in ${field}` : ''}`, `did you mean "${suggestion}"?`),
              );
            }
          }
        }
        const registry = typedSpecRegistries.get(current);
        const type = value.type;
        if (registry && typeof type === 'string' && Object.hasOwn(registry, type)) {
          path.push('spec');
          walk(registry[type]!, value.spec, depth + 1);
          path.pop();
        }
        return;
      }
      default:
        return;
    }
  };
  walk(schema, document, 0);
  return found;
}

/** A union option worth walking when nothing parses: the object option for a map, the array one for a list. */
function fitsShape(option: z.ZodType, value: unknown): boolean {
  let def = defOf(option);
  while (def.innerType) def = defOf(def.innerType);
  return Array.isArray(value) ? def.type === 'array' : isNode(value) ? def.type === 'object' : false;
}
