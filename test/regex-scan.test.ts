import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkSync } from 'recheck';
import { glob } from 'tinyglobby';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { catalogData } from '../src/catalog/catalog.js';
import { trimEnd, trimStart } from '../src/core/trim-ends.js';
import { schemaPattern } from '../src/schema/linear-patterns.js';

// No regular expression of pipewright's backtracks: recheck (an automaton analysis with a fuzzer) judges every
// regex literal in src/ and every pattern of the platform's schema as validate runs it on users' values. A
// polynomial one is a way to stall a command with a long value read from a file or from the platform.

const ROOT = join(import.meta.dirname, '..');

/** Every regex literal of src/ (the generated catalogue holds none), with where it is. */
async function regexLiterals(): Promise<Array<{ where: string; source: string; flags: string }>> {
  const found: Array<{ where: string; source: string; flags: string }> = [];
  for (const file of (await glob('src/**/*.ts', { cwd: ROOT })).sort()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const literal = node.getText(source);
        const end = literal.lastIndexOf('/');
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push({ where: `${file}:${line}`, source: literal.slice(1, end), flags: literal.slice(end + 1) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** Every `['pattern', source]` of the catalogue: the schema's patterns, run on values by validate and compile. */
function schemaPatterns(): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (!Array.isArray(value)) {
      if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
      return;
    }
    if (value[0] === 'pattern' && typeof value[1] === 'string') found.add(value[1]);
    else value.forEach(walk);
  };
  walk(catalogData);
  return [...found].sort();
}

// A generous analysis budget: on a loaded machine the default (10 s) can end in "unknown" for a safe pattern.
const verdict = (source: string, flags: string) => {
  const result = checkSync(source, flags, { timeout: 60_000 });
  return result.status === 'vulnerable' ? `${result.status} (${result.complexity.summary})` : result.status;
};

describe('regular expressions', () => {
  it('recheck finds the quadratic pattern this scan guards against, and passes its linear rewrite', () => {
    // The negative: the form four modules used to trim slashes, and a duration parse that scans every start.
    expect(checkSync('\\/+$', '').status).toBe('vulnerable');
    expect(checkSync('(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)', 'g').status).toBe('vulnerable');
    expect(checkSync('(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h|d)\\s*', 'gy').status).toBe('safe');
    expect(trimEnd(`a${'/'.repeat(100_000)}`, '/')).toBe('a');
    expect(trimStart(trimEnd('__a_b__', '_'), '_')).toBe('a_b');
    expect(trimEnd('', '/')).toBe('');
  });

  it('every regex literal in src/ is safe', async () => {
    const literals = await regexLiterals();
    expect(literals.length).toBeGreaterThan(150);
    const unsafe = literals
      .map(({ where, source, flags }) => ({ where, source, verdict: verdict(source, flags) }))
      .filter((found) => found.verdict !== 'safe');
    expect(unsafe).toEqual([]);
  });

  it("every pattern of the platform's schema is run as a safe regex (its linear rewrite where it has one)", () => {
    const patterns = schemaPatterns();
    expect(patterns.length).toBeGreaterThan(20);
    const unsafe = patterns
      .map((source) => ({ source, verdict: verdict(schemaPattern(source).source, schemaPattern(source).flags) }))
      .filter((found) => found.verdict !== 'safe');
    expect(unsafe).toEqual([]);
  });
});
