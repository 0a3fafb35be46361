import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readYaml } from '../src/yaml/read-yaml.js';
import { importedProject, ROOT, type CliResult } from './support/cli.js';

/**
 * Pipeline options that once fell back to `raw.pipeline()`: a pipeline made from a pipeline template (its
 * `templateRef` the template's builder when the template is imported) and `fixedInputsOnRerun`; and a CI stage's
 * `serviceDependencies`, which `ci()` takes. Imported in project mode, then compiled back to the same data.
 */
const FIXTURE = join(ROOT, 'test/fixtures/import-links/pipeline-template.yaml');

let dir: string;
let cleanup: () => Promise<void>;
let imported: CliResult;
let compiled: CliResult;
const estate = (path: string) => readFile(join(dir, 'estate', path), 'utf8');

beforeAll(async () => {
  ({ dir, cleanup, imported, compiled } = await importedProject(FIXTURE));
}, 120_000);
afterAll(() => cleanup());

describe('a pipeline made from a template, fixedInputsOnRerun and a CI service dependency', () => {
  it('imports every document typed, with no fallback, and compiles the project', () => {
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('(5 typed, 0 partly raw, 0 need attention)');
    expect(imported.stdout + imported.stderr).not.toContain('import-fallback');
    expect(compiled.code).toBe(0);
    expect(compiled.stdout + compiled.stderr).not.toMatch(/\berror\b/);
  });

  it("writes pipeline({ template }) with the imported template version's builder as templateRef", async () => {
    const text = await estate('pipelines/default/shop/checkout_release.ts');
    expect(text).toContain("import { releaseFlow } from '../../../templates/default/shop/release_flow/v1.js';");
    expect(text).toMatch(
      /pipeline\(\{\n\s+identifier: 'checkout_release',[^]*template: \{\n\s+templateRef: releaseFlow,\n\s+versionLabel: 'v1',\n\s+templateInputs: \{/,
    );
    expect(text).not.toMatch(/raw\.|\.stage\(/);
  });

  it('keeps a template that is not imported as text, with its git branch', async () => {
    const text = await estate('pipelines/default/shop/cart_release.ts');
    expect(text).toMatch(
      /template: \{\n\s+templateRef: 'account\.shared_release',\n\s+versionLabel: '2',\n\s+gitBranch: 'main',\n\s+\}/,
    );
  });

  it('writes fixedInputsOnRerun, and serviceDependencies as an option of ci()', async () => {
    const text = await estate('pipelines/default/shop/cart_build.ts');
    expect(text).toContain('fixedInputsOnRerun: true,');
    expect(text).toMatch(/ci\(\{\n\s+identifier: 'build',[^]*serviceDependencies: \[/);
  });

  it('compiles back to every document, each once', async () => {
    const manifest = JSON.parse(await estate('out/manifest.json')) as { files: Array<{ kind: string; file: string }> };
    const originals = readYaml(await readFile(FIXTURE, 'utf8'), 'x').documents.map((d) => d.value);
    expect(manifest.files).toHaveLength(originals.length);
    const back = await Promise.all(
      manifest.files.map(async (f) => readYaml(await estate(join('out', f.file)), f.file).documents[0]!.value),
    );
    for (const original of originals) expect(back).toContainEqual(original);
  });
});
