import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { importYaml } from '../src/import/import-yaml.js';
import { tempDir } from './support/cli.js';

/**
 * Import writes its modules in the style of the repository it writes into (its prettier configuration), so an
 * imported or pulled estate passes the repository's own `prettier --check`; where there is none, in its own.
 */
const PIPELINE = `pipeline:
  name: Build and ship
  identifier: build_and_ship
  orgIdentifier: default
  projectIdentifier: shop
  stages:
    - stage:
        name: Build
        identifier: build
        type: Custom
        spec:
          execution:
            steps:
              - step:
                  type: ShellScript
                  name: Say hello to everyone who reads the logs of this long step
                  identifier: hello
                  timeout: 10m
                  spec:
                    shell: Bash
                    onDelegate: true
                    source:
                      type: Inline
                      spec:
                        script: echo "it's here"
`;

async function importedModules(dir: string, mode: 'files' | 'project'): Promise<Array<{ path: string; text: string }>> {
  const out = join(dir, 'estate');
  const result = await importYaml({ inputs: [{ file: 'ship.yaml', text: PIPELINE }], outDir: out, mode });
  const modules = result.written.filter((path) => path.endsWith('.ts'));
  expect(modules.length).toBeGreaterThan(0);
  return Promise.all(
    modules.map(async (path) => ({ path: join(out, path), text: await readFile(join(out, path), 'utf8') })),
  );
}

describe("import formats in the repository's style", () => {
  it.each(['files', 'project'] as const)(
    "a repository's .prettierrc (double quotes, no semicolons, width 100) passes its own check (%s mode)",
    async (mode) => {
      const { dir, cleanup } = await tempDir('pipewright-import-style-');
      try {
        await writeFile(join(dir, '.prettierrc'), '{ "singleQuote": false, "semi": false, "printWidth": 100 }\n');
        const modules = await importedModules(dir, mode);
        for (const { path, text } of modules) {
          const options = await prettier.resolveConfig(path);
          expect(options).toMatchObject({ singleQuote: false, semi: false });
          expect(await prettier.check(text, { ...options, filepath: path }), path).toBe(true);
        }
        const pipeline = modules.find((module) => module.text.includes('pipeline('))!.text;
        expect(pipeline).toContain('"build_and_ship"');
        expect(pipeline).not.toMatch(/;\n/);
      } finally {
        await cleanup();
      }
    },
    120_000,
  );

  it('without a configuration, writes its own style (single quotes, semicolons): the negative of the rule', async () => {
    const { dir, cleanup } = await tempDir('pipewright-import-style-');
    try {
      const modules = await importedModules(dir, 'files');
      const pipeline = modules.find((module) => module.text.includes('pipeline('))!.text;
      expect(pipeline).toContain("'build_and_ship'");
      expect(pipeline).toMatch(/;\n/);
    } finally {
      await cleanup();
    }
  }, 120_000);
});
