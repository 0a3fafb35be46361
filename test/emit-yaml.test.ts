import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { fastYaml, generatedHeader, referenceYaml, toYaml } from '../src/yaml/emit-yaml.js';

/** Pieces YAML 1.1 treats specially; strings are built by gluing a few of them together. */
const PIECES = [
  '#',
  ' #',
  '# ',
  ':',
  ': ',
  ' :',
  '<+',
  '<+input>',
  '<+input>.default(a: b)',
  '>',
  '|',
  '-',
  '- ',
  '?',
  '? ',
  '---',
  '...',
  ' ',
  '  ',
  '\t',
  '\n',
  '\n\n',
  '\r',
  '\u0000',
  '\u0085',
  '\u00a0',
  '\u2028',
  '\ufeff',
  '"',
  "'",
  '\\',
  '`',
  '%',
  '@',
  '&',
  '*',
  '!',
  '[',
  ']',
  '{',
  '}',
  ',',
  '~',
  'null',
  'Null',
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  'Y',
  'N',
  'YES',
  'No',
  'true',
  'False',
  '0123',
  '1e3',
  '0x1F',
  '0o17',
  '0b101',
  '1_000',
  '12:30',
  '190:20:30',
  '1.5',
  '.inf',
  '-.INF',
  '.nan',
  '+1',
  '-1',
  '2001-12-14',
  '<<',
  '=',
  'a',
  'word',
  'two words',
  'é',
  '日本',
  '🚀',
  'x=1',
  'http://h:8080/p',
  '#0063F7',
  'echo "hi"',
];

const glued = fc.array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 6 }).map((parts) => parts.join(''));
const text = fc.oneof(
  { weight: 4, arbitrary: glued },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);
/** Multi-line scripts: lines of glued pieces, with or without trailing newlines and leading spaces. */
const script = fc
  .tuple(
    fc.constantFrom('', ' ', '  ', '\n', ' \n'),
    fc.array(glued, { minLength: 2, maxLength: 5 }),
    fc.constantFrom('', '\n', '\n\n', ' ', ' \n', '\n '),
  )
  .map(([lead, lines, trail]) => lead + lines.join('\n') + trail);

const scalar = fc.oneof(
  { weight: 6, arbitrary: text },
  { weight: 2, arbitrary: script },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.oneof(fc.double(), fc.constantFrom(null, undefined, -0, 1e21, 2 ** 60)) },
);

/** Documents: nested maps and lists of maps, empty ones included. */
const { value } = fc.letrec<{ value: unknown; map: Record<string, unknown>; list: unknown[] }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('map'), tie('list')),
  map: fc.dictionary(text, tie('value'), { maxKeys: 5, noNullPrototype: false }),
  list: fc.array(tie('value'), { maxLength: 4 }),
}));
const documentArb = fc.dictionary(text, value, { minKeys: 1, maxKeys: 5 });

describe('the fast emitter writes exactly what yaml writes (YAML 1.1, lineWidth 0)', () => {
  it('for arbitrary documents, whenever it does not fall back', () => {
    let fastRuns = 0;
    fc.assert(
      fc.property(documentArb, (document) => {
        const fast = fastYaml(document);
        if (fast === undefined) return;
        fastRuns++;
        expect(fast).toBe(referenceYaml(document));
      }),
      { numRuns: 3000 },
    );
    // The property says nothing if every document fell back; a good share must take the fast path.
    expect(fastRuns).toBeGreaterThan(200);
  });

  it('toYaml equals yaml for every document, fallback included', () => {
    fc.assert(
      fc.property(documentArb, (document) => {
        expect(toYaml(document)).toBe(referenceYaml(document));
      }),
      { numRuns: 1000 },
    );
  });

  it('for every single string as a value, a key and a list item', () => {
    fc.assert(
      fc.property(fc.oneof(text, script), (s) => {
        for (const document of [{ v: s }, { [s]: 'v' }, { l: [s, { k: s }] }, { m: { n: [[s]] } }]) {
          const fast = fastYaml(document);
          if (fast !== undefined) expect(fast).toBe(referenceYaml(document));
        }
      }),
      { numRuns: 5000 },
    );
  });
});

describe('the fast path handles the shapes pipelines are made of (no fallback)', () => {
  const handled = (document: unknown) => {
    const fast = fastYaml(document);
    expect(fast).toBeDefined();
    expect(fast).toBe(referenceYaml(document));
    return fast;
  };

  it('quotes what YAML 1.1 would read as something else', () => {
    expect(
      handled({
        colour: '#0063F7',
        comment: 'a #b',
        colon: 'deploy 0: env 0',
        input: '<+input>.allowedValues(dev,prod)',
        lead: ' lead',
        trail: 'trail ',
        booleans: ['yes', 'no', 'on', 'off', 'y', 'n', 'Y', 'N', 'True'],
        numbers: ['0123', '1e3', '0x1F', '1_000', '12:30', '1.5', '.inf'],
        nulls: ['~', 'null', ''],
        quotes: ['"hi" first', "it's: x", 'x'],
        unicode: 'déploiement 🚀 日本',
      }),
    ).toMatchInlineSnapshot(`
      "colour: "#0063F7"
      comment: "a #b"
      colon: "deploy 0: env 0"
      input: <+input>.allowedValues(dev,prod)
      lead: " lead"
      trail: "trail "
      booleans:
        - "yes"
        - "no"
        - "on"
        - "off"
        - "y"
        - "n"
        - "Y"
        - "N"
        - "True"
      numbers:
        - "0123"
        - "1e3"
        - "0x1F"
        - "1_000"
        - "12:30"
        - "1.5"
        - ".inf"
      nulls:
        - "~"
        - "null"
        - ""
      quotes:
        - '"hi" first'
        - "it's: x"
        - x
      unicode: déploiement 🚀 日本
      "
    `);
  });

  it('writes multi-line scripts as literal blocks, with and without a trailing newline', () => {
    expect(
      handled({ steps: [{ script: 'set -e\nmake # all\n' }, { script: 'a\n\nb' }, { script: '  indented\nnext\n' }] }),
    ).toMatchInlineSnapshot(`
        "steps:
          - script: |
              set -e
              make # all
          - script: |-
              a

              b
          - script: |2
                indented
              next
        "
      `);
  });

  it('writes empty maps and lists inline, nested lists of maps in block style, and keys that need quotes', () => {
    expect(handled({ tags: {}, env: [], yes: true, n: 3, '0123': [[{ a: 'b' }, []], [{}]] })).toMatchInlineSnapshot(`
      "tags: {}
      env: []
      "yes": true
      "n": 3
      "0123":
        - - a: b
          - []
        - - {}
      "
    `);
  });

  it('leaves to yaml what it does not handle: null, floats, keep-chomped blocks, escapes, class instances', () => {
    for (const document of [
      { a: null },
      { a: 1.5 },
      { a: 'x\n\n' },
      { a: 'tab\u0001' },
      { a: ' a\\"b\'' },
      { a: new Date(0) },
    ])
      expect(fastYaml(document)).toBeUndefined();
  });
});

describe("YAML 1.1's other line breaks (NEL, LS, PS) never stand raw in the output", () => {
  // SnakeYAML, the platform's reader, takes U+0085, U+2028 and U+2029 as line breaks in every scalar style and
  // folds them away; only the double-quoted escapes \N, \L, \P keep them.
  const RAW_BREAK = /[\u0085\u2028\u2029]/;
  const values = ['x\u2028y', 'a\u2029', '\u0085lead', 'line one\nx\u2028y\n', 'echo hi\u2028rm -rf /'];

  it.each(values)('writes %j escaped in double quotes and reads it back as itself', (value) => {
    const document = { pipeline: { name: value, tags: { [`k${value}`]: value } } };
    const text = toYaml(document);
    expect(text).not.toMatch(RAW_BREAK);
    expect(text).toMatch(/\\[NLP]/);
    expect(YAML.parse(text, { version: '1.1' })).toEqual(document);
  });

  it('leaves strings without them as they were (the negative of the rule)', () => {
    expect(toYaml({ a: 'x y', b: 'l1\nl2\n' })).toBe('a: x y\nb: |\n  l1\n  l2\n');
    expect(fastYaml({ a: 'x\u2028y' })).toBeUndefined();
  });

  it("escapes line breaks in the header's source path, so no part of the name becomes YAML", () => {
    const header = generatedHeader('pipelines/a\u2028evil: true\nb.ts');
    expect(header.split('\n')).toHaveLength(2);
    expect(header).not.toMatch(RAW_BREAK);
    expect(header).toContain('a\\u2028evil: true\\u000ab.ts');
  });
});
