import { z } from 'zod';
import { EVERY_PROBLEM, EXPRESSION_PATTERN, orExpression, variantSchemas } from './common.js';
import type { Shape } from '../catalog/shape.js';
import { quickCheck } from './quick-check.js';
import { schemaPattern } from './linear-patterns.js';

/**
 * zod schemas made from catalogue shapes, on first use. Objects are loose (fields the platform adds later
 * pass through; the key-typo rule reports near misses); what the shape names is checked as the platform's
 * schema says.
 */
export function shapeCompiler(
  defs: Readonly<Record<string, Shape>>,
  options: { readonly scalarsAsText?: boolean } = {},
) {
  const named = new Map<string, z.ZodType>();
  // Where the platform reads a document with Jackson and no schema check first (a connector), a number or boolean
  // in a text field is read as its text: the field takes them.
  const text = options.scalarsAsText ? z.union([z.string(), z.number(), z.boolean()]) : z.string();

  const def = (name: string): z.ZodType => {
    let schema = named.get(name);
    if (!schema) {
      // Set before building: a definition that refers to itself resolves through z.lazy.
      named.set(
        name,
        z.lazy(() => named.get(`=${name}`)!),
      );
      schema = compile(defs[name] ?? 'any');
      named.set(`=${name}`, schema);
      named.set(name, schema);
    }
    return schema;
  };

  function compile(shape: Shape): z.ZodType {
    if (typeof shape === 'string') {
      switch (shape) {
        case 'string':
          return text;
        case 'number':
          return z.number();
        case 'integer':
          return z.number().int();
        case 'boolean':
          return z.boolean();
        default:
          return z.unknown();
      }
    }
    switch (shape[0]) {
      case 'enum': {
        const values = shape.slice(1);
        return values.every((value) => typeof value === 'string')
          ? z.enum(values as [string, ...string[]])
          : z.union(values.map((value) => z.literal(value as string | number | boolean)) as never);
      }
      case 'pattern':
        return z.string().regex(schemaPattern(shape[1]), { error: patternMessage(shape[1]) });
      case 'list':
        return z.array(compile(shape[1]));
      case 'map':
        return z.record(z.string(), compile(shape[1]));
      case 'or': {
        const scalar = textOrScalar(shape);
        if (scalar) return scalarOrText(scalar);
        const tagged = taggedBranches(shape.slice(1) as Shape[]);
        if (tagged) return taggedUnion(tagged);
        return z.union(shape.slice(1).map((inner) => compile(inner as Shape)) as never);
      }
      case 'expr':
        return orExpression(compile(shape[1]));
      case 'ref':
        return z.lazy(() => def(shape[1]));
      case 'obj':
        return objectSchema(shape);
      default:
        return z.unknown();
    }
  }

  function objectSchema(shape: Extract<Shape, readonly ['obj', ...unknown[]]>): z.ZodType {
    const [, fields, required, cases] = shape;
    const object = z.looseObject(
      Object.fromEntries(
        Object.entries(fields).map(([key, field]) => {
          const schema = compile(field);
          return [key, required.includes(key) ? schema : schema.optional()];
        }),
      ),
    );
    if (!cases) return object;
    const [discriminator, variants] = cases;
    const compiled = new Map<string, z.ZodType>();
    const variantOf = (value: Record<string, unknown>): z.ZodType | undefined => {
      const tag = value[discriminator];
      if (typeof tag !== 'string' || !Object.hasOwn(variants, tag)) return undefined;
      let schema = compiled.get(tag);
      if (!schema) compiled.set(tag, (schema = compile(variants[tag]!)));
      return schema;
    };
    const refined = object.superRefine(
      (value, ctx) => variantIssues(variantOf(value as Record<string, unknown>), value, ctx),
      EVERY_PROBLEM,
    );
    variantSchemas.set(refined, variantOf);
    return refined;
  }

  /** A shape with its references followed. */
  function resolve(shape: Shape, depth = 0): Shape {
    return typeof shape !== 'string' && shape[0] === 'ref' && depth < 20
      ? resolve(defs[shape[1]] ?? 'any', depth + 1)
      : shape;
  }

  /**
   * Branches that are objects each pinning `type` to one value (`NumberNGVariable | StringNGVariable | ...`), by
   * that value; else undefined. The schema's `oneOf` over them refuses an item without `type` (it fits several),
   * and the platform reads them by `type` (Jackson's `@JsonTypeInfo(property = "type")`, harness-core
   * 953-yaml-commons/.../yaml/core/variables/NGVariable.java L25-29).
   */
  function taggedBranches(branches: readonly Shape[]): Map<string, Shape> | undefined {
    const byType = new Map<string, Shape>();
    for (const branch of branches) {
      const object = resolve(branch);
      if (typeof object === 'string' || object[0] !== 'obj') return undefined;
      const type = (object[1] as Readonly<Record<string, Shape>>).type;
      if (!Array.isArray(type) || type[0] !== 'enum' || type.length !== 2 || typeof type[1] !== 'string')
        return undefined;
      byType.set(type[1], branch);
    }
    return byType.size === branches.length && byType.size > 1 ? byType : undefined;
  }

  /** An object whose `type` picks its branch: `type` required, one of the branches', then that branch's checks. */
  function taggedUnion(byType: Map<string, Shape>): z.ZodType {
    const compiled = new Map<string, z.ZodType>();
    const variantOf = (value: Record<string, unknown>): z.ZodType | undefined => {
      const tag = value.type;
      if (typeof tag !== 'string' || !byType.has(tag)) return undefined;
      let schema = compiled.get(tag);
      if (!schema) compiled.set(tag, (schema = compile(byType.get(tag)!)));
      return schema;
    };
    const refined = z
      .looseObject({ type: z.enum([...byType.keys()] as [string, ...string[]]) })
      .superRefine(
        (value, ctx) => variantIssues(variantOf(value as Record<string, unknown>), value, ctx),
        EVERY_PROBLEM,
      );
    variantSchemas.set(refined, variantOf);
    return refined;
  }

  return { compile, def };
}

/**
 * The issues of a value against the variant its discriminator picks, added to the refinement's. Most values pass:
 * the quick check says so without zod's parse and its copy of the value (every variable of every step, with
 * typed variables, went through a parse: a tenth of a compile's checks).
 */
function variantIssues(variant: z.ZodType | undefined, value: unknown, ctx: z.RefinementCtx): void {
  if (!variant || quickCheck(variant)(value)) return;
  const result = variant.safeParse(value);
  if (!result.success) for (const issue of result.error.issues) ctx.addIssue(issue as never);
}

/**
 * `['or', 'boolean', 'string']` (or integer): the scalar type, else undefined. Not `number`: there the text is real
 * (a Kubernetes quantity such as `cpu: 200m`).
 */
function textOrScalar(shape: readonly unknown[]): 'boolean' | 'integer' | undefined {
  if (shape.length !== 3 || !shape.includes('string')) return undefined;
  const other = shape[1] === 'string' ? shape[2] : shape[1];
  return other === 'boolean' || other === 'integer' ? other : undefined;
}

/**
 * A boolean or number field the schema also lets be any text (`oneOf: [boolean, string]`, so that a runtime
 * input fits): the platform binds it to a Java Boolean or Integer when it saves the pipeline (each stage is read
 * into its class, harness-core FilterCreatorService.java L95-111), and Jackson fails on text it cannot read as
 * one. So: the scalar, an expression, text Jackson coerces (`"true"`, `"false"`, `"3"`) or none (`""`); `one`, `nope`,
 * `maybe` are refused (docs/fidelity.md, "What Jackson coerces").
 */
function scalarOrText(scalar: 'boolean' | 'integer'): z.ZodType {
  const coercible = scalar === 'boolean' ? /^(true|false)$/i : /^[+-]?\d+$/;
  const base = scalar === 'boolean' ? z.boolean() : z.number().int();
  const words = scalar === 'boolean' ? 'true or false' : 'a whole number';
  return z.union([
    base,
    z.string().refine((text) => text === '' || EXPRESSION_PATTERN.test(text) || coercible.test(text.trim()), {
      error: `is not ${words} (or a <+...> expression)`,
    }),
  ]);
}

/** What a pattern miss means, in words: durations are the common case. */
function patternMessage(pattern: string): string {
  if (/\[smhwd\]|\[mhwd\]/.test(pattern)) return 'is not a duration (e.g. 10m, 1h30m, 1d)';
  if (pattern.startsWith('^[a-zA-Z_][0-9a-zA-Z_'))
    return 'is not a valid identifier: start with a letter or _, then letters, digits or _';
  return `does not have the form the platform expects (${pattern})`;
}
