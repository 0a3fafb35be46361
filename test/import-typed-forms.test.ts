import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importYaml } from '../src/import/import-yaml.js';
import { ROOT } from './support/cli.js';

/**
 * Shapes real documents have that once fell back to `connector()`, `step()`, `stage()` or `raw.*` although a
 * typed builder reproduces them, and the fallbacks that stay because the platform refuses the typed form.
 */
let dir: string;
beforeEach(async () => void (dir = await mkdtemp(join(tmpdir(), 'pipewright-typed-forms-'))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

async function importFixture(name: string) {
  const text = await readFile(join(ROOT, 'test/fixtures/import', name), 'utf8');
  const result = await importYaml({ inputs: [{ file: name, text }], outDir: dir, mode: 'files' });
  const code = Object.fromEntries(
    await Promise.all(result.written.filter((f) => f.endsWith('.ts')).map(async (f) => [f, await readFile(join(dir, f), 'utf8')] as const)),
  );
  const fallbacks = result.diagnostics.filter((d) => d.code === 'import-fallback').map((d) => d.message);
  return { code, fallbacks };
}

describe('typed connectors', () => {
  it('writes catalogue connectors with their builder, an empty description as null', async () => {
    const { code, fallbacks } = await importFixture('connectors-typed.yaml');
    expect(fallbacks).toEqual([]);
    const github = Object.entries(code).find(([f]) => f.includes('acmegithub'))![1];
    expect(github).toMatch(/connectors\.github\(\{\n\s+identifier: 'acmegithub',\n\s+name: 'acme github',\n\s+description: null,/);
    expect(github).toContain('executeOnDelegate: false');
    expect(github).toContain("type: 'Account'");
    const charts = Object.entries(code).find(([f]) => f.includes('charts'))![1];
    expect(charts).toMatch(/connectors\.httpHelmRepo\(\{/);
  }, 120_000);
});
