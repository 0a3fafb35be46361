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

/** A fixture of valid documents (test/fixtures/import), or of ones the platform refuses (import-refused/). */
async function importFixture(name: string) {
  const text = await readFile(join(ROOT, 'test/fixtures', name.includes('/') ? name : `import/${name}`), 'utf8');
  const result = await importYaml({ inputs: [{ file: name, text }], outDir: dir, mode: 'files' });
  const code = Object.fromEntries(
    await Promise.all(
      result.written
        .filter((f) => f.endsWith('.ts'))
        .map(async (f) => [f, await readFile(join(dir, f), 'utf8')] as const),
    ),
  );
  const fallbacks = result.diagnostics.filter((d) => d.code === 'import-fallback').map((d) => d.message);
  return { code, fallbacks };
}

describe('typed connectors', () => {
  it('writes catalogue connectors with their builder', async () => {
    const { code, fallbacks } = await importFixture('connectors-typed.yaml');
    expect(fallbacks).toEqual([]);
    const github = Object.entries(code).find(([f]) => f.includes('acmegithub'))![1];
    expect(github).toMatch(
      /connectors\.github\(\{\n\s+identifier: 'acmegithub',\n\s+name: 'acme github',\n\s+org: 'default',/,
    );
    expect(github).toContain('executeOnDelegate: false');
    expect(github).toContain("type: 'Account'");
    const charts = Object.entries(code).find(([f]) => f.includes('charts'))![1];
    expect(charts).toMatch(/connectors\.httpHelmRepo\(\{/);
  }, 120_000);
});

describe('connectors kept as written', () => {
  it('keeps a connector with an empty (null) description raw, saying the platform refuses it', async () => {
    const { code, fallbacks } = await importFixture('import-refused/connector-null-description.yaml');
    expect(fallbacks).toEqual([
      expect.stringMatching(
        /^written as raw\.connector\(\) in charts\.ts: description is null \(an empty `description:`\), which the platform refuses/,
      ),
    ]);
    expect(Object.values(code).join('')).toMatch(/raw\.connector\(\{[^]*description: null,/);
  }, 120_000);
});

describe('typed steps and stages', () => {
  it('writes a ShellScript without onDelegate, spec fields named type, GitOps, custom and Git-kept Deployment stages with their typed builders', async () => {
    const { code, fallbacks } = await importFixture('typed-step-and-stage-forms.yaml');
    expect(fallbacks).toEqual([]);
    const text = Object.values(code).join('\n');
    expect(text).not.toMatch(/raw\.|(?<![.\w])stage\(|(?<![.\w])step\(/);
    expect(text).toMatch(/shell\(\{\n\s+identifier: 'announce',\n\s+script: 'echo syncing',\n\s+onDelegate: null,/);
    // A spec field named `type` goes under `spec`, where the options' types take it.
    expect(text).toMatch(
      /verify\(\{\n\s+identifier: 'verify',[^]*?spec: \{\n[^}]*type: 'Rolling',\s+spec: \{\s*sensitivity: 'MEDIUM',/,
    );
    expect(text).toMatch(/policy\(\{\n\s+identifier: 'policy',[^]*?spec: \{ type: 'Custom' \}/);
    expect(text).toMatch(
      /deployment\(\{\n\s+identifier: 'sync',\n\s+deploymentType: 'Kubernetes',\n\s+gitOpsEnabled: true,/,
    );
    expect(text).toMatch(
      /deploymentMetadata: \{ environmentType: 'GenOne' \},\n\s+service: 'fn',\n\s+serviceGitBranch: 'main',/,
    );
    expect(text).toContain("environmentGitBranch: 'release'");
    expect(text).toMatch(/customDeploymentRef: \{\n?\s*templateRef: 'vm_fleet',\s*versionLabel: '1',?\s*\}/);
    expect(text).toMatch(/gitOpsClusters: \[\s*\{\s*identifier: 'incluster',\s*agentIdentifier: 'argo_agent'/);
  }, 120_000);

  it('keeps the fallbacks that are right, each saying why', async () => {
    const { fallbacks } = await importFixture('import-refused/fallbacks-that-stay.yaml');
    expect(fallbacks).toEqual([
      expect.stringMatching(
        /^written as stage\(\) in .*: the stage has no failureStrategies, which the platform requires of a Deployment stage/,
      ),
      expect.stringMatching(
        /contextType beside its step, a key the platform ignores and no builder writes: kept as written/,
      ),
      expect.stringMatching(/^written as stage\(\) in .*: deployment\(\) has no option for spec\.services$/),
    ]);
  }, 120_000);
});
