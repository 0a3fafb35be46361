import { z } from 'zod';
import { EVERY_PROBLEM, orExpression, variantSchemas } from './common.js';
import type { Shape } from '../catalog/shape.js';

/**
 * zod schemas made from catalogue shapes, on first use. Objects are loose (fields the platform adds later
 * pass through; the key-typo rule reports near misses); what the shape names is checked as the platform's
 * schema says.
 */
export function shapeCompiler(defs: Readonly<Record<string, Shape>>) {
  const named = new Map<string, z.ZodType>();

  const def = (name: string): z.ZodType => {
    let schema = named.get(name);
    if (!schema) {
      // Set before building: a definition that refers to itself resolves through z.lazy.
      named.set(name, z.lazy(() => named.get(`=${name}`)!));
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
          return z.string();
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
        return z.string().regex(new RegExp(shape[1], 'u'), { error: patternMessage(shape[1]) });
      case 'list':
        return z.array(compile(shape[1]));
      case 'map':
        return z.record(z.string(), compile(shape[1]));
      case 'or':
        return z.union(shape.slice(1).map((inner) => compile(inner as Shape)) as never);
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
    const refined = object.superRefine((value, ctx) => {
      const result = variantOf(value as Record<string, unknown>)?.safeParse(value);
      if (result && !result.success) for (const issue of result.error.issues) ctx.addIssue(issue as never);
    }, EVERY_PROBLEM);
    variantSchemas.set(refined, variantOf);
    return refined;
  }

  return { compile, def };
}

/** What a pattern miss means, in words: durations are the common case. */
function patternMessage(pattern: string): string {
  if (/\[smhwd\]|\[mhwd\]/.test(pattern)) return 'is not a duration (e.g. 10m, 1h30m, 1d)';
  if (pattern.startsWith('^[a-zA-Z_][0-9a-zA-Z_')) return 'is not a valid identifier: start with a letter or _, then letters, digits or _';
  return `does not have the form the platform expects (${pattern})`;
}
