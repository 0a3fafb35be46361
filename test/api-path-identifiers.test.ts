import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir, writeIn } from './support/cli.js';
import { API_PATH_IDENTIFIERS } from '../src/catalog/api-paths.js';
import { RESOURCE_KINDS } from '../src/catalog/kinds.js';
import { literalSiblings } from '../src/platform/endpoints.js';

describe('identifiers that collide with API paths', () => {
  it("the list check uses is the endpoint table's literal sub-paths beside {identifier}, kind by kind", () => {
    const derived = Object.fromEntries(
      RESOURCE_KINDS.map((kind) => [kind, literalSiblings(kind)]).filter(([, names]) => names!.length > 0),
    );
    expect(API_PATH_IDENTIFIERS).toEqual(derived);
  });
});

describe('validate and compile refuse them', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir()));
  afterEach(async () => cleanup());

  const fixture = async (identifier: string) =>
    (await readFile(join(ROOT, 'test/fixtures/valid/approval-harness.yaml'), 'utf8')).replace(
      'identifier: prod_release',
      `identifier: ${identifier}`,
    );

  it('validate: a pipeline v2 or list is an error with its code; v3 is fine', async () => {
    await writeIn(dir, 'v2.yaml', await fixture('v2'));
    await writeIn(dir, 'list.yaml', await fixture('list'));
    await writeIn(dir, 'v3.yaml', await fixture('v3'));
    const bad = await runCli(['validate', 'v2.yaml', 'list.yaml'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('pipeline identifier "v2" is a path of the platform\'s API');
    expect(bad.stderr).toContain('pipeline identifier "list" is a path of the platform\'s API');
    expect(bad.stderr).toContain('[error identifier-is-api-path]');
    const good = await runCli(['validate', 'v3.yaml'], { cwd: dir });
    expect(good.stderr).not.toContain('identifier-is-api-path');
    expect(good.code).toBe(0);
  });

  it('compile: a pipeline defined as v2 is refused, nothing written', async () => {
    await writeIn(
      dir,
      'defs/a.ts',
      `import { pipeline, project, shell, custom } from 'pipewright';
export const web = project({ identifier: 'web' });
export const p = pipeline({ identifier: 'v2', project: web })
  .stage(custom({ identifier: 's' }).step(shell({ identifier: 'e', script: 'echo', timeout: '1m' })));
`,
    );
    const result = await runCli(['compile', 'defs/a.ts', '-o', 'out'], { cwd: dir });
    expect(result.stderr).toContain('[error identifier-is-api-path]');
    expect(result.code).toBe(1);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});
