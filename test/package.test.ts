import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tempDir, writeIn } from './support/cli.js';
import { installOffline, packPipewright, writeConsumerProject, type PackedPackage } from './support/pack-install.js';

// The package as a user gets it: packed, installed from the tarball into a project of its own with no
// network (every dependency from the npm cache that the repository's `npm ci` filled), and run there.

let dir: string;
let cleanup: () => Promise<void>;
let packed: PackedPackage;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('pipewright-package-'));
  packed = await packPipewright(dir);
});
afterAll(async () => cleanup?.());

/** The installed binary, the way `npx pipewright` finds it: node_modules/.bin. */
function pipewright(project: string, args: readonly string[]) {
  return promisify(execFile)(join(project, 'node_modules', '.bin', 'pipewright'), [...args], {
    cwd: project,
    env: { ...process.env, NO_COLOR: '1', PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

const DEFINITION = `import { custom, pipeline, project, shell } from 'pipewright';

export const shop = project({ identifier: 'shop' });
export const release = pipeline({ identifier: 'release', project: shop })
  .stage(custom({ identifier: 'go' }))
  .step(shell({ identifier: 'hello', script: 'echo hello', timeout: '5m' }));
`;

const YAML = `pipeline:
  name: nightly
  identifier: nightly
  projectIdentifier: shop
  orgIdentifier: default
  stages:
    - stage:
        name: go
        identifier: go
        type: Custom
        spec:
          execution:
            steps:
              - step:
                  type: ShellScript
                  name: hello
                  identifier: hello
                  spec:
                    shell: Bash
                    onDelegate: true
                    source: { type: Inline, spec: { script: echo nightly } }
                  timeout: 5m
`;

describe('the npm package', { timeout: 240_000 }, () => {
  it('ships a LICENSE, the docs the README links to, and no source maps pointing at unshipped files', async () => {
    const files = new Set(packed.files);
    expect(files).toContain('LICENSE');
    expect(await readFile(join(ROOT, 'LICENSE'), 'utf8')).toMatch(
      /^MIT License\n\nCopyright \(c\) \d{4} the pipewright authors\n/,
    );
    for (const file of [
      'README.md',
      'package.json',
      'bin/pipewright.js',
      'dist/cli/main.js',
      'dist/index.d.ts',
      'dist/testing/index.d.ts',
      'templates/default/package.json',
    ])
      expect(files).toContain(file);
    expect(packed.files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    expect(packed.files.filter((f) => f.endsWith('.map'))).toEqual([]);
    for (const file of packed.files.filter((f) => f.endsWith('.js')))
      expect(await readFile(join(ROOT, file), 'utf8'), file).not.toContain('sourceMappingURL');

    // Every relative link of the README names a file in the package (anchors and web addresses aside).
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((l) => !/^[a-z]+:/.test(l));
    expect(links.length).toBeGreaterThan(3);
    for (const link of links) expect(files, link).toContain(posix.normalize(link));
  });

  it('installs offline without ts-morph and prettier, compiles there, and names what import needs', async () => {
    const project = join(dir, 'plain');
    await writeIn(project, 'pipelines/release.ts', DEFINITION);
    await writeConsumerProject(project, packed.tarball);
    await installOffline(project);
    expect(existsSync(join(project, 'node_modules/pipewright/dist/cli/main.js'))).toBe(true);
    // The optional peers stay out: about 26 MB a project that never imports does not download.
    expect(existsSync(join(project, 'node_modules/ts-morph'))).toBe(false);
    expect(existsSync(join(project, 'node_modules/prettier'))).toBe(false);

    const compiled = await pipewright(project, ['compile', 'pipelines/*.ts', '-o', 'out']);
    expect(compiled).toEqual({
      code: 0,
      stdout: 'compiled 2 documents to out: 3 written, 0 unchanged, 0 removed\n',
      stderr: '',
    });
    const yaml = parse(await readFile(join(project, 'out/pipelines/default/shop/release.yaml'), 'utf8'));
    expect(yaml.pipeline.stages[0].stage.spec.execution.steps[0].step).toMatchObject({
      identifier: 'hello',
      type: 'ShellScript',
    });
    expect(await pipewright(project, ['compile', 'pipelines/*.ts', '-o', 'out', '--check'])).toMatchObject({ code: 0 });

    await writeIn(project, 'nightly.yaml', YAML);
    const imported = await pipewright(project, ['import', 'nightly.yaml', '-o', 'pipelines']);
    expect(imported).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'pipewright: pipewright import needs ts-morph and prettier, which are not installed [error missing-dependency]\n' +
        '    hint: install them beside pipewright: npm install --save-dev ts-morph@^28.0.0 prettier@^3.10.1\n\n1 error\n',
    });
    // `pipewright/testing`, the package's second entry, as a user's test imports it beside `pipewright`.
    await writeIn(
      project,
      'synth.mjs',
      `import { custom, pipeline, project, shell } from 'pipewright';
import { assertNoErrors, findDocument, synth } from 'pipewright/testing';
const shop = project({ identifier: 'shop' });
const result = synth([shop, pipeline({ identifier: 'p', project: shop }).stage(custom({ identifier: 'go' })).step(shell({ identifier: 's', script: 'echo', timeout: '1m' }))]);
assertNoErrors(result);
console.log(findDocument(result, 'p').path);
`,
    );
    const synthesized = await promisify(execFile)(process.execPath, ['synth.mjs'], { cwd: project });
    expect(synthesized).toEqual({ stdout: 'pipelines/default/shop/p.yaml\n', stderr: '' });
    const typings = JSON.parse(await readFile(join(project, 'node_modules/pipewright/package.json'), 'utf8')) as {
      exports: Record<string, { types: string }>;
    };
    expect(existsSync(join(project, 'node_modules/pipewright', typings.exports['./testing']!.types))).toBe(true);

    const typechecked = await pipewright(project, ['compile', 'pipelines/*.ts', '-o', 'out', '--typecheck']);
    expect(typechecked.code).toBe(1);
    expect(typechecked.stderr).toBe(
      'pipewright: compile --typecheck needs ts-morph, which is not installed [error missing-dependency]\n' +
        '    hint: install it beside pipewright: npm install --save-dev ts-morph@^28.0.0\n\n1 error\n',
    );
  });

  it('imports YAML once ts-morph and prettier are installed beside it, and the imported module compiles', async () => {
    const project = join(dir, 'importing');
    await writeIn(project, 'nightly.yaml', YAML);
    await writeConsumerProject(project, packed.tarball, ['ts-morph', 'prettier']);
    await installOffline(project);

    const imported = await pipewright(project, ['import', 'nightly.yaml', '-o', 'pipelines']);
    expect(imported).toEqual({
      code: 0,
      stdout: 'imported 1 document into pipelines (1 typed, 0 partly raw, 0 need attention):\n  nightly.ts\n',
      stderr: '',
    });
    const code = await readFile(join(project, 'pipelines/nightly.ts'), 'utf8');
    expect(code).toContain("from 'pipewright'");

    const compiled = await pipewright(project, ['compile', 'pipelines/*.ts', '-o', 'out', '--typecheck']);
    expect(compiled).toMatchObject({ code: 0, stderr: '' });
    expect(parse(await readFile(join(project, 'out/pipelines/default/shop/nightly.yaml'), 'utf8'))).toEqual(
      parse(YAML),
    );
  });
});
