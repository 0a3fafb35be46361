import type { z } from 'zod';
import { typedSpecRegistries, variantSchemas } from '../schema/common.js';
import { zodDef, type ZodDef } from '../schema/zod-internals.js';
import { isRecord } from '../core/is-record.js';

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
  let plan = planOf(schema);
  for (let depth = 0; depth < MAX_UNWRAP; depth++) {
    switch (plan.kind) {
      case 'array':
        return Array.isArray(value) ? plan.at : undefined;
      case 'union': {
        const fitting = unionOption(plan.union, value, written);
        if (!fitting) return undefined;
        plan = planOf(fitting);
        continue;
      }
      case 'object': {
        if (!isRecord(value)) return undefined;
        const variant = plan.variantOf?.(value);
        const type = value.type;
        const spec =
          plan.registry && typeof type === 'string' && Object.hasOwn(plan.registry, type)
            ? plan.registry[type]
            : undefined;
        if (!variant && !spec) return plan.plain;
        // A variant's fields are known too: `spec` is declared by the `type: Inline` variant, not the base.
        // (Merged only when there is a variant: copying every object's shape was most of this check's time.)
        const { shape: base, loose } = plan.plain.fields;
        const shape = variant ? { ...(zodDef(resolved(variant)).shape ?? {}), ...base } : base;
        return { fields: spec ? { shape, loose, spec } : { shape, loose } };
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

/**
 * What a schema is once its wrappers are seen through, and what of it does not depend on the value: worked out
 * once per schema, where the walk asked it again at every map and list.
 */
type Plan =
  | { readonly kind: 'array'; readonly at: SchemaAt }
  | { readonly kind: 'union'; readonly union: UnionPlan }
  | {
      readonly kind: 'object';
      /** The fields without a variant or typed spec: the same for every map it checks. */
      readonly plain: { readonly fields: Fields };
      readonly variantOf?: (value: Record<string, unknown>) => z.ZodType | undefined;
      readonly registry?: Readonly<Record<string, z.ZodType>>;
    }
  | { readonly kind: 'other' };

const plans = new WeakMap<z.ZodType, Plan>();

function planOf(schema: z.ZodType): Plan {
  let plan = plans.get(schema);
  if (!plan) {
    plan = makePlan(resolved(schema));
    plans.set(schema, plan);
  }
  return plan;
}

function makePlan(schema: z.ZodType): Plan {
  const def = zodDef(schema);
  switch (def.type) {
    case 'array':
      return { kind: 'array', at: { element: def.element! } };
    case 'union':
      return { kind: 'union', union: unionPlan(def) };
    case 'object': {
      const loose = !def.catchall || zodDef(def.catchall).type === 'unknown';
      const variantOf = variantSchemas.get(schema);
      const registry = typedSpecRegistries.get(schema);
      return {
        kind: 'object',
        plain: { fields: { shape: def.shape ?? {}, loose } },
        ...(variantOf ? { variantOf } : {}),
        ...(registry ? { registry } : {}),
      };
    }
    default:
      return { kind: 'other' };
  }
}

/** The schema of one key of a map: the typed `spec` by its `type`, else the field's. */
export const fieldSchema = (fields: Fields, key: string): z.ZodType | undefined =>
  key === 'spec' && fields.spec ? fields.spec : Object.hasOwn(fields.shape, key) ? fields.shape[key] : undefined;

/** A field of an object option that takes only some scalars (an enum, a literal): a map holding another value fails it. */
interface Tag {
  readonly key: string;
  readonly values: ReadonlySet<unknown>;
  /** Absent passes too. */
  readonly optional: boolean;
}

/** One option of a union, as far as telling maps and lists apart without parsing needs it. */
interface UnionOption {
  readonly schema: z.ZodType;
  /** What it parses at heart (`object`, `array`, `string`, ...), through optional, lazy and the like. */
  readonly type: string;
  /** Its tag fields when it is an object. */
  readonly tags: readonly Tag[];
}

/** A union's options read once (in its `Plan`): what `unionOption` follows for every value that union checks. */
interface UnionPlan {
  readonly options: readonly UnionOption[];
  /** The options a map or a list fits by shape: the one taken when the shape decides, or when nothing parses. */
  readonly maps: readonly z.ZodType[];
  readonly lists: readonly z.ZodType[];
}

function unionPlan(def: ZodDef): UnionPlan {
  const options = (def.options ?? []).map((schema): UnionOption => {
    const optionDef = zodDef(resolved(schema));
    return { schema, type: optionDef.type, tags: optionDef.type === 'object' ? tagsOf(optionDef) : [] };
  });
  const byType = (type: string) => options.filter((option) => option.type === type).map((option) => option.schema);
  return { options, maps: byType('object'), lists: byType('array') };
}

/**
 * The option of a union the walk follows: the one the value's shape picks, else the first that parses it, else
 * the first of its shape. Parsing an option re-validates the whole subtree, and a failed parse costs most: options
 * that cannot take the value (a string for a map, an enum field holding another value) are not tried.
 */
function unionOption(plan: UnionPlan, value: unknown, written: () => unknown): z.ZodType | undefined {
  const fits = Array.isArray(value) ? plan.lists : isRecord(value) ? plan.maps : [];
  if (fits.length === 1) return fits[0];
  const candidates = plan.options.filter((option) => mayParse(option, value));
  // When the only option that might parse is also the fallback, parsing cannot change the answer.
  if (candidates.length === 0 || (candidates.length === 1 && candidates[0]!.schema === fits[0])) return fits[0];
  const text = written();
  return candidates.find((option) => option.schema.safeParse(text).success)?.schema ?? fits[0];
}

/** Types that never take a map, or a list: zod refuses the value before looking inside it. */
const NOT_MAP = new Set([
  'string',
  'number',
  'boolean',
  'bigint',
  'enum',
  'literal',
  'null',
  'undefined',
  'array',
  'tuple',
]);
const NOT_LIST = new Set([
  'string',
  'number',
  'boolean',
  'bigint',
  'enum',
  'literal',
  'null',
  'undefined',
  'object',
  'record',
]);

/** False only when the option surely refuses the value; a scalar value is left to parsing. */
function mayParse(option: UnionOption, value: unknown): boolean {
  if (Array.isArray(value)) return !NOT_LIST.has(option.type);
  if (!isRecord(value)) return true;
  if (NOT_MAP.has(option.type)) return false;
  return option.tags.every(({ key, values, optional }) =>
    value[key] === undefined ? optional : values.has(value[key]),
  );
}

/** The schema under optional, nullable, default, readonly, pipe and lazy wrappers (as `schemaAt` unwraps them). */
export function resolved(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let depth = 0; depth < MAX_UNWRAP; depth++) {
    const def = zodDef(current);
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default' || def.type === 'readonly')
      current = def.innerType!;
    else if (def.type === 'pipe') current = def.in!;
    else if (def.type === 'lazy') current = def.getter!();
    else return current;
  }
  return current;
}

/** The enum and literal fields of an object schema, required or optional (a default would fill in a value: not a tag). */
function tagsOf(def: ZodDef): Tag[] {
  const tags: Tag[] = [];
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    let fieldDef = zodDef(field);
    const optional = fieldDef.type === 'optional';
    if (optional) fieldDef = zodDef(fieldDef.innerType!);
    if (fieldDef.type === 'enum') tags.push({ key, values: new Set(Object.values(fieldDef.entries ?? {})), optional });
    else if (fieldDef.type === 'literal') tags.push({ key, values: new Set(fieldDef.values ?? []), optional });
  }
  return tags;
}
