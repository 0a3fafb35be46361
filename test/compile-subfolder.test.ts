import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTree, runCli, tempDir, writeIn } from './support/cli.js';

// Run in a subfolder of a project, compile (and render, publish) use the nearest pipewright config above it, as tsc
// finds tsconfig.json: the same output, byte for byte, as a compile at the project's root. The search stops at a
// repository's root (a folder holding .git).

let dir: string;
let cleanup: () => Promise<void>;
const CONFIG = `import { defineConfig } from 'pipewright';\nexport default defineConfig({ include: ['pipelines/**/*.ts'], outDir: 'out' });\n`;
const pipelineFile = (id: string) => `import { pipeline, shell, stage } from 'pipewright';
export const ${id} = pipeline({ identifier: '${id}', project: 'web' })
  .stage(stage({ identifier: 's', type: 'Custom', spec: {} }))
  .step(shell({ identifier: 'run', script: 'echo ${id}', timeout: '5m' }));
`;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('pipewright-subfolder-'));
  await mkdir(join(dir, 'repo', '.git'), { recursive: true });
  await writeIn(dir, 'repo/pipewright.config.ts', CONFIG);
  await writeIn(dir, 'repo/pipelines/build.ts', pipelineFile('build'));
  await writeIn(dir, 'repo/pipelines/team/deploy.ts', pipelineFile('deploy'));
});
afterEach(async () => cleanup());

const repo = (...parts: string[]) => join(dir, 'repo', ...parts);
const compileIn = (cwd: string, ...args: string[]) => runCli(['compile', ...args], { cwd });

describe('compile from a subfolder of the project', () => {
  it("compiles the project's include into its outDir from pipelines/ and pipelines/team/, byte for byte as from the root", async () => {
    const atRoot = await compileIn(repo());
    expect(atRoot.code, atRoot.stderr).toBe(0);
    expect(atRoot.stderr).toBe('');
    const expected = await readTree(repo('out'));
    expect(Object.keys(expected)).toContain('pipelines/default/web/deploy.yaml');
    for (const sub of [['pipelines'], ['pipelines', 'team']]) {
      await rm(repo('out'), { recursive: true });
      const result = await compileIn(repo(...sub));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe(
        `compiling from ${sub.map(() => '..').join('/')}, the folder of pipewright.config.ts\n`,
      );
      expect(await readTree(repo('out'))).toEqual(expected);
      // No output folder is made where the command was typed.
      await expect(readTree(repo(...sub, 'out'))).rejects.toThrow();
    }
  });

  it('takes entries and -o given on the command line as relative to where they were typed', async () => {
    const result = await compileIn(repo('pipelines', 'team'), 'deploy.ts', '-o', 'here');
    expect(result.code, result.stderr).toBe(0);
    const written = await readTree(repo('pipelines', 'team', 'here'));
    expect(Object.keys(written).filter((file) => file.endsWith('.yaml'))).toEqual([
      'pipelines/default/web/deploy.yaml',
    ]);
  });

  it('uses the nearest config: one in pipelines/ wins over the root one', async () => {
    await writeIn(
      dir,
      'repo/pipelines/pipewright.config.ts',
      `import { defineConfig } from 'pipewright';\nexport default defineConfig({ include: ['team/*.ts'], outDir: 'team-out' });\n`,
    );
    const result = await compileIn(repo('pipelines', 'team'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('compiling from .., the folder of pipewright.config.ts\n');
    expect(Object.keys(await readTree(repo('pipelines', 'team-out')))).toContain('pipelines/default/web/deploy.yaml');
  });

  it("never uses a config above the repository's root, and says what is missing as before", async () => {
    await writeIn(dir, 'pipewright.config.ts', CONFIG);
    await rm(repo('pipewright.config.ts'));
    const result = await compileIn(repo('pipelines'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no entries given and no pipewright.config.ts found');
    expect(result.stderr).not.toContain('compiling from');
  });

  it('render finds the compiled output beside the config from a subfolder', async () => {
    expect((await compileIn(repo())).code).toBe(0);
    const rendered = await runCli(['render', 'deploy'], { cwd: repo('pipelines', 'team') });
    expect(rendered.code, rendered.stderr).toBe(0);
    expect(rendered.stdout).toContain('echo deploy');
  });
});
