import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceYaml, toYaml } from '../src/yaml/emit-yaml.js';
import { MAX_CODE_POINTS, readYaml } from '../src/yaml/read-yaml.js';
import { formatLocation } from '../src/core/source-location.js';

/** The value of `v` in a one-line document, as the reader gives it. */
const valueOf = (scalar: string): unknown => {
  const { documents, diagnostics } = readYaml(`v: ${scalar}\n`, 'x.yaml');
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return (documents[0]!.value as { v: unknown }).v;
};
const codes = (text: string) =>
  readYaml(text, 'x.yaml').diagnostics.map((d) => `${d.location.line}:${d.location.column} ${d.code} ${d.severity}`);

describe('readYaml types plain scalars as the platform does (platform-facts-2 §1.2)', () => {
  it.each([
    ['true', true],
    ['True', true],
    ['FALSE', false],
    ['yes', true],
    ['Yes', true],
    ['ON', true],
    ['no', false],
    ['Off', false],
    ['y', 'y'],
    ['N', 'N'],
    ['yES', 'yES'],
    ['tRUE', 'tRUE'],
    ['~', null],
    ['null', null],
    ['NULL', null],
    ['', null],
    ['nULL', 'nULL'],
    ['0123', 83],
    ['0128', '0128'],
    ['09', '09'],
    ['00', 0],
    ['-0', 0],
    ['+0', 0],
    ['0x1F', 31],
    ['-0x1F', -31],
    ['0xff_ff', 65535],
    ['0X1F', '0X1F'],
    ['0o17', '0o17'],
    ['0b101', 5],
    ['1_000', 1000],
    ['1__0', 10],
    ['1_', 1],
    ['+12', 12],
    ['-12', -12],
    ['1:20', '1:20'],
    ['190:20:30', '190:20:30'],
    ['.5', 0.5],
    ['+.5', 0.5],
    ['1.', 1],
    ['1e3', 1000],
    ['1E3', 1000],
    ['1.5e-3', 0.0015],
    ['97e0087', 9.7e88],
    ['1_0.5', 10.5],
    ['1.0e400', Infinity],
    ['2024-01-01', '2024-01-01'],
    ['2024-01-01T10:00:00Z', '2024-01-01T10:00:00Z'],
    ['.', '.'],
    ['..', '..'],
    ['=', '='],
    ['1,000', '1,000'],
    ['10s', '10s'],
    ['1h30m', '1h30m'],
    ['v1.2', 'v1.2'],
    ['<+input>', '<+input>'],
  ])('%j -> %j', (scalar, expected) => {
    expect(valueOf(scalar)).toEqual(expected);
  });

  it('keeps quoted and block scalars as text, and obeys explicit tags', () => {
    expect(valueOf("'yes'")).toBe('yes');
    expect(valueOf('"0123"')).toBe('0123');
    expect(valueOf('!!str 1e3')).toBe('1e3');
    expect(valueOf("!!int '12'")).toBe(12);
    expect(valueOf("!!bool 'y'")).toBe(true);
    expect(valueOf("!!float '1'")).toBe(1);
    expect(valueOf("!!null ''")).toBe('');
    expect(valueOf('!Ref foo')).toBe('foo');
    expect((readYaml('v: |\n  yes\n', 'x').documents[0]!.value as { v: unknown }).v).toBe('yes\n');
  });

  it('never types keys: `yes: 1`, `1: 2` and `~: 4` give the keys "yes", "1" and "~"', () => {
    expect(readYaml('yes: 1\n1: 2\n~: 4\n', 'x').documents[0]!.value).toEqual({ yes: 1, '1': 2, '~': 4 });
  });

  it.each(['.inf', '-.inf', '.NaN', '1:20.5', '._'])(
    'refuses %s, which the platform cannot read as a number',
    (scalar) => {
      const { documents, diagnostics } = readYaml(`a: 1\nv: ${scalar}\n`, 'x.yaml');
      // The scalar's range: from its first character to just after its last.
      const scalarRange = { file: 'x.yaml', line: 2, column: 4, endLine: 2, endColumn: 4 + scalar.length };
      expect(diagnostics.map((d) => [d.location, d.code, d.severity])).toEqual([[scalarRange, 'yaml-number', 'error']]);
      expect(diagnostics[0]!.hint).toBe(`quote it ('${scalar}') if it is text`);
      expect(documents[0]!.refused).toBe(true);
    },
  );
});

describe('readYaml reads structure as the platform does (platform-facts-2 §1.3)', () => {
  it('refuses a duplicate key, naming both places', () => {
    const { diagnostics, documents } = readYaml('a:\n  b: 1\n  c: 2\n  b: 3\n', 'x.yaml');
    expect(diagnostics.map((d) => `${formatLocation(d.location)} ${d.message} [${d.code}]`)).toEqual([
      'x.yaml:4:3 key "b" appears twice in this map (first at line 2, column 3); the platform refuses the document [yaml-duplicate-key]',
    ]);
    expect(diagnostics[0]!.location).toEqual({ file: 'x.yaml', line: 4, column: 3, endLine: 4, endColumn: 4 });
    expect(documents[0]!.refused).toBe(true);
  });

  it('accepts the same key in different maps', () => {
    expect(codes('a:\n  b: 1\nc:\n  b: 2\n')).toEqual([]);
  });

  it('does not expand aliases or merge keys, and says so where they are', () => {
    const { documents, diagnostics } = readYaml(
      'base: &b\n  x: 1\ncopy: *b\nmerged:\n  <<: *b\n  y: 2\nlost: *undefined\n',
      'x.yaml',
    );
    expect(documents[0]!.value).toEqual({ base: { x: 1 }, copy: 'b', merged: { '<<': 'b', y: 2 }, lost: 'undefined' });
    expect(
      diagnostics.map(
        (d) =>
          `${d.location.line}:${d.location.column}-${d.location.endLine}:${d.location.endColumn} ${d.code} ${d.severity}`,
      ),
    ).toEqual([
      '3:7-3:9 yaml-alias warning',
      '5:3-5:5 yaml-merge-key warning',
      '5:7-5:9 yaml-alias warning',
      '7:7-7:17 yaml-alias warning',
    ]);
    expect(diagnostics[0]!.message).toBe('the platform does not expand aliases: *b is read as the text "b"');
  });

  it('reads an alias bomb in linear time, with a few warnings and a count instead of one per alias', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++)
      levels.push(
        `l${i}: &l${i} [${Array(9)
          .fill(i === 1 ? '*a' : `*l${i - 1}`)
          .join(', ')}]`,
      );
    const { documents, diagnostics } = readYaml(`${levels.join('\n')}\n`, 'bomb.yaml');
    expect((documents[0]!.value as { l8: unknown[] }).l8).toEqual(Array(9).fill('l7'));
    expect(diagnostics).toHaveLength(4);
    expect(diagnostics[3]!.message).toBe(
      '69 more aliases in this document (72 in all), each read as written, not expanded',
    );
  });

  it('reads every document but warns that the platform reads only the first', () => {
    const { documents, diagnostics } = readYaml('a: 1\n---\nb: 2\n', 'x.yaml');
    expect(documents.map((d) => [d.index, d.value])).toEqual([
      [0, { a: 1 }],
      [1, { b: 2 }],
    ]);
    // The second document as a point: its whole range would cover the rest of the file.
    expect(diagnostics.map((d) => [d.location, d.code, d.severity])).toEqual([
      [{ file: 'x.yaml', line: 2, column: 1 }, 'yaml-multiple-documents', 'warning'],
    ]);
  });

  it('gives no document and no warning for a comment-only file', () => {
    expect(readYaml('# nothing here\n', 'x.yaml')).toMatchObject({ documents: [], diagnostics: [] });
  });

  it('refuses a tab used as indentation, with its place and how to fix it, and keeps tabs inside values', () => {
    const { diagnostics } = readYaml('a:\n\tb: 1\n', 'x.yaml');
    expect(diagnostics[0]).toMatchObject({
      code: 'yaml-syntax',
      severity: 'error',
      location: { file: 'x.yaml', line: 2, column: 1 },
    });
    expect(diagnostics[0]!.hint).toMatch(/indent with spaces/);
    expect(readYaml('a: "x\ty"\nb: x\ty\n', 'x').documents[0]!.value).toEqual({ a: 'x\ty', b: 'x\ty' });
  });

  it('locates syntax errors', () => {
    expect(codes('pipeline:\n  name: [unclosed\n  identifier: x\n')[0]).toMatch(/^\d+:\d+ yaml-syntax error$/);
  });

  it(`refuses a document over ${MAX_CODE_POINTS} characters (code points, not UTF-16 units)`, () => {
    const over = `a: ${'x'.repeat(MAX_CODE_POINTS)}\n`;
    expect(codes(over)).toEqual(['1:1 yaml-too-large error']);
    // Each emoji is 2 UTF-16 units but 1 code point: this document is under the limit.
    const emoji = `a: ${'😀'.repeat(MAX_CODE_POINTS / 2)}\n`;
    expect(codes(emoji)).toEqual([]);
  });

  it('refuses nesting deeper than any real pipeline, without overflowing the stack, in block and flow style', () => {
    expect(codes(`a: ${'['.repeat(300)}${']'.repeat(300)}\n`)).toEqual(['1:1 too-deep error']);
    expect(codes(`a: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`)).toEqual(['1:1 too-deep error']);
    expect(codes(`${'- '.repeat(20_000)}a\n`)).toEqual(['1:1 too-deep error']);
    expect(codes(`a: ${'['.repeat(150)}${']'.repeat(150)}\n`)).toEqual([]);
  });

  it('accepts a byte order mark and CRLF line ends', () => {
    expect(readYaml('\uFEFFa: yes\r\nb: x\r\n', 'x').documents[0]!.value).toEqual({ a: true, b: 'x' });
  });
});

describe('the emitter quotes whatever the reader would not read back as the same text', () => {
  const tricky = fc.string({
    minLength: 1,
    maxLength: 7,
    unit: fc.constantFrom(...'01789._:+-eExXbBoOnNaAiIfFyYlLuU~ <>'.split('')),
  });
  it('fast path and reference emitter alike', () => {
    fc.assert(
      fc.property(tricky, (text) => {
        for (const emit of [toYaml, referenceYaml]) {
          const { documents, diagnostics } = readYaml(emit({ v: text, [text]: 1 }), 'x');
          // A key written `<<` is read as the field "<<" (no merge), as meant; only the warning says so.
          expect(diagnostics.filter((d) => d.code !== 'yaml-merge-key')).toEqual([]);
          expect(documents[0]!.value).toEqual({ v: text, [text]: 1 });
        }
      }),
      { numRuns: 3000 },
    );
  });
});
