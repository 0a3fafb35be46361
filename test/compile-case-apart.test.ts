import { readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathsApartInCase } from '../src/compile/case-apart.js';
import { pipeline, project, shell, stage } from '../src/index.js';
import { synth } from '../src/testing/synth.js';
import { runCli, tempDir, writeIn } from './support/cli.js';
import { publishWith } from './support/emulator-run.js';
import { startEmulator } from './support/emulator.js';

// Pipelines `ci` and `CI` of one project are two resources to the platform, but `ci.yaml` and `CI.yaml` are one
// file on macOS and Windows: compile sets such paths apart, the same way on every machine.

describe('paths that differ only in case', () => {
  it('keep the layout path for the one that sorts first; each other gets the first free -2, -3', () => {
    expect(pathsApartInCase(['p/ci.yaml', 'p/CI.yaml', 'p/build.yaml'])).toEqual(
      new Map([['p/ci.yaml', 'p/ci-2.yaml']]),
    );
    expect(pathsApartInCase(['p/ci.yaml', 'p/Ci.yaml', 'p/CI.yaml'])).toEqual(
      new Map([
        ['p/Ci.yaml', 'p/Ci-2.yaml'],
        ['p/ci.yaml', 'p/ci-3.yaml'],
      ]),
    );
  });

  it('leave every path alone when none collide, Web/ci.yaml beside web/CI.yaml included', () => {
    expect(pathsApartInCase(['pipelines/o/Web/ci.yaml', 'pipelines/o/web/build.yaml', 'projects/o/web.yaml'])).toEqual(
      new Map(),
    );
  });

  it('never take another output path, whatever its case (a version label may hold a -)', () => {
    const versions = ['templates/o/p/t/V1.yaml', 'templates/o/p/t/v1.yaml', 'templates/o/p/t/V1-2.yaml'];
    expect(pathsApartInCase(versions)).toEqual(new Map([['templates/o/p/t/v1.yaml', 'templates/o/p/t/v1-3.yaml']]));
  });

  it('depend on the set of paths alone, not on their order', () => {
    const paths = ['a/x.yaml', 'a/X.yaml', 'b/Y.yaml', 'b/y.yaml', 'a/X-2.yaml'];
    expect(pathsApartInCase([...paths].reverse())).toEqual(pathsApartInCase(paths));
  });

  it('are set apart by synth as by compile', () => {
    const web = project({ identifier: 'web' });
    const of = (id: string) =>
      pipeline({ identifier: id, project: web })
        .stage(stage({ identifier: 's', type: 'Custom', spec: {} }))
        .step(shell({ identifier: 'run', script: 'echo hi', timeout: '5m' }));
    const { documents, diagnostics } = synth([web, of('ci'), of('CI')]);
    expect(diagnostics).toEqual([]);
    expect(documents.map((d) => d.path)).toEqual([
      'projects/default/web.yaml',
      'pipelines/default/web/ci-2.yaml',
      'pipelines/default/web/CI.yaml',
    ]);
  });
});

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('pipewright-case-'));
  await writeIn(
    dir,
    'pipewright.config.ts',
    `import { defineConfig } from 'pipewright';\nexport default defineConfig({ include: ['defs/*.ts'], outDir: 'out' });\n`,
  );
  await writeIn(
    dir,
    'defs/project.ts',
    `import { project } from 'pipewright';\nexport const web = project({ identifier: 'web' });\n`,
  );
  await writeIn(dir, 'defs/lower.ts', pipelineFile('ci', 'lower'));
});
afterEach(async () => cleanup());

function pipelineFile(id: string, exportName: string): string {
  return `import { pipeline, shell, stage } from 'pipewright';
import { web } from './project.js';
export const ${exportName} = pipeline({ identifier: '${id}', project: web })
  .stage(stage({ identifier: 's', type: 'Custom', spec: {} }))
  .step(shell({ identifier: 'run', script: 'echo hi', timeout: '5m' }));
`;
}

const compile = (...args: string[]) => runCli(['compile', ...args], { cwd: dir });
const manifest = async () =>
  (
    JSON.parse(await readFile(join(dir, 'out/manifest.json'), 'utf8')) as {
      files: Array<{ file: string; identifier: string }>;
    }
  ).files;
const yamlFiles = async () =>
  (await readdir(join(dir, 'out'), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && e.name.endsWith('.yaml'))
    .map((e) => relative(join(dir, 'out'), join(e.parentPath, e.name)))
    .sort();
const identifierIn = async (file: string) =>
  /\n {2}identifier: (\w+)\n/.exec(await readFile(join(dir, 'out', file), 'utf8'))?.[1];

describe('compile of two pipelines whose identifiers differ only in case', () => {
  it('writes both, apart in case, and lists each in the manifest at its file; publish --dry-run plans both', async () => {
    await writeIn(dir, 'defs/upper.ts', pipelineFile('CI', 'upper'));
    expect(await compile()).toMatchObject({
      code: 0,
      stderr: '',
      stdout: 'compiled 3 documents to out: 4 written, 0 unchanged, 0 removed\n',
    });
    expect(await yamlFiles()).toEqual([
      'pipelines/default/web/CI.yaml',
      'pipelines/default/web/ci-2.yaml',
      'projects/default/web.yaml',
    ]);
    expect((await manifest()).map((e) => [e.file, e.identifier])).toEqual([
      ['projects/default/web.yaml', 'web'],
      ['pipelines/default/web/CI.yaml', 'CI'],
      ['pipelines/default/web/ci-2.yaml', 'ci'],
    ]);
    expect(await identifierIn('pipelines/default/web/ci-2.yaml')).toBe('ci');
    expect(await identifierIn('pipelines/default/web/CI.yaml')).toBe('CI');
    expect(await compile('--check')).toMatchObject({ code: 0, stdout: 'out is up to date (3 documents)\n' });
    const em = await startEmulator();
    try {
      const dry = await publishWith({ emulator: em, args: [join(dir, 'out'), '--dry-run', '--json'] });
      const planned = (JSON.parse(dry.stdout) as { documents: Array<{ kind: string; identifier: string }> }).documents;
      expect(
        planned
          .filter((d) => d.kind === 'pipeline')
          .map((d) => d.identifier)
          .sort(),
      ).toEqual(['CI', 'ci']);
    } finally {
      await em.stop();
    }
  }, 60_000);

  it('moves an output when a collision comes or goes, also one kept from a file not compiled, and says why', async () => {
    expect((await compile()).code).toBe(0);
    expect(await yamlFiles()).toEqual(['pipelines/default/web/ci.yaml', 'projects/default/web.yaml']);
    // CI sorts before ci: compiling only the new file moves the kept output of lower.ts, whose text it carries.
    await writeIn(dir, 'defs/upper.ts', pipelineFile('CI', 'upper'));
    const added = await compile('defs/upper.ts');
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toContain(
      'removed  pipelines/default/web/ci.yaml  (its resource is now written to pipelines/default/web/ci-2.yaml)',
    );
    expect(await yamlFiles()).toEqual([
      'pipelines/default/web/CI.yaml',
      'pipelines/default/web/ci-2.yaml',
      'projects/default/web.yaml',
    ]);
    expect(await identifierIn('pipelines/default/web/ci-2.yaml')).toBe('ci');
    // The same folder as a compile of the whole project writes.
    expect(await compile('--check')).toMatchObject({ code: 0, stdout: 'out is up to date (3 documents)\n' });
    // Twice: the second finds each output as the first left it, and records its stat, so the next need not read it.
    for (let i = 0; i < 2; i++)
      expect(await compile()).toMatchObject({
        code: 0,
        stdout: 'compiled 3 documents to out: 0 written, 4 unchanged, 0 removed\n',
      });
    // The collision goes: ci, reused from the cache (its file not read), moves back to its layout path.
    await rm(join(dir, 'defs/upper.ts'));
    const removed = await compile();
    expect(removed).toMatchObject({ code: 0, stderr: '' });
    expect(removed.stdout).toContain(
      'removed  pipelines/default/web/ci-2.yaml  (its resource is now written to pipelines/default/web/ci.yaml)',
    );
    expect(await yamlFiles()).toEqual(['pipelines/default/web/ci.yaml', 'projects/default/web.yaml']);
    expect(await identifierIn('pipelines/default/web/ci.yaml')).toBe('ci');
    expect((await manifest()).map((e) => e.file)).toEqual([
      'projects/default/web.yaml',
      'pipelines/default/web/ci.yaml',
    ]);
  }, 60_000);
});
