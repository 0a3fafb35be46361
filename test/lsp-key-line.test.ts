import { describe, expect, it } from 'vitest';
import { isBlankOrComment, keyLine, valueOf } from '../src/lsp/key-line.js';

/** The scan that reads a line's indentation, dash, key and value for hovers and completions (issue 38). */
describe('keyLine: a line of block YAML read by a scan', () => {
  it('reads the indentation, the list dash, the key, its colon and the value', () => {
    const shape = keyLine('    - type: ShellScript  # a step');
    expect(shape).toEqual({ indent: 4, dash: 4, keyStart: 6, key: 'type', colon: 10, rest: 'ShellScript  # a step' });
    expect(valueOf(shape)).toBe('ShellScript');
    expect(keyLine('  "quoted key" : x')).toMatchObject({ keyStart: 2, key: 'quoted key', colon: 15 });
    expect(keyLine("  'single': x")).toMatchObject({ key: 'single' });
  });

  it('finds no key where the old patterns found none', () => {
    // A colon not followed by a blank, a comment before the colon, a dash without a blank, a quote not closed.
    expect(keyLine('  url:http://x').key).toBeUndefined();
    expect(keyLine('  a # b: c').key).toBeUndefined();
    expect(keyLine('  -a: b')).toMatchObject({ key: '-a' });
    expect(keyLine('  -a: b').dash).toBeUndefined();
    expect(keyLine('  "open: x').key).toBeUndefined();
    expect(keyLine('  : x').key).toBeUndefined();
    expect(keyLine('  - plain item').key).toBeUndefined();
    // Before the cursor, anything may follow the colon (`type:Sh|`).
    expect(keyLine('  type:Sh', 'any')).toMatchObject({ key: 'type', rest: 'Sh' });
  });

  it('gives no value for a key with nothing or only a comment after it', () => {
    expect(valueOf(keyLine('  spec:'))).toBeUndefined();
    expect(valueOf(keyLine('  spec:   # later'))).toBeUndefined();
  });

  it('tells blank and comment lines from content', () => {
    expect(isBlankOrComment(' \t ')).toBe(true);
    expect(isBlankOrComment('   # note')).toBe(true);
    expect(isBlankOrComment('   a: b')).toBe(false);
  });

  it('reads pathological lines of 100,000 characters (each character a bounded number of times)', () => {
    const n = 100_000;
    expect(keyLine(`a${' '.repeat(n)}x`).key).toBeUndefined();
    expect(keyLine(`a${' '.repeat(n)}: x`)).toMatchObject({ key: 'a', colon: n + 1 });
    expect(valueOf(keyLine(`k: v${' '.repeat(n)}x`))).toBe(`v${' '.repeat(n)}x`);
    expect(keyLine('- '.repeat(n / 2))).toMatchObject({ dash: 0, keyStart: 2 });
    expect(keyLine(' '.repeat(n)).key).toBeUndefined();
  });
});
