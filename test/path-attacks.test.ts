import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './support/cli.js';
import { assertNoKey, emulatorsPerTest, FAST_RETRIES, runBinary } from './support/emulator-run.js';
import { pipelineDoc, projectDoc, type Doc } from './support/emulator-output.js';
import { seedDocument, seedDocuments } from './support/emulator-seed.js';
import { ACCOUNT_ID, ADMIN_KEY, type Emulator } from './support/emulator.js';

/**
 * Identifiers are data, never paths: YAML and platform answers whose identifiers climb out (`../../x`), name a
 * Windows device (`CON`), are longer than a file name can be, or differ only in case, given to the built binary.
 * Nothing outside the output folder is created or changed; each bad document gets its own diagnostic; the good
 * ones are written; the run exits 1, never with `unexpected error`.
 */

const CLIMB = '../../../../.github/workflows/evil';
const LONG = `p${'x'.repeat(299)}`;

/** A pipeline of project default/shop with this identifier (the emulator's own pipeline document). */
const pipelineWith = (identifier: string): Doc => {
  const doc = pipelineDoc('placeholder', 'shop') as { pipeline: Record<string, unknown> };
  return { pipeline: { ...doc.pipeline, identifier, name: 'attack' } };
};

/** Every file (and link) under `root` but those under `except`, with its bytes: what a run may not touch. */
async function snapshot(root: string, except: string): Promise<Record<string, string>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() || e.isSymbolicLink())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((path) => path !== except && !path.startsWith(`${except}/`))
    .sort();
  return Object.fromEntries(
    await Promise.all(
      files.map(async (f) => [f, await readFile(join(root, f), 'utf8').catch(() => '<link>')] as const),
    ),
  );
}

/** The files under `root`, relative, sorted. */
const listing = async (root: string) =>
  (await readdir(root, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .sort();

describe('import: identifiers from YAML are checked before they become paths', () => {
  it('refuses ../ and over-long identifiers per document, maps CON, keeps names apart in case, writes nothing outside', async () => {
    const { dir, cleanup } = await tempDir('pipewright-path-attacks-');
    try {
      await mkdir(join(dir, '.github', 'workflows'), { recursive: true });
      await writeFile(join(dir, '.github', 'workflows', 'evil.yaml'), 'kept: true\n');
      const docs: Record<string, Doc> = {
        'good.yaml': pipelineWith('good'),
        'climb.yaml': pipelineWith(CLIMB),
        'device.yaml': pipelineWith('CON'),
        'long.yaml': pipelineWith(LONG),
        'upper.yaml': pipelineWith('Ci'),
        'lower.yaml': pipelineWith('ci'),
      };
      for (const [file, doc] of Object.entries(docs)) await writeFile(join(dir, file), stringify(doc));
      const before = await snapshot(dir, 'out');

      const result = await runCli(['import', '--mode', 'project', ...Object.keys(docs), '-o', 'out'], { cwd: dir });

      expect(result.stderr).not.toContain('unexpected error');
      expect(result.code).toBe(1);
      expect(await snapshot(dir, 'out')).toEqual(before);
      // One diagnostic per refused document, naming its file.
      expect(result.stderr.match(/unsafe-identity/g)).toHaveLength(2);
      expect(result.stderr).toMatch(/climb\.yaml[^\n]*\n?[^\n]*unsafe-identity|unsafe-identity[^\n]*climb\.yaml/);
      expect(result.stderr).toContain('long.yaml');
      // The device name is mapped, and the mapping is said.
      expect(result.stderr).toMatch(/_CON~[0-9a-f]{8}\.ts[^\n]*renamed-file/);
      const written = await listing(join(dir, 'out'));
      expect(written).toContain('pipelines/default/shop/good.ts');
      expect(written.some((path) => /^pipelines\/default\/shop\/_CON~[0-9a-f]{8}\.ts$/.test(path))).toBe(true);
      // Ci and ci: two modules, apart whatever the case.
      const ci = written.filter((path) => /^pipelines\/default\/shop\/ci/i.test(path));
      expect(ci).toHaveLength(2);
      expect(new Set(ci.map((path) => path.toLowerCase())).size).toBe(2);
      expect(written.some((path) => path.includes('evil') || path.includes('xxxxxxxx'))).toBe(false);
    } finally {
      await cleanup();
    }
  });

  it('in files mode too, a climbing identifier writes nothing and the good document is written', async () => {
    const { dir, cleanup } = await tempDir('pipewright-path-attacks-');
    try {
      await writeFile(join(dir, 'climb.yaml'), stringify(pipelineWith('../x')));
      await writeFile(join(dir, 'good.yaml'), stringify(pipelineWith('good')));
      const before = await snapshot(dir, 'out');
      const result = await runCli(['import', 'climb.yaml', 'good.yaml', '-o', 'out'], { cwd: dir });
      expect(result.stderr).not.toContain('unexpected error');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('unsafe-identity');
      expect(await snapshot(dir, 'out')).toEqual(before);
      expect(await listing(join(dir, 'out'))).toEqual(['good.ts', 'pipewright.import.json']);
    } finally {
      await cleanup();
    }
  });

  it('a good import exits 0 (the negative of the rule)', async () => {
    const { dir, cleanup } = await tempDir('pipewright-path-attacks-');
    try {
      await writeFile(join(dir, 'good.yaml'), stringify(pipelineWith('good')));
      const result = await runCli(['import', 'good.yaml', '-o', 'out'], { cwd: dir });
      expect(result.stderr).not.toContain('unsafe-identity');
      expect(result.code).toBe(0);
    } finally {
      await cleanup();
    }
  });
});

const session = emulatorsPerTest('pipewright-pull-attacks-');

const env = (em: Emulator) => ({
  HARNESS_API_KEY: ADMIN_KEY,
  HARNESS_ACCOUNT_ID: ACCOUNT_ID,
  HARNESS_BASE_URL: em.url,
  ...FAST_RETRIES,
});

/** The emulator's own validation is bypassed: a compromised platform answers with whatever it likes. */
function seedHostile(em: Emulator): void {
  seedDocuments(em, [
    projectDoc('shop'),
    pipelineWith('good'),
    pipelineWith('CON'),
    pipelineWith('Ci'),
    pipelineWith('ci'),
  ]);
  for (const identifier of [CLIMB, LONG]) seedDocument(em, pipelineWith(identifier));
}

describe('pull: identifiers from the platform are checked before they become paths', () => {
  for (const force of [false, true])
    it(`writes nothing outside the project for hostile identifiers${force ? ' (--force)' : ''}, and pulls the rest`, async () => {
      const em = await session.emulate();
      seedHostile(em);
      const work = session.work;
      await mkdir(join(work, '.github', 'workflows'), { recursive: true });
      await writeFile(join(work, '.github', 'workflows', 'evil.yaml'), 'kept: true\n');
      const before = await snapshot(work, 'platform');

      const result = await runBinary(
        ['pull', '-o', 'platform', '--org', 'default', '--project', 'shop', ...(force ? ['--force'] : [])],
        { cwd: work, env: env(em) },
      );
      assertNoKey(result);

      expect(result.stderr).not.toContain('unexpected error');
      expect(result.code).toBe(1);
      expect(await snapshot(work, 'platform')).toEqual(before);
      expect(result.stderr.match(/unsafe-identity/g)).toHaveLength(2);
      const written = await listing(join(work, 'platform'));
      expect(written).toContain('pipelines/default/shop/good.ts');
      expect(written.some((path) => /^pipelines\/default\/shop\/_CON~[0-9a-f]{8}\.ts$/.test(path))).toBe(true);
      const ci = written.filter((path) => /^pipelines\/default\/shop\/ci/i.test(path));
      expect(new Set(ci.map((path) => path.toLowerCase())).size).toBe(2);
      expect(written.some((path) => path.includes('evil') || path.includes('xxxxxxxx'))).toBe(false);
      // No identifier climbs out through the pull state either.
      const state = JSON.parse(await readFile(join(work, 'platform', 'pipewright.pull.json'), 'utf8')) as {
        files: Record<string, string>;
      };
      expect(Object.keys(state.files).some((path) => path.includes('..'))).toBe(false);
    });

  it('a pull whose every identifier is the platform’s exits 0 (the negative of the rule)', async () => {
    const em = await session.emulate();
    seedDocuments(em, [projectDoc('shop'), pipelineWith('good')]);
    const result = await runBinary(['pull', '-o', 'platform', '--org', 'default', '--project', 'shop'], {
      cwd: session.work,
      env: env(em),
    });
    expect(result.stderr).not.toContain('unsafe-identity');
    expect(result.code).toBe(0);
  });
});
