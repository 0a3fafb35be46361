import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rewrittenPatterns, schemaPattern } from '../src/schema/linear-patterns.js';
import { validateDocument } from '../src/check/check-document.js';
import { oneStepPipeline } from './support/fixtures.js';

// Each schema pattern that backtracks is run as a rewrite (src/schema/linear-patterns.ts). The originals are the
// specification: on generated text both give the same verdict; on 100,000 characters built to make the originals
// backtrack, the rewrites answer at all (the originals take minutes there; a regression hangs this test).

const PIECES = [
  '1',
  '0',
  '5',
  '9',
  '12',
  's',
  'm',
  'h',
  'd',
  'w',
  ' ',
  '/',
  '\n',
  '\r',
  '\u2028',
  '<+',
  '<',
  '+',
  '>',
  '<+input>',
  '.executionInput()',
  'input',
  'a',
  'Z',
  '_',
  '-',
  '.',
  '(',
  ')',
  ':',
  '\t',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((parts) => parts.join(''));

const LONG = 100_000;
const ATTACKS = [
  `10${'d111'.repeat(LONG / 4)}d>1d`,
  `${'1'.repeat(LONG)}!`,
  `${'1m '.repeat(LONG / 3)}!`,
  '<+'.repeat(LONG / 2),
  '>'.repeat(LONG),
  `<+${'>'.repeat(LONG)} `,
  `<+input>${'.executionInput()'.repeat(LONG / 17)}\n`,
  `<+${')'.repeat(LONG)}!`,
  `${'a'.repeat(LONG)}<+${' '.repeat(10)}`,
];

describe("the schema's backtracking patterns, rewritten", () => {
  const rewrites = [...rewrittenPatterns()];

  it('covers the seven patterns recheck flags in the catalogue', () => {
    expect(rewrites).toHaveLength(7);
  });

  it.each(rewrites)('%s gives the same verdict as its rewrite on generated text', (original) => {
    const before = new RegExp(original, 'u');
    const after = schemaPattern(original);
    fc.assert(
      fc.property(text, (value) => {
        expect(after.test(value)).toBe(before.test(value));
      }),
      { numRuns: 4000 },
    );
  });

  it.each(rewrites)('%s: the rewrite answers on 100,000 characters built against the original', (original) => {
    const after = schemaPattern(original);
    for (const attack of ATTACKS) expect(typeof after.test(attack)).toBe('boolean');
  });

  it('a pattern without a rewrite is run as it is', () => {
    expect(schemaPattern('^[a-z]+$').source).toBe('^[a-z]+$');
    expect(schemaPattern('^[a-z]+$').flags).toBe('u');
  });
});

describe('validate on a value built against the original', () => {
  const jenkins = (consoleLogPollFrequency: string) =>
    oneStepPipeline({
      name: 'j',
      identifier: 'j',
      type: 'JenkinsBuild',
      timeout: '10m',
      spec: { connectorRef: 'jenkins', jobName: 'build', consoleLogPollFrequency },
    });
  const findings = (value: string) =>
    validateDocument('pipeline', jenkins(value))
      .filter((d) => d.path.includes('consoleLogPollFrequency'))
      .map((d) => d.code);

  it("judges a Jenkins step's poll frequency that backtracked for minutes at once, either way", () => {
    // The original pattern took 251 s on this value at 122 characters; here it is 100,000.
    expect(findings(`10${'d111'.repeat(LONG / 4)}d>1d`)).toEqual([]);
    expect(findings(`10${'d111'.repeat(LONG / 4)}d>1d!`)).toEqual(['invalid-format']);
    expect(findings('5s')).toEqual([]);
    expect(findings('<+pipeline.variables.poll>')).toEqual([]);
  });
});
