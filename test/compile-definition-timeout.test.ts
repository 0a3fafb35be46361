import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeIn } from './support/cli.js';

/**
 * A definition that never returns is stopped at the limit (`definitionTimeout`, `--definition-timeout`): named in a
 * progress line while it runs, then a `definition-timeout` error naming the file and how to raise the limit, exit 1.
 */

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-timeout-')));
afterEach(async () => cleanup());

const GOOD = `import { project } from 'pipewright';
export const web = project({ identifier: 'web' });
`;
const ENDLESS = `import { project } from 'pipewright';
export const stuck = project({ identifier: 'stuck' });
while (true) {}
`;
const compile = (...args: string[]) => runCli(['compile', ...args], { cwd: dir });

describe('a definition that runs longer than the limit', () => {
  it('while (true) {} is named while it runs, then stopped: exit 1, the file, how to raise the limit', async () => {
    await writeIn(dir, 'defs/loop.ts', ENDLESS);
    const result = await compile('defs/loop.ts', '-o', 'out', '--definition-timeout', '0.6');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pipewright: still evaluating defs/loop.ts after 0.3 s (stopped at 0.6 s');
    expect(result.stderr).toContain('evaluating defs/loop.ts did not finish within 0.6 s and was stopped');
    expect(result.stderr).toContain('--definition-timeout <seconds>, or definitionTimeout in pipewright.config.ts');
    expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('the limit comes from pipewright.config.ts too; --keep-going skips the endless file and writes the rest', async () => {
    await writeIn(dir, 'defs/loop.ts', ENDLESS);
    await writeIn(dir, 'defs/web.ts', GOOD);
    await writeIn(
      dir,
      'pipewright.config.ts',
      `import { defineConfig } from 'pipewright';\nexport default defineConfig({ include: ['defs/*.ts'], definitionTimeout: 2 });\n`,
    );
    const result = await compile('--keep-going', '--json');
    expect(result.code).toBe(1);
    const envelope = JSON.parse(result.stdout) as {
      skipped: Array<{ source: string }>;
      compiled: Array<{ name: string }>;
      diagnostics: Array<{ code: string }>;
    };
    expect(envelope.diagnostics.map((d) => d.code)).toContain('definition-timeout');
    expect(envelope.skipped.map((s) => s.source)).toEqual(['defs/loop.ts']);
    expect(envelope.compiled.map((d) => d.name)).toEqual(['default/web']);
  });

  it('holds in worker batches too (large projects): the pool stops the batch, names the file, writes nothing', async () => {
    await writeIn(dir, 'defs/a-web.ts', GOOD);
    await writeIn(dir, 'defs/b-loop.ts', ENDLESS);
    // One entry file per worker batch: the path a project of 2,000 entry files or more takes.
    const result = await runCli(['compile', 'defs/*.ts', '-o', 'out', '--definition-timeout', '1'], {
      cwd: dir,
      env: { PIPEWRIGHT_BATCH_SIZE: '1' },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pipewright: still evaluating defs/b-loop.ts after 0.5 s (stopped at 1 s');
    expect(result.stderr).toContain('evaluating defs/b-loop.ts did not finish within 1 s and was stopped');
    expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    // The negative: the same batches without the endless file compile.
    await writeIn(dir, 'defs/b-loop.ts', GOOD.replace(/web/g, 'shop'));
    const fine = await runCli(['compile', 'defs/*.ts', '-o', 'out', '--definition-timeout', '1'], {
      cwd: dir,
      env: { PIPEWRIGHT_BATCH_SIZE: '1' },
    });
    expect(fine.code, fine.stderr).toBe(0);
  });

  it('a definition that finishes is untouched, and the limit must be a number of seconds', async () => {
    await writeIn(dir, 'defs/web.ts', GOOD);
    expect((await compile('defs/web.ts', '-o', 'out', '--definition-timeout', '30')).code).toBe(0);
    const bad = await compile('defs/web.ts', '-o', 'out', '--definition-timeout', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected a number of seconds (0 or more), got "soon"');
  });
});
