import { existsSync } from 'node:fs';
import { mkdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputSetDoc, pipelineDoc, projectDoc, templatedPipelineDoc } from './support/emulator-output.js';
import { ROOT } from './support/cli.js';
import { assertNoKey, emulatorsPerTest, FAST_RETRIES, runBinary } from './support/emulator-run.js';
import { seedDocuments } from './support/emulator-seed.js';
import { ACCOUNT_ID, ADMIN_KEY, type Emulator } from './support/emulator.js';

/**
 * A pulled project is ready: package.json (pipewright pinned to the version that wrote it), tsconfig.json and
 * .gitignore are written where it has none and never replaced; and what the platform holds but pipewright refuses
 * (an input set whose values are no longer runtime inputs of its pipeline) is written so that the project compiles,
 * the finding kept as a suppression with its reason, said by pull and in the module.
 */

const session = emulatorsPerTest('pipewright-pull-ready-');

const env = (em: Emulator) => ({
  HARNESS_API_KEY: ADMIN_KEY,
  HARNESS_ACCOUNT_ID: ACCOUNT_ID,
  HARNESS_BASE_URL: em.url,
  ...FAST_RETRIES,
});

async function pull(em: Emulator, args: readonly string[] = []) {
  const result = await runBinary(['pull', '-o', 'platform', ...args], { cwd: session.work, env: env(em) });
  assertNoKey(result);
  return result;
}

const writesOf = (em: Emulator, from = 0) =>
  em.requests.slice(from).filter((r) => r.method !== 'GET' && !/\/list(-metadata|V2)?\b/.test(r.path));

const ownVersion = async () =>
  (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Report {
  files: Array<{ path: string; outcome: string }>;
  held: Array<{ kind: string; name: string; file: string; code: string; messages: string[] }>;
  diagnostics: Array<{ code: string; message: string; file?: string }>;
}

describe('pull writes a ready project', () => {
  it('writes package.json with pipewright pinned, tsconfig.json over the pulled folders and .gitignore, when absent', async () => {
    const em = await session.emulate();
    seedDocuments(em, [projectDoc('shop'), pipelineDoc('deploy', 'shop')]);
    const pulled = await pull(em, ['--json']);
    expect(pulled.code).toBe(0);
    const project = join(session.work, 'platform');
    const report = JSON.parse(pulled.stdout) as Report;
    for (const file of ['package.json', 'tsconfig.json', '.gitignore'])
      expect(report.files.find((f) => f.path === file)?.outcome, file).toBe('created');
    const pkg = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
      name: string;
      dependencies: Record<string, string>;
      scripts: Record<string, string>;
    };
    // Pinned, not a range: `npx pipewright` there runs the version whose import wrote the modules.
    expect(pkg.dependencies.pipewright).toBe(await ownVersion());
    expect(pkg.name).toBe('platform');
    expect(pkg.scripts.build).toBe('pipewright compile');
    expect(pkg.scripts['publish:platform']).toBe('pipewright publish');
    // init's compiler options, over every folder pull writes modules into.
    const tsconfig = JSON.parse(await readFile(join(project, 'tsconfig.json'), 'utf8')) as {
      compilerOptions: Record<string, unknown>;
      include: string[];
    };
    const initTsconfig = JSON.parse(await readFile(join(ROOT, 'templates/default/tsconfig.json'), 'utf8')) as {
      compilerOptions: Record<string, unknown>;
    };
    expect(tsconfig.compilerOptions).toEqual(initTsconfig.compilerOptions);
    expect(tsconfig.include).toEqual(expect.arrayContaining(['pipewright.config.ts', 'projects', 'pipelines']));
    const gitignore = await readFile(join(project, '.gitignore'), 'utf8');
    expect(gitignore).toBe(await readFile(join(ROOT, 'templates/default/_gitignore'), 'utf8'));
    expect(gitignore).toContain('\n.pipewright-pull-stage/\n');
    // The project's own files, not pull's: its state does not list them, so a later pull never takes them over.
    const state = JSON.parse(await readFile(join(project, 'pipewright.pull.json'), 'utf8')) as {
      files: Record<string, string>;
    };
    expect(Object.keys(state.files)).not.toContain('package.json');
    expect(Object.keys(state.files)).toContain('pipelines/default/shop/deploy.ts');
    // Pulled again, after the user changed them: left as they are, and not reported.
    await writeFile(join(project, 'package.json'), '{ "name": "mine" }\n');
    await writeFile(join(project, '.gitignore'), 'node_modules/\n');
    const again = JSON.parse((await pull(em, ['--json'])).stdout) as Report;
    expect(again.files.filter((f) => ['package.json', 'tsconfig.json', '.gitignore'].includes(f.path))).toEqual([]);
    expect(await readFile(join(project, 'package.json'), 'utf8')).toBe('{ "name": "mine" }\n');
    expect(await readFile(join(project, '.gitignore'), 'utf8')).toBe('node_modules/\n');
  });

  it('leaves the package.json, tsconfig.json and .gitignore a folder has as they are, a link leading out included', async () => {
    const em = await session.emulate();
    seedDocuments(em, [projectDoc('shop')]);
    const project = join(session.work, 'platform');
    await mkdir(project);
    const own = { 'package.json': '{ "name": "estate", "private": true }\n', '.gitignore': 'dist/\n' };
    for (const [file, text] of Object.entries(own)) await writeFile(join(project, file), text);
    // A link leading out of the project, to nothing: never written through.
    await symlink(join(session.work, 'elsewhere.json'), join(project, 'tsconfig.json'));
    const pulled = await pull(em, ['--json']);
    expect(pulled.code).toBe(0);
    const report = JSON.parse(pulled.stdout) as Report;
    expect(report.files.map((f) => f.path)).not.toContain('package.json');
    for (const [file, text] of Object.entries(own)) expect(await readFile(join(project, file), 'utf8')).toBe(text);
    expect(await readlink(join(project, 'tsconfig.json'))).toBe(join(session.work, 'elsewhere.json'));
    expect(existsSync(join(session.work, 'elsewhere.json'))).toBe(false);
  });
});

describe('pull of what the platform holds and pipewright refuses', () => {
  /** A pipeline without runtime inputs of its own but its stage's, and an input set that sets a variable it no longer takes. */
  function seedStale(em: Emulator): void {
    seedDocuments(em, [
      projectDoc('shop'),
      pipelineDoc('deploy', 'shop'),
      inputSetDoc('stale', 'shop', 'deploy'),
      // One that fits its pipeline: nothing suppressed in it.
      templatedPipelineDoc('gated', 'shop', 'checks', 'v1'),
      inputSetDoc('eu', 'shop', 'gated'),
    ]);
  }

  it('keeps a stale input set as a suppression with its reason, says so, and the project compiles and publishes back with no write', async () => {
    const em = await session.emulate();
    seedStale(em);
    const pulled = await pull(em);
    expect(pulled.code).toBe(0);
    const module = 'input-sets/default/shop/deploy/stale.ts';
    // Said in the summary, and as a warning on the module.
    expect(pulled.stdout).toContain(
      `1 finding the platform holds kept as suppressions (pipewright refuses them): ${module}`,
    );
    expect(pulled.stderr).toContain(
      `platform/${module}  input set default/shop/deploy/stale is held by the platform as pipewright refuses it (input-set-not-an-input): variables.target is not a runtime input of pipeline "deploy"; kept in its module as a suppression [warning pull-held]`,
    );
    const project = join(session.work, 'platform');
    const text = await readFile(join(project, module), 'utf8');
    expect(text).toContain('// The platform holds this document as it is, though pipewright refuses it');
    expect(text).toMatch(
      /\}\)\.suppress\(\n\s*'input-set-not-an-input',\n\s*'the platform holds it so \(kept by pipewright pull\): variables\.target is not a runtime input of pipeline "deploy"',\n\s*\);\n$/,
    );
    // Nothing suppressed where nothing is refused.
    expect(await readFile(join(project, 'input-sets/default/shop/gated/eu.ts'), 'utf8')).not.toContain('suppress');
    expect(await readFile(join(project, 'pipelines/default/shop/deploy.ts'), 'utf8')).not.toContain('suppress');

    const compiled = await runBinary(['compile', '--json'], { cwd: project });
    expect(compiled.code).toBe(0);
    const diagnostics = (
      JSON.parse(compiled.stdout) as {
        diagnostics: Array<{ code: string; severity: string; suppressed?: { reason: string } }>;
      }
    ).diagnostics;
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([
      expect.objectContaining({
        code: 'input-set-not-an-input',
        suppressed: expect.objectContaining({ reason: expect.stringContaining('kept by pipewright pull') }),
      }),
    ]);
    const before = em.requests.length;
    const published = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
    assertNoKey(published);
    expect(published.code).toBe(0);
    expect((JSON.parse(published.stdout) as { counts: Record<string, number> }).counts).toEqual({
      created: 0,
      updated: 0,
      unchanged: 5,
      failed: 0,
    });
    expect(writesOf(em, before)).toEqual([]);

    // Pulled again: the same module, unchanged, and the finding listed again.
    const again = JSON.parse((await pull(em, ['--json'])).stdout) as Report;
    expect(again.files.find((f) => f.path === module)?.outcome).toBe('unchanged');
    expect(again.held).toEqual([
      {
        kind: 'inputSet',
        name: 'default/shop/deploy/stale',
        file: module,
        code: 'input-set-not-an-input',
        messages: ['variables.target is not a runtime input of pipeline "deploy"'],
      },
    ]);
  });

  it('an estate where everything fits holds nothing: no suppression, no pull-held', async () => {
    const em = await session.emulate();
    seedDocuments(em, [
      projectDoc('shop'),
      templatedPipelineDoc('gated', 'shop', 'checks', 'v1'),
      inputSetDoc('eu', 'shop', 'gated'),
    ]);
    const report = JSON.parse((await pull(em, ['--json'])).stdout) as Report;
    expect(report.held).toEqual([]);
    expect(report.diagnostics.map((d) => d.code)).not.toContain('pull-held');
  });
});
