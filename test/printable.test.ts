import { describe, expect, it } from 'vitest';
import { printable } from '../src/core/printable.js';
import { formatDiagnostic } from '../src/core/diagnostics.js';
import { identityProblem } from '../src/catalog/identity-rules.js';
import { confinedPath } from '../src/core/confined-path.js';
import { runCli, tempDir, writeIn } from './support/cli.js';

// Text from outside reaches messages through one escaper: what would break the line or reorder the text is shown
// as an escape; what a reader reads (letters of any script, emoji) is shown as it is.

describe('printable', () => {
  it.each([
    ['a control character', 'bell\u0007', 'bell\\u0007'],
    ['an escape sequence', '\u001b[31mred', '\\u001b[31mred'],
    ['a C1 control character', 'csi\u009b', 'csi\\u009b'],
    ['a line separator', 'a\u2028b', 'a\\u2028b'],
    ['a paragraph separator', 'a\u2029b', 'a\\u2029b'],
    ['a newline', 'a\nb', 'a\\u000ab'],
    ['a right-to-left override', 'user\u202egnp.exe', 'user\\u202egnp.exe'],
    ['a left-to-right isolate', 'a\u2066b\u2069', 'a\\u2066b\\u2069'],
    ['a right-to-left mark', 'a\u200fb', 'a\\u200fb'],
    ['a lone surrogate', 'a\ud800b', 'a\\ud800b'],
    ['a lone low surrogate', 'a\udc00b', 'a\\udc00b'],
  ])('escapes %s', (_, text, shown) => {
    expect(printable(text)).toBe(shown);
  });

  it.each([
    ['ASCII', 'deploy_to-prod 1.2'],
    ['accented letters', 'déploiement'],
    ['Japanese', 'デプロイ'],
    ['Arabic letters', 'نشر'],
    ['an emoji (a surrogate pair)', 'ship 🚀'],
    ['a backslash', 'a\\u2028b'],
  ])('keeps %s as it is', (_, text) => {
    expect(printable(text)).toBe(text);
  });
});

describe('messages that show text from outside', () => {
  it('escape a file name in file:line:col', () => {
    const shown = formatDiagnostic({
      code: 'usage',
      severity: 'error',
      message: 'bad',
      path: [],
      location: { file: 'pipe\u2028lines/a\u202e.yaml', line: 2, column: 3 },
    });
    expect(shown).toContain('pipe\\u2028lines/a\\u202e.yaml:2:3');
    expect(shown).not.toMatch(/[\u2028\u202e]/);
  });

  it('escape an identifier the platform refuses, and keep its letters', () => {
    const problem = identityProblem({ kind: 'pipeline', identifier: 'é\u202e"x' })!;
    expect(problem).toContain('"é\\u202e\\"x"');
    expect(problem).not.toMatch(/\u202e/);
  });

  it('escape a path refused by the confined path', () => {
    const refused = confinedPath('/tmp/out', ['..', 'a\u2029b'].join('/'));
    expect('problem' in refused && refused.problem).toContain('a\\u2029b');
  });

  it('escape a file name in what the CLI prints', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      await writeIn(dir, 'bad\u2028name.yaml', 'pipeline:\n  identifier: 1bad\n');
      const result = await runCli(['validate', 'bad\u2028name.yaml'], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toContain('bad\\u2028name.yaml:');
      expect(result.stdout + result.stderr).not.toContain('\u2028');
    } finally {
      await cleanup();
    }
  });
});
