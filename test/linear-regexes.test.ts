import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DURATION_PATTERN, pipelineVariable } from '../src/schema/common.js';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { variableName } from '../src/import/variable-name.js';
import { formatDiagnostic, type Diagnostic } from '../src/core/diagnostics.js';
import { frameOf } from '../src/core/source-site.js';
import { pipeline, shell, stage } from 'pipewright';

// Each regex that reads a user's value was rewritten so it runs in linear time. The patterns as they were are the
// specification here: on generated text the new ones give the same verdict, and on 100,000 characters built to
// make the old ones backtrack they answer at all (the old ones take minutes to hours there).

const LONG = 100_000;

/** Text made of the pieces a pattern is about, so generated strings reach its interesting cases. */
const textOf = (pieces: readonly string[], maxLength = 12) =>
  fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(''));

const sameVerdicts = <T>(pieces: readonly string[], before: (text: string) => T, after: (text: string) => T) =>
  fc.assert(
    fc.property(textOf(pieces), (text) => {
      expect(after(text)).toEqual(before(text));
    }),
    { numRuns: 3000 },
  );

describe('a duration (the schema timeout pattern)', () => {
  const SCHEMA_PATTERN =
    /^(([1-9])+\d+[s])|(((([1-9])+\d*[mhwd])+([\s]?\d+[smhwd])*)|(.*<\+.*>(?!.*\.executionInput\(\)).*)|(^$))$/;
  const PIECES = [
    '1',
    '0',
    '5',
    's',
    'm',
    'h',
    'd',
    ' ',
    '\n',
    '\u2028',
    '<+',
    '<',
    '+',
    '>',
    'x',
    '.executionInput()',
  ];

  it('accepts what the schema pattern accepts', () => {
    sameVerdicts(
      PIECES,
      (text) => SCHEMA_PATTERN.test(text),
      (text) => DURATION_PATTERN.test(text),
    );
    for (const ok of ['10m', '1h 30m', '1h30m', '30s', '', '<+input>', 'a1m'])
      expect(DURATION_PATTERN.test(ok)).toBe(true);
    for (const bad of ['5s', '0m', '500ms', '<+input>.executionInput()', '1m\n'])
      expect(DURATION_PATTERN.test(bad)).toBe(false);
  });

  it.each([
    ['digits without a unit', '1'.repeat(LONG), false],
    ['units then a stray letter', `${'1m'.repeat(LONG / 2)}x`, false],
    ['units', '1m '.repeat(LONG / 3).trimEnd(), true],
    ['expression starts without an end', '<+'.repeat(LONG / 2), false],
    ['expressions asking for execution input', `${'<+a>'.repeat(LONG / 4)}.executionInput()`, false],
    ['expressions', '<+a>'.repeat(LONG / 4), true],
  ])('answers on %s (100,000 characters)', (_, text, verdict) => {
    expect(DURATION_PATTERN.test(text)).toBe(verdict);
  });
});

describe("a Number variable's value as text", () => {
  const SCHEMA_PATTERN = /(^[+-]?[0-9]*\.?[0-9]+$)|(<\+.+>.*)|^$/;
  const accepted = (value: string) => pipelineVariable.safeParse({ name: 'n', type: 'Number', value }).success;

  it('accepts what the schema pattern accepts', () => {
    const pieces = ['1', '0', '.', '+', '-', '<+', '<', '>', 'x', '\n', '\r', '\u2029'];
    sameVerdicts(pieces, (text) => SCHEMA_PATTERN.test(text), accepted);
    for (const ok of ['12', '-1.5', '.5', '', '<+pipeline.variables.n>', 'x<+a>']) expect(accepted(ok)).toBe(true);
    for (const bad of ['1.', '1.2.3', 'ten', '<+>', '<+\n>']) expect(accepted(bad)).toBe(false);
  });

  it.each([
    ['digits then a letter', `${'1'.repeat(LONG)}x`, false],
    ['expression starts without an end', '<+'.repeat(LONG / 2), false],
    ['expression starts, then an end', `${'<+'.repeat(LONG / 2)}>`, true],
  ])('answers on %s (100,000 characters)', (_, text, verdict) => {
    expect(accepted(text)).toBe(verdict);
  });
});

describe('a JSON Web Token in a literal', () => {
  const BEFORE = /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/;
  const warnings = (script: string) =>
    buildAndValidate([
      {
        resource: pipeline({ identifier: 'p', project: 'x' })
          .stage(stage({ identifier: 's', type: 'Custom' }))
          .step(shell({ identifier: 'run', script })),
        file: 'test/linear-regexes.test.ts',
        exportName: 'p',
      },
    ]).diagnostics.filter((d) => d.message.includes('JSON Web Token'));
  const TOKEN = `eyJ${'a'.repeat(12)}.eyJ${'b'.repeat(12)}.${'c'.repeat(12)}`;

  it('is found where the pattern found it, and shown by its first characters', () => {
    const ten = 'A'.repeat(10);
    const pieces = ['eyJ', ten, 'A', '-', '_', '.', ' ', 'x'];
    fc.assert(
      fc.property(textOf(pieces, 10), (text) => {
        expect(warnings(text).length).toBe(BEFORE.test(text) ? 1 : 0);
      }),
      { numRuns: 300 },
    );
    expect(warnings(`token x-${TOKEN}`)[0]!.message).toContain('(eyJa…)');
    expect(warnings(`token ${TOKEN.replace('.eyJ', '.eJ')}`)).toEqual([]);
  });

  it.each([
    ['token starts joined by dashes', 'eyJ-'.repeat(LONG / 4), 0],
    ['token starts joined by dashes, then a token', `${'eyJ-'.repeat(LONG / 4)} ${TOKEN}`, 1],
    ['token starts and dots', `${'eyJ-'.repeat(LONG / 8)}.${'eyJ-'.repeat(LONG / 8)}`, 0],
  ])('answers on %s (100,000 characters)', (_, text, count) => {
    expect(warnings(text)).toHaveLength(count);
  });
});

describe("an imported identifier's variable name", () => {
  // variableName as it was (its reserved words aside: the pieces below spell none).
  const BEFORE = (identifier: string) => {
    const camel = identifier.replace(/_+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^_+/, '');
    return /^[A-Za-z_$][\w$]*$/.test(camel) ? camel : `pipeline${camel.replace(/[^\w$]/g, '_')}`;
  };
  const AFTER = (identifier: string) => variableName(identifier, 'pipeline');

  it('is the same camel case as before', () => {
    sameVerdicts(['_', '__', 'a', 'B', '1', '$', '-'], BEFORE, AFTER);
    expect(AFTER('deploy__to_prod')).toBe('deployToProd');
    expect(AFTER('a_-b')).toBe('pipelinea__b');
  });

  it('answers on underscores without a letter after them (100,000 characters)', () => {
    expect(AFTER(`a${'_'.repeat(LONG)}-`)).toBe(`pipelinea${'_'.repeat(LONG)}_`);
  });
});

describe("a grouped diagnostic's places", () => {
  const BEFORE = (place: string) => place.replace(/\b[\w ]+? "((?:[^"\\]|\\.)*)"/g, '$1');
  const placesOf = (places: string[]) => {
    const diagnostic: Diagnostic = { code: 'usage', severity: 'error', message: 'm', path: [], count: 1, places };
    return /\(in 1 places: (.*)\) \[/s.exec(formatDiagnostic(diagnostic))![1]!;
  };

  it('drop their kind words as before', () => {
    const pieces = ['stage', ' ', '"', 'x', '\\', '>', '\n', '_'];
    sameVerdicts(pieces, BEFORE, (place) => placesOf([place]));
    expect(placesOf(['pipeline "p" > stage "s" > step "a \\" b"'])).toBe('p > s > a \\" b');
  });

  it('answer on a long run of words without a quote (100,000 characters)', () => {
    const place = `${'word '.repeat(LONG / 5)}"`;
    expect(placesOf([place])).toBe(place);
  });
});

describe('a stack line', () => {
  const BEFORE = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)\)?$/;
  const before = (text: string) => {
    const match = BEFORE.exec(text.trim());
    return match ? `${match[1]}:${match[2]}:${match[3]}` : undefined;
  };

  it('names the same place as before', () => {
    const pieces = ['at ', 'f ', '(', ')', '/a.js', 'file:///b.ts', ':', '1', '12', ' ', 'x'];
    sameVerdicts(pieces, before, (text) => frameOf(text)?.written);
    expect(frameOf('    at run (file:///p/a.js:3:7)')).toMatchObject({ file: '/p/a.js', line: 3, column: 7 });
  });

  it('answers on a long line of numbers without a place (100,000 characters)', () => {
    expect(frameOf(`${':1'.repeat(LONG / 2)}x`)).toBeUndefined();
    expect(frameOf(`at ${'a:1'.repeat(LONG / 3)}:2:3`)?.line).toBe(2);
  });
});
