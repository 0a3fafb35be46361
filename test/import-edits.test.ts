import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir, writeIn } from './support/cli.js';

// Import run again into the same folder keeps the modules edited by hand since the last import (it records the
// hash of each file it wrote in pipewright.import.json, as pull does in pipewright.pull.json); --force replaces
// them; a module nobody edited follows its YAML.

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-import-edits-')));
afterEach(async () => cleanup());

const pipelineYaml = (script: string) => `pipeline:
  name: deploy
  identifier: deploy
  orgIdentifier: default
  projectIdentifier: shop
  stages:
    - stage:
        name: s
        identifier: s
        type: Custom
        spec:
          execution:
            steps:
              - step:
                  type: ShellScript
                  name: run
                  identifier: run
                  timeout: 10m
                  spec:
                    shell: Bash
                    onDelegate: true
                    source:
                      type: Inline
                      spec:
                        script: ${script}
`;

const importCli = (...args: string[]) => runCli(['import', 'deploy.yaml', '-o', 'ts', ...args], { cwd: dir });
const moduleText = () => readFile(join(dir, 'ts', 'deploy.ts'), 'utf8');

describe('import into a folder it imported into before', () => {
  it('keeps a module edited by hand and says so; --force replaces it', async () => {
    await writeIn(dir, 'deploy.yaml', pipelineYaml('echo one'));
    expect((await importCli()).code).toBe(0);
    const edited = `${await moduleText()}// mine\n`;
    await writeFile(join(dir, 'ts', 'deploy.ts'), edited);
    await writeIn(dir, 'deploy.yaml', pipelineYaml('echo two'));

    const again = await importCli();
    expect(again.code, again.stderr).toBe(0);
    expect(await moduleText()).toBe(edited);
    expect(again.stdout).toContain('deploy.ts  (kept: edited by hand, --force replaces it)');
    expect(again.stderr).toMatch(/deploy\.ts was edited since the last import .*kept as it is/);
    expect(again.stderr).toContain('+ ');
    expect(again.stderr).toContain('[warning import-edited]');

    const json = JSON.parse((await importCli('--json')).stdout) as { files: Array<{ path: string; outcome: string }> };
    expect(json.files).toEqual([expect.objectContaining({ path: 'deploy.ts', outcome: 'kept' })]);

    const forced = await importCli('--force');
    expect(forced.code).toBe(0);
    expect(await moduleText()).toContain('echo two');
    expect(await moduleText()).not.toContain('// mine');
    expect(forced.stderr).toContain('[warning import-overwritten]');
  });

  it('updates a module nobody edited when its YAML changed, and leaves an unchanged one alone', async () => {
    await writeIn(dir, 'deploy.yaml', pipelineYaml('echo one'));
    expect((await importCli()).code).toBe(0);
    const same = await importCli();
    expect(same.stdout).toContain('deploy.ts  (unchanged)');
    await writeIn(dir, 'deploy.yaml', pipelineYaml('echo two'));
    const updated = await importCli();
    expect(updated.code).toBe(0);
    expect(updated.stderr).not.toContain('import-edited');
    expect(await moduleText()).toContain('echo two');
  });

  it('re-creates a module the user deleted (import writes what its YAML says)', async () => {
    await writeIn(dir, 'deploy.yaml', pipelineYaml('echo one'));
    expect((await importCli()).code).toBe(0);
    await rm(join(dir, 'ts', 'deploy.ts'));
    expect((await importCli()).code).toBe(0);
    expect(await moduleText()).toContain('echo one');
  });

  it("keeps a file it never wrote that has a module's name; a record naming paths outside touches nothing", async () => {
    await writeIn(dir, 'deploy.yaml', pipelineYaml('echo one'));
    await writeIn(dir, 'ts/deploy.ts', '// written by a person\n');
    await writeIn(dir, 'outside.txt', 'keep\n');
    await writeIn(
      dir,
      'ts/pipewright.import.json',
      JSON.stringify({ generator: 'pipewright-import', version: 1, files: { '../outside.txt': 'x', '/etc/x': 'y' } }),
    );
    const result = await importCli();
    expect(result.code).toBe(0);
    expect(await moduleText()).toBe('// written by a person\n');
    expect(await readFile(join(dir, 'outside.txt'), 'utf8')).toBe('keep\n');
  });
});
