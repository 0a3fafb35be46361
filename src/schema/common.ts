import { z } from 'zod';
import { quickCheck } from './quick-check.js';
import { isRecord } from '../core/is-record.js';

/** A string that holds a `<+...>` expression somewhere, e.g. `<+input>` or `release-<+INFRA_KEY>`. */
export const EXPRESSION_PATTERN = /<\+/;

export const isExpression = (value: unknown): value is string =>
  typeof value === 'string' && EXPRESSION_PATTERN.test(value);

import { IDENTIFIER_PATTERN } from '../catalog/identity-rules.js';

export { IDENTIFIER_PATTERN };

export const identifier = z
  .string()
  .regex(IDENTIFIER_PATTERN, {
    error: 'is not a valid identifier: start with a letter or _, then letters, digits or _ (at most 128 characters)',
  })
  .meta({ description: 'Identifier: letters, digits and _, starting with a letter or _.', examples: ['deploy_prod'] });

/**
 * The org or project a document belongs to: any text in the platform's schemas (pipeline.v0.json and the
 * connector schemas give these fields no pattern). One that is not an identifier names a scope that cannot exist,
 * which `rules-scope.ts` reports as a warning.
 */
export const scopeIdentifier = z
  .string()
  .meta({ description: 'Identifier of the org or project the document belongs to.', examples: ['default'] });

/**
 * What the platform schema's timeout pattern accepts (pipeline.v0.json, 353 timeouts), and nothing else. That
 * pattern searches rather than matches (JSON Schema), and its `^...|...$` anchors only the first and last
 * alternatives: so `10m`, `1h 30m`, `30s` and `''` pass; `5s` (seconds need two digits), `0m` and `500ms` do
 * not; an expression passes unless it ends in `.executionInput()`. Written as it is there, it backtracks
 * (`1111...` or `<+<+<+...` take time growing with the square or cube of their length), and the editor runs it
 * on every keystroke: here the end-anchored parts are lookbehinds tried only at the end, so it runs in linear time
 * (test/linear-regexes.test.ts compares it with the schema's on generated text).
 */
export const DURATION_PATTERN =
  /^[1-9]\d+s|$(?<=[1-9]\d*[mhwd](?:\s?\d+[smhwd])*)|$(?<=<\+[^\n\r\u2028\u2029]*>(?:(?!\.executionInput\(\))[^>\n\r\u2028\u2029])*)|^$/;

export const isDuration = (value: string): boolean => DURATION_PATTERN.test(value);

export const duration = z
  .string()
  .regex(DURATION_PATTERN, { error: 'is not a duration (e.g. 10m, 1h30m, 1d)' })
  .meta({
    description: 'A duration: numbers with units w, d, h, m, s (seconds with two digits or more); or an expression.',
    examples: ['10m', '1h30m', '1d'],
  });

/** The platform schema's pattern for pipeline, stage, step and step group names (385 uses in pipeline.v0.json). */
export const NAME_PATTERN = /^[a-zA-Z_0-9-.][-0-9a-zA-Z_\s.]{0,127}$/;

export const displayName = z
  .string()
  .regex(NAME_PATTERN, {
    error: 'is not a name the platform accepts: letters, digits, spaces, -, _ and . (at most 128 characters)',
  })
  .meta({ description: 'Display name: letters, digits, spaces, -, _ and .', examples: ['Deploy to prod'] });

/** Text holding a `<+...>` expression, as a type: builders then accept `'<+input>'` but not `'Solaris'` for an enum. */
export type ExpressionText = `${string}<+${string}`;

/** A value that may also be given as a runtime input or other expression. */
export const orExpression = <T extends z.ZodType>(schema: T) =>
  z.union([
    schema,
    // abort: without it zod reports only the pattern miss, hiding the allowed values of an enum.
    z.string().regex(EXPRESSION_PATTERN, { abort: true }) as unknown as z.ZodType<ExpressionText, ExpressionText>,
  ]);

export const tags = z
  .record(z.string(), z.string())
  .meta({ description: 'Key/value tags; a value may be empty.', examples: [{ team: 'payments' }] });

/** Environment variables, labels, build args: names to values (numbers and booleans as YAML writes them). */
export const stringMap = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
  .meta({ description: 'Names to values.', examples: [{ NODE_ENV: 'production' }] });

export const nonEmpty = z.string().min(1, { error: 'must not be empty' });

export const variable = z.looseObject({
  name: z.string(),
  type: z.enum(['String', 'Number', 'Secret']).meta({ description: 'Variable type.' }),
  description: z.string().optional(),
  required: z.boolean().optional(),
  value: z.union([z.string(), z.number()]).optional(),
  default: z.union([z.string(), z.number()]).optional(),
});
export type Variable = z.infer<typeof variable>;

/** The schema's pattern for a pipeline, stage or step group variable's name (StringNGVariable and the others). */
export const VARIABLE_NAME_PATTERN = /^[a-zA-Z_][0-9a-zA-Z_.$-]{0,127}$/;
/** A number as text: digits, or digits around one point (`[+-]?[0-9]*\.?[0-9]+` without its two ways to read `11`). */
const NUMBER = /^[+-]?(?:[0-9]+|[0-9]*\.[0-9]+)$/;

/**
 * A Number variable's value as text: a number, an expression, or empty (NumberNGVariable's `value`, the schema's
 * `(^[+-]?[0-9]*\.?[0-9]+$)|(<\+.+>.*)|^$`). Its expression part is a search that backtracks on `<+<+<+...`; the
 * same question asked line by line: the first `<+` of a line, then a `>` at least one character after it.
 */
export function isNumberText(text: string): boolean {
  if (text === '' || NUMBER.test(text)) return true;
  return text.split(/[\n\r\u2028\u2029]/).some((line) => {
    const start = line.indexOf('<+');
    return start >= 0 && line.indexOf('>', start + 3) >= 0;
  });
}

/**
 * A variable of a pipeline, stage or step group, as pipeline.v0.json has it: `value` required and typed by the
 * variable's `type` (the schema is checked strictly: a number is no String value, platform-facts-2 §1.1), the
 * name by its pattern; the name itself is optional there.
 */
export const pipelineVariable = variable
  .extend({
    name: z
      .string()
      .regex(VARIABLE_NAME_PATTERN, {
        error: 'is not a variable name: a letter or _, then letters, digits, _, ., $ or -',
      })
      .optional(),
    value: z.union([z.string(), z.number()]),
  })
  .superRefine((value, ctx) => {
    const wrong = (field: 'value' | 'default', expected: string) =>
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `a ${value.type} variable's ${field} must be ${expected}`,
      });
    if (value.type !== 'Number') {
      if (typeof value.value === 'number') wrong('value', 'text (quote it)');
      if (typeof value.default === 'number') wrong('default', 'text (quote it)');
    } else {
      if (typeof value.value === 'string' && !isNumberText(value.value))
        wrong('value', 'a number or a <+...> expression');
      if (typeof value.default === 'string') wrong('default', 'a number');
    }
    if (value.type === 'Secret' && typeof value.value === 'string' && value.value.includes('<+secrets.getValue('))
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: "a Secret variable's value is the secret's identifier, not <+secrets.getValue(...)",
      });
  });

export const delegateSelectors = orExpression(z.array(z.string())).meta({
  description: 'Delegate tags that select which delegates run this.',
});

/**
 * Refinement options for the checks of a step's or stage's `spec` by `type`: zod skips a refinement once any field
 * of the object failed, so a stage with a bad `failureStrategies` hid every problem of its steps. With these the
 * check runs anyway, on any map, and each problem of the stage is reported.
 */
export const EVERY_PROBLEM = {
  // Only for a map: a value of the wrong kind altogether is already reported, and has no fields to check.
  when: (payload: { value: unknown }) => isRecord(payload.value),
} as const;

/**
 * Each schema whose `spec` is checked by its `type`, with its registry: the key-typo check (check/schema-position.ts)
 * and the JSON Schema generator (schema/json-schema.ts) read the same registries validation uses.
 */
export const typedSpecRegistries = new WeakMap<z.ZodType, Readonly<Record<string, z.ZodType>>>();

/**
 * Schemas that pick more fields by a discriminator in a refinement (the catalogue's `type: Inline` ->
 * `spec: {script}`): the key-typo check asks them which variant schema applies to a value.
 */
export const variantSchemas = new WeakMap<z.ZodType, (value: Record<string, unknown>) => z.ZodType | undefined>();

/** Records that `schema` checks its `spec` against `registry` by `type`; call on the final (post-meta) schema. */
export function typedBy<T extends z.ZodType>(schema: T, registry: Readonly<Record<string, z.ZodType>>): T {
  typedSpecRegistries.set(schema, registry);
  return schema;
}

/**
 * Checks `value.spec` against the schema registered for `value[typeKey]`, reporting issues at their real path.
 * Unregistered types pass through: real documents use far more kinds than pipewright models.
 */
export function checkSpecByType(
  registry: Readonly<Record<string, z.ZodType>>,
  type: unknown,
  spec: unknown,
  ctx: z.RefinementCtx,
): void {
  if (typeof type !== 'string' || !Object.hasOwn(registry, type)) return;
  const schema = registry[type]!;
  if (quickCheck(schema)(spec ?? {})) return;
  const result = schema.safeParse(spec ?? {});
  if (result.success) return;
  for (const issue of result.error.issues) ctx.addIssue({ ...issue, path: ['spec', ...issue.path] } as never);
}
