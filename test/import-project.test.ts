import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KINDS } from '../src/catalog/kinds.js';
import { importYaml } from '../src/import/import-yaml.js';
import { readYaml } from '../src/yaml/read-yaml.js';
import { importedProject, ROOT, runCli, tempDir, writeIn, type CliResult } from './support/cli.js';

/**
 * `import --mode project` makes a project that compiles as it is: one document of every kind of the table of
 * kinds goes in, and the generated config's `include` lets compile find every module, so every document is in
 * the manifest and comes back as the same data.
 */
const FIXTURE = join(ROOT, 'test/fixtures/import-project/every-kind.yaml');

let dir: string;
let cleanup: () => Promise<void>;
let imported: CliResult;
let compiled: CliResult;
beforeAll(async () => {
  ({ dir, cleanup, imported, compiled } = await importedProject(FIXTURE));
}, 120_000);
afterAll(() => cleanup());

describe('import --mode project of every kind', () => {
  it('the fixture has one document of every kind', async () => {
    const roots = readYaml(await readFile(FIXTURE, 'utf8'), 'x').documents.map(
      (d) => Object.keys(d.value as object)[0],
    );
    expect(roots.sort()).toEqual(KINDS.map((row) => row.rootKey).sort());
  });

  it('imports them all and the generated config compiles them all', () => {
    expect(imported.code).toBe(0);
    expect(compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);
  });

  it('includes every kind folder in the config, from the table of kinds', async () => {
    const config = await readFile(join(dir, 'estate/pipewright.config.ts'), 'utf8');
    for (const row of KINDS) expect(config).toContain(`'${row.folder}/**/*.ts'`);
  });

  it('puts every document in the manifest, and each compiles back to the same data', async () => {
    const manifest = JSON.parse(await readFile(join(dir, 'estate/out/manifest.json'), 'utf8')) as {
      files: Array<{ kind: string; file: string }>;
    };
    expect(manifest.files.map((f) => f.kind).sort()).toEqual(KINDS.map((row) => row.kind).sort());
    const originals = readYaml(await readFile(FIXTURE, 'utf8'), 'x').documents.map((d) => d.value);
    const back = await Promise.all(
      manifest.files.map(
        async (f) => readYaml(await readFile(join(dir, 'estate/out', f.file), 'utf8'), f.file).documents[0]!.value,
      ),
    );
    for (const original of originals) expect(back).toContainEqual(original);
  });
});

describe('module paths in a project', () => {
  it("name the whole identity: a template's version, an input set's pipeline, an infrastructure's environment", async () => {
    const { dir: here, cleanup: done } = await tempDir();
    try {
      const scope = 'orgIdentifier: default\n  projectIdentifier: shop';
      const template = (version: string) =>
        `template:\n  identifier: checks\n  name: checks\n  ${scope}\n  versionLabel: ${version}\n  type: Step\n  spec:\n    type: Wait\n    spec:\n      duration: 1m\n`;
      const inputSet = (pipeline: string) =>
        `inputSet:\n  identifier: eu\n  name: eu\n  ${scope}\n  pipeline:\n    identifier: ${pipeline}\n`;
      const infrastructure = (environment: string) =>
        `infrastructureDefinition:\n  identifier: k8s\n  name: k8s\n  ${scope}\n  environmentRef: ${environment}\n  deploymentType: Kubernetes\n  type: KubernetesDirect\n  spec:\n    connectorRef: account.k8s\n    namespace: ns\n    releaseName: r\n`;
      // Read in an order that would have named the second of each after the first (`checks_template.ts`, `eu_2.ts`).
      const result = await importYaml({
        inputs: [
          template('v2'),
          template('v1'),
          inputSet('b'),
          inputSet('a'),
          infrastructure('prod'),
          infrastructure('dev'),
        ].map((text, i) => ({ file: `${i}.yaml`, text })),
        outDir: join(here, 'estate'),
        mode: 'project',
      });
      expect(result.modules.map((module) => module.path)).toEqual([
        'templates/default/shop/checks/v2.ts',
        'templates/default/shop/checks/v1.ts',
        'input-sets/default/shop/b/eu.ts',
        'input-sets/default/shop/a/eu.ts',
        'infrastructures/default/shop/prod/k8s.ts',
        'infrastructures/default/shop/dev/k8s.ts',
      ]);
    } finally {
      await done();
    }
  }, 120_000);
});

describe('module names that differ only in case', () => {
  it('are made apart (CI.ts and ci_pipeline.ts), and the project compiles back to both pipelines', async () => {
    const { dir: here, cleanup: done } = await tempDir();
    try {
      const pipelineYaml = (id: string) =>
        `pipeline:\n  identifier: ${id}\n  name: ${id}\n  orgIdentifier: default\n  projectIdentifier: shop\n  stages:\n    - stage:\n        identifier: s\n        name: s\n        type: Custom\n        spec:\n          execution:\n            steps:\n              - step:\n                  identifier: w\n                  name: w\n                  type: Wait\n                  spec:\n                    duration: 1m\n`;
      await writeIn(here, 'yaml/upper.yaml', pipelineYaml('CI'));
      await writeIn(here, 'yaml/lower.yaml', pipelineYaml('ci'));
      const imported = await runCli(['import', '--mode', 'project', 'yaml', '-o', 'estate'], { cwd: here });
      expect(imported.code, imported.stderr).toBe(0);
      // One file on macOS and Windows, and one module to esbuild, were they CI.ts and ci.ts.
      expect(imported.stdout).toContain('pipelines/default/shop/ci.ts');
      expect(imported.stdout).toContain('pipelines/default/shop/CI_pipeline.ts');
      const compiled = await runCli(['compile'], { cwd: join(here, 'estate') });
      expect(compiled.stdout).toContain('compiled 2 documents');
      const back = await readFile(join(here, 'estate/out/pipelines/default/shop/CI.yaml'), 'utf8');
      expect(back).toContain('identifier: CI');
      // Apart on disk too: compile writes the second of two paths equal but for case with a suffix (case-apart.ts).
      expect(await readFile(join(here, 'estate/out/pipelines/default/shop/ci-2.yaml'), 'utf8')).toContain(
        'identifier: ci',
      );
    } finally {
      await done();
    }
  }, 120_000);
});

describe('paths as the user types them', () => {
  it('imports an organization written as a placeholder with a warning, as validate takes it, under a safe folder name', async () => {
    const { dir: here, cleanup: done } = await tempDir();
    try {
      const yaml = join(here, 'p.yaml');
      await writeFile(
        yaml,
        'pipeline:\n  name: p\n  identifier: p\n  orgIdentifier: ${ORG_ID}\n  projectIdentifier: web\n  stages:\n    - stage:\n        name: s\n        identifier: s\n        type: Custom\n        spec:\n          execution:\n            steps:\n              - step:\n                  type: Wait\n                  name: w\n                  identifier: w\n                  spec:\n                    duration: 1m\n',
      );
      const imported = await runCli(['import', '--mode', 'project', yaml, '-o', 'estate'], { cwd: here });
      // The platform's schema takes any text as orgIdentifier (only the request for that scope fails), so the
      // document is imported with a warning, its folder named safely; an identifier is refused (path-attacks).
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toContain('org "${ORG_ID}" is not an identifier');
      expect(imported.stderr).toContain('[warning unsafe-identity]');
      expect(imported.stderr).not.toContain('[error unsafe-identity]');
      expect(readdirSync(join(here, 'estate', 'pipelines'))).toEqual(['__ORG_ID_']);
      expect(existsSync(join(here, 'estate', 'pipelines', '__ORG_ID_', 'web', 'p.ts'))).toBe(true);
    } finally {
      await done();
    }
  }, 120_000);
});
