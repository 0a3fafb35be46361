import fc from 'fast-check';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { STEP_TYPES } from '../src/catalog/catalog.js';
import { stepSpecRegistry } from '../src/schema/catalog-schemas.js';
import { kindOfDocument } from '../src/catalog/kinds.js';
import { documentSchemas } from '../src/schema/index.js';
import { quickCheck } from '../src/schema/quick-check.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { seededRandom } from '../scripts/seeded-random.mjs';
import { ROOT } from './support/cli.js';

/**
 * The quick check may answer yes only where zod's parse succeeds: a yes skips the parse, so a wrong yes would hide
 * a problem. It should answer no only where zod fails too, or documents that pass would be parsed for nothing.
 * Both directions are asserted: on our fixtures, on the real-world corpus when present, on mutations of both, and
 * on values generated for every step type.
 */
const agrees = (schema: z.ZodType, value: unknown): void =>
  void expect(quickCheck(schema)(value), JSON.stringify(value)?.slice(0, 300)).toBe(schema.safeParse(value).success);

function yamlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? yamlFiles(path) : /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/** Every document of a file set, with the schema of its kind (documents of no kind left out). */
function documentsIn(files: readonly string[]): Array<{ file: string; schema: z.ZodType; value: unknown }> {
  return files.flatMap((file) =>
    readYaml(readFileSync(file, 'utf8'), file).documents.flatMap(({ value }) => {
      const kind = kindOfDocument(value);
      return kind ? [{ file, schema: documentSchemas[kind] as z.ZodType, value }] : [];
    }),
  );
}

const fixtures = documentsIn(yamlFiles(join(ROOT, 'test', 'fixtures')));
const corpusDir = join(ROOT, '../shared/corpus');
const corpus = documentsIn(yamlFiles(corpusDir));

/** A value that mostly is the document, changed at one place: a key dropped, a value replaced, a key added. */
function mutated(value: unknown, pick: (count: number) => number, replacement: unknown): unknown {
  if (typeof value !== 'object' || value === null) return replacement;
  const keys = Object.keys(value);
  if (keys.length === 0) return replacement;
  const key = keys[pick(keys.length)]!;
  const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as never) : { ...value };
  const roll = pick(10);
  if (roll === 0) delete copy[key];
  else if (roll === 1) copy[key] = replacement;
  else if (roll === 2 && !Array.isArray(value)) copy[`extra_${key}`] = replacement;
  else copy[key] = mutated(copy[key], pick, replacement);
  return copy;
}

const replacements = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    undefined,
    null,
    NaN,
    Infinity,
    2 ** 60,
    -0,
    1.5,
    '',
    '<+input>',
    '10m',
    'x y',
    [],
    {},
    [undefined],
    Object.create(null),
  ),
);

describe('the quick check agrees with zod', () => {
  it('on every fixture document, and on mutations of each', () => {
    expect(fixtures.length).toBeGreaterThan(40);
    for (const { schema, value } of fixtures) agrees(schema, value);
    fc.assert(
      fc.property(fc.constantFrom(...fixtures), replacements, fc.nat(), ({ schema, value }, replacement, seed) => {
        agrees(schema, mutated(value, picker(seed), replacement));
      }),
      { numRuns: 2000 },
    );
  });

  it.skipIf(corpus.length === 0)('on every document of the real-world corpus, and on mutations of each', () => {
    for (const { schema, value } of corpus) agrees(schema, value);
    fc.assert(
      fc.property(fc.constantFrom(...corpus), replacements, fc.nat(), ({ schema, value }, replacement, seed) => {
        agrees(schema, mutated(value, picker(seed), replacement));
      }),
      { numRuns: 3000 },
    );
  });

  it('on generated values for every step type', () => {
    const object = fc.dictionary(
      fc.constantFrom(
        'script',
        'spec',
        'type',
        'connectorRef',
        'image',
        'shell',
        'command',
        'timeout',
        'envVariables',
        'name',
        'url',
        'method',
        'x',
      ),
      replacements,
      { maxKeys: 5 },
    );
    fc.assert(
      fc.property(fc.constantFrom(...STEP_TYPES), fc.oneof(object, replacements), (type, value) => {
        agrees(stepSpecRegistry[type]!, value);
      }),
      { numRuns: 3000 },
    );
  });

  it('on the cases where a plain reading of an object differs from zod', () => {
    const required = z.looseObject({ a: z.unknown() });
    const optional = z.looseObject({ a: z.string().optional() });
    const record = z.record(z.string(), z.string());
    class Holder {
      a = 'x';
    }
    const cases: Array<[z.ZodType, unknown]> = [
      [required, {}], // a required key must be there, even when it takes anything
      [required, { a: undefined }],
      [required, Object.create({ a: 1 })], // zod reads inherited keys
      [optional, { a: undefined }],
      [optional, { a: 1 }],
      [z.looseObject({ constructor: z.string().optional() }), {}], // every object "has" a constructor
      [record, new Holder()], // a record takes plain objects only
      [record, Object.create(null)],
      [record, { [Symbol('s')]: 'x' }],
      [record, { a: undefined }],
      [z.looseObject({}), []],
      [z.looseObject({}), new Date()],
      [z.array(z.string()), [, 'a']], // a hole reads as undefined
      [z.number(), NaN],
      [z.number(), Infinity],
      [z.number().int(), 2 ** 60],
      [z.strictObject({ a: z.string() }), { a: 'x', b: 1 }],
      [z.strictObject({ a: z.string() }), { a: 'x' }],
      [z.string().regex(/^a+$/), 'aaa'],
      [z.string().regex(/^a+$/), 'b'],
      [
        z.looseObject({ a: z.string() }).superRefine((v, ctx) => {
          if (v.a === 'bad') ctx.addIssue({ code: 'custom', message: 'no' });
        }),
        { a: 'bad' },
      ],
      [z.string().transform((s) => s.length), 'x'], // a transform is left to zod: answered no
    ];
    for (const [schema, value] of cases.slice(0, -1)) agrees(schema, value);
    expect(quickCheck(cases.at(-1)![0])('x')).toBe(false);
  });
});

/** Choices from a seed, so that a failing mutation is reproduced by fast-check's seed. */
function picker(seed: number): (count: number) => number {
  const random = seededRandom(seed);
  return (count) => (random() * count) | 0;
}
