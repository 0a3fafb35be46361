import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  connectorDoc,
  environmentDoc,
  infrastructureDoc,
  inputSetDoc,
  overlayInputSetDoc,
  pipelineDoc,
  projectDoc,
  serviceDoc,
  templateDoc,
  templatedPipelineDoc,
  triggerDoc,
  type Doc,
} from './support/emulator-output.js';
import { BIN, readTree } from './support/cli.js';
import { assertNoKey, emulatorsPerTest, FAST_RETRIES, runBinary } from './support/emulator-run.js';
import { seedDocument, seedDocuments } from './support/emulator-seed.js';
import { ACCOUNT_ID, ADMIN_KEY, type Emulator } from './support/emulator.js';
import { connectorData, projectData, resourceKey } from './support/emulator-store.js';

/**
 * `pipewright pull` against the emulator, as a user runs it: pull, then compile and publish in the pulled project.
 * Right after a pull, publish writes nothing: the round trip platform -> code -> platform is exact.
 */

const session = emulatorsPerTest('pipewright-pull-');
const { emulate } = session;

const GIT = { connectorRef: 'account.github', repoName: 'delivery', branch: 'main' };

/** One document of every kind, a template in two versions, a pipeline kept in Git, a v1 pipeline, and a page of pipelines. */
function seedEstate(em: Emulator): void {
  seedDocuments(em, [
    // `on` is a string the platform keeps as one: written unquoted it would read back as true (YAML 1.1).
    projectDoc('shop', { tags: { rollout: 'on' } }),
    connectorDoc('hub', 'shop'),
    serviceDoc('web', 'shop'),
    environmentDoc('staging', 'shop'),
    infrastructureDoc('k8s', 'shop', 'staging'),
    templateDoc('checks', 'shop', 'v1', 'make test'),
    templatedPipelineDoc('gated', 'shop', 'checks', 'v2'),
    inputSetDoc('eu', 'shop', 'gated'),
    inputSetDoc('us', 'shop', 'gated', 'us'),
    overlayInputSetDoc('both', 'shop', 'gated', ['eu', 'us']),
    triggerDoc('nightly', 'shop', 'gated', '0 4 * * *', ['eu']),
  ]);
  seedDocument(em, templateDoc('checks', 'shop', 'v2', 'make test lint'), { stable: true });
  // Several pages of pipelines (PIPEWRIGHT_LIST_PAGE_SIZE=5 below).
  for (let i = 0; i < 12; i++) seedDocument(em, pipelineDoc(`deploy_${String(i).padStart(2, '0')}`, 'shop'));
  const release = templatedPipelineDoc('release', 'shop', 'checks', 'v2');
  seedDocument(em, release, { git: { ...GIT, filePath: '.harness/release.yaml' } });
  seedDocument(em, inputSetDoc('prod', 'shop', 'release'), { git: { ...GIT, filePath: '.harness/release-prod.yaml' } });
  const trigger = triggerDoc('on_tag', 'shop', 'release');
  seedDocument(em, { trigger: { ...trigger.trigger, pipelineBranchName: 'main' } });
  seedDocument(
    em,
    { pipeline: { identifier: 'simple', name: 'simple', orgIdentifier: 'default', projectIdentifier: 'shop' } },
    {
      yamlVersion: '1',
      raw: 'version: 1\nkind: pipeline\nspec:\n  stages: []\n',
    },
  );
}

const env = (em: Emulator, key = ADMIN_KEY) => ({
  HARNESS_API_KEY: key,
  HARNESS_ACCOUNT_ID: ACCOUNT_ID,
  HARNESS_BASE_URL: em.url,
  PIPEWRIGHT_LIST_PAGE_SIZE: '5',
  ...FAST_RETRIES,
});

async function pull(em: Emulator, args: readonly string[] = [], key = ADMIN_KEY) {
  const result = await runBinary(['pull', '-o', 'platform', ...args], { cwd: session.work, env: env(em, key) });
  assertNoKey(result);
  return result;
}

const writesOf = (em: Emulator, from = 0) =>
  em.requests.slice(from).filter((r) => r.method !== 'GET' && !/\/list(-metadata|V2)?\b/.test(r.path));

/** publish --json in the project: the outcome of the document `identifier`. */
async function publishedOutcome(em: Emulator, project: string, identifier: string) {
  const result = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
  assertNoKey(result);
  return (
    JSON.parse(result.stdout) as {
      documents: Array<{ identifier: string; outcome: string; error?: { reason: string; message: string } }>;
    }
  ).documents.find((d) => d.identifier === identifier)!;
}

/** A document the platform holds inline, edited, with a gitFiles entry: publish refuses it (moving it into Git is done in the platform) and writes nothing. */
async function expectInlineWithEntryRefused(
  em: Emulator,
  project: string,
  config: string,
  edit: { module: string; from: string; entry: string },
  before: number,
) {
  const module = join(project, edit.module);
  await writeFile(module, (await readFile(module, 'utf8')).replace(edit.from, "name: 'edited'"));
  await writeFile(
    join(project, 'pipewright.config.ts'),
    config.replace(
      'gitFiles: {',
      `gitFiles: { "${edit.entry}": { connector: "account.github", repo: "delivery", branch: "main", filePath: "moved.yaml" },`,
    ),
  );
  expect((await runBinary(['compile'], { cwd: project })).code).toBe(0);
  const outcome = await publishedOutcome(em, project, edit.entry.split('/').pop()!.split('@')[0]!);
  expect(outcome).toMatchObject({ outcome: 'failed', error: { reason: 'storage mismatch' } });
  expect(outcome.error!.message).toContain('is stored inline, in the platform');
  expect(writesOf(em, before)).toEqual([]);
}

describe('pipewright pull', () => {
  // Every kind, several pages, 429s: over a minute on a loaded two-core machine.
  it('writes a project whose compile reproduces every stored document and whose publish writes nothing', async () => {
    // Occasional 429s, seeded: a rate-limit window could pass without one on a loaded machine.
    const em = await emulate({ faults: { rate: 0.1, kinds: ['too-many-requests'], seed: 3 } });
    seedEstate(em);
    const pulled = await pull(em, ['--json']);
    expect(pulled.stderr).toBe('');
    expect(pulled.code).toBe(0);
    expect(em.rateLimited).toBeGreaterThan(0);
    const report = JSON.parse(pulled.stdout) as {
      ok: boolean;
      requests: number;
      kinds: Record<string, number>;
      skipped: { name: string }[];
      stableTemplates: string[];
      diagnostics: { code: string; message: string }[];
    };
    expect(report.ok).toBe(true);
    expect(report.kinds).toEqual({
      project: 1,
      connector: 1,
      service: 1,
      environment: 1,
      infrastructure: 1,
      template: 2,
      pipeline: 14,
      inputSet: 3,
      overlayInputSet: 1,
      trigger: 2,
    });
    expect(report.skipped.map((s) => s.name)).toEqual(['default/shop/simple']);
    expect(report.stableTemplates).toEqual(['default/shop/checks@v2']);
    // Import's fallbacks are pull's too, reported the same way: the seeded Github connector's executeOnDelegate has
    // no typed option, so it is written as connector({ type, spec }).
    expect(report.diagnostics.map((d) => d.code)).toEqual(['import-fallback', 'pull-skipped']);
    // Every request pull sent reached the emulator (the 429s included), and none wrote.
    expect(report.requests).toBe(em.requests.length);
    expect(writesOf(em)).toEqual([]);
    // Pipelines are listed in a stable order, a page of 5 at a time.
    expect(
      em.requests
        .filter((r) => r.path.startsWith('/gateway/pipeline/api/pipelines/list') && r.status === 200)
        .map((r) => new URL(r.path, 'http://x').searchParams.get('sort')),
    ).toEqual(Array(3).fill('identifier,ASC'));

    const project = join(session.work, 'platform');
    const config = await readFile(join(project, 'pipewright.config.ts'), 'utf8');
    expect(config).toContain(`"pipeline:default/shop/release": {`);
    expect(config).toContain(`"inputSet:default/shop/release/prod": {`);
    // The key is in no file pull wrote.
    for (const [file, text] of Object.entries(await readTree(project)))
      expect(text.includes(ADMIN_KEY.slice(0, 12)), file).toBe(false);

    // The stable version's module says so (the platform's fact, not the YAML's); the other version's does not.
    // Each version's module is named by its version, as compile's output is: which came first changes nothing.
    const templates = await readTree(join(project, 'templates'));
    expect(Object.keys(templates)).toEqual(['default/shop/checks/v1.ts', 'default/shop/checks/v2.ts']);
    const versionModule = (label: string) => templates[`default/shop/checks/${label}.ts`]!;
    expect(versionModule('v2')).toMatch(/versionLabel: 'v2',\n\s*stable: true,\n/);
    expect(versionModule('v1')).not.toContain('stable');

    const compiled = await runBinary(['compile'], { cwd: project });
    expect(compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);
    const manifest = JSON.parse(await readFile(join(project, 'out/manifest.json'), 'utf8')) as {
      files: Array<{ file: string; stable?: true }>;
    };
    expect(manifest.files.filter((entry) => entry.stable).map((entry) => entry.file)).toEqual([
      'templates/default/shop/checks/v2.yaml',
    ]);
    // Every stored document, as data.
    for (const stored of em.store.resources.values()) {
      if (stored.yamlVersion === '1') continue;
      const row = {
        project: 'projects',
        connector: 'connectors',
        service: 'services',
        environment: 'environments',
        infrastructure: 'infrastructures',
        template: 'templates',
        pipeline: 'pipelines',
        inputSet: 'input-sets',
        overlayInputSet: 'overlay-input-sets',
        trigger: 'triggers',
      }[stored.kind];
      const file = [
        row,
        stored.org,
        ...(stored.kind === 'project' ? [] : [stored.project ?? '_']),
        ...(stored.parent ? [stored.parent] : []),
        stored.versionLabel ? `${stored.identifier}/${stored.versionLabel}` : stored.identifier,
      ].join('/');
      const value = parse(await readFile(join(project, 'out', `${file}.yaml`), 'utf8')) as Record<string, unknown>;
      const expected =
        stored.kind === 'project'
          ? projectData(stored).project
          : stored.kind === 'connector'
            ? connectorData(stored).connector
            : stored.body;
      expect(Object.values(value)[0], file).toEqual(expected);
    }

    const before = em.requests.length;
    const published = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
    assertNoKey(published);
    expect(published.code).toBe(0);
    const publishReport = JSON.parse(published.stdout) as { counts: Record<string, number>; orphans?: unknown[] };
    expect(publishReport.counts).toEqual({ created: 0, updated: 0, unchanged: 27, failed: 0 });
    expect(writesOf(em, before)).toEqual([]);
    expect(
      em.store
        .versions('default', 'shop', 'checks')
        .filter((version) => version.stable)
        .map((version) => version.versionLabel),
    ).toEqual(['v2']);
    // Drift checks start from what the platform holds.
    const drift = await runBinary(['publish', '--dry-run', '--fail-on-drift', '--json'], {
      cwd: project,
      env: env(em),
    });
    expect(drift.code).toBe(0);
    expect(drift.stderr).not.toMatch(/no record/);
  }, 120_000);

  it('a Git-stored pipeline changed in the code is published to its own repository, branch and file', async () => {
    const em = await emulate();
    seedDocuments(em, [projectDoc('shop'), pipelineDoc('inline', 'shop')]);
    seedDocument(em, pipelineDoc('release', 'shop'), {
      git: { ...GIT, branch: 'release', filePath: 'ci/release.yaml' },
    });
    seedDocument(em, pipelineDoc('other', 'shop'), { git: { ...GIT, repoName: 'tools', filePath: 'other.yaml' } });
    expect((await pull(em)).code).toBe(0);
    const project = join(session.work, 'platform');
    const module = join(project, 'pipelines/default/shop/release.ts');
    await writeFile(
      module,
      (await readFile(module, 'utf8')).replace("name: 'deploy release'", "name: 'release train'"),
    );
    expect((await runBinary(['compile'], { cwd: project })).code).toBe(0);
    const published = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
    assertNoKey(published);
    expect((JSON.parse(published.stdout) as { counts: Record<string, number> }).counts).toEqual({
      created: 0,
      updated: 1,
      unchanged: 3,
      failed: 0,
    });
    expect(em.commits.map((c) => ({ repo: c.repoName, branch: c.branch, file: c.filePath }))).toEqual([
      { repo: 'delivery', branch: 'release', file: 'ci/release.yaml' },
    ]);
    expect(em.resource('pipeline', 'default', 'shop', 'release')!.body.name).toBe('release train');
  });

  it('pulls again: rewrites only what changed, keeps a module edited by hand, reports what was deleted', async () => {
    const em = await emulate();
    seedDocuments(em, [
      projectDoc('shop'),
      pipelineDoc('a', 'shop'),
      pipelineDoc('b', 'shop'),
      pipelineDoc('c', 'shop'),
    ]);
    expect((await pull(em)).code).toBe(0);
    const project = join(session.work, 'platform');
    const module = (id: string) => join(project, 'pipelines/default/shop', `${id}.ts`);
    // b edited by hand, a and b changed on the platform, c deleted there.
    const edited = `${await readFile(module('b'), 'utf8')}// reviewed\n`;
    await writeFile(module('b'), edited);
    em.edit('pipeline', 'default', 'shop', 'a', (body) => void (body.name = 'renamed a'));
    em.edit('pipeline', 'default', 'shop', 'b', (body) => void (body.name = 'renamed b'));
    em.store.resources.delete('pipeline:default/shop/c');
    const again = await pull(em, ['--json']);
    expect(again.code).toBe(0);
    const report = JSON.parse(again.stdout) as {
      files: { path: string; outcome: string }[];
      deleted: string[];
      diagnostics: { code: string; message: string }[];
    };
    const outcome = (path: string) => report.files.find((f) => f.path === path)?.outcome;
    expect(outcome('pipelines/default/shop/a.ts')).toBe('updated');
    expect(outcome('pipelines/default/shop/b.ts')).toBe('kept');
    expect(outcome('projects/default/shop.ts')).toBe('unchanged');
    expect(report.deleted).toEqual(['pipelines/default/shop/c.ts']);
    expect(await readFile(module('a'), 'utf8')).toContain('renamed a');
    expect(await readFile(module('b'), 'utf8')).toBe(edited);
    const kept = report.diagnostics.find((d) => d.code === 'pull-edited')!;
    expect(kept.message).toContain('- // reviewed');
    expect(kept.message).toContain('renamed b');
    expect(report.diagnostics.map((d) => d.code).sort()).toEqual(['pull-deleted', 'pull-edited']);
    // --force replaces it.
    const forced = await pull(em, ['--force', '--json']);
    const forcedReport = JSON.parse(forced.stdout) as {
      files: { path: string; outcome: string }[];
      diagnostics: { code: string; message: string }[];
    };
    expect(forcedReport.files.find((f) => f.path === 'pipelines/default/shop/b.ts')?.outcome).toBe('overwritten');
    // What --force replaced is shown: the last place the edit is seen.
    const overwritten = forcedReport.diagnostics.filter((d) => d.code === 'pull-overwritten');
    expect(overwritten.map((d) => d.message.split('\n')[0])).toEqual([
      "pipelines/default/shop/b.ts was edited since the last pull: replaced with the platform's (--force)",
    ]);
    expect(overwritten[0]!.message).toContain('- // reviewed');
    expect(await readFile(module('b'), 'utf8')).toContain('renamed b');
  });

  it('follows the stable template version: moved on the platform, pulled again; moved in the code, published', async () => {
    const em = await emulate();
    seedDocuments(em, [projectDoc('shop'), templateDoc('checks', 'shop', 'v1')]);
    seedDocument(em, templateDoc('checks', 'shop', 'v2', 'make test lint'), { stable: true });
    expect((await pull(em)).code).toBe(0);
    const project = join(session.work, 'platform');
    const modules = async () => Object.entries(await readTree(join(project, 'templates')));
    const stableModules = async () =>
      (await modules())
        .filter(([, text]) => text.includes('stable: true'))
        .map(([, text]) => /versionLabel: '(\w+)'/.exec(text)![1]);
    expect(await stableModules()).toEqual(['v2']);

    // Someone makes v1 the stable one in the platform's UI: pull again moves `stable: true` with it.
    for (const version of em.store.versions('default', 'shop', 'checks'))
      version.stable = version.versionLabel === 'v1';
    const again = await pull(em, ['--json']);
    expect(again.code).toBe(0);
    const report = JSON.parse(again.stdout) as {
      stableTemplates: string[];
      files: { path: string; outcome: string }[];
    };
    expect(report.stableTemplates).toEqual(['default/shop/checks@v1']);
    expect(report.files.filter((file) => file.path.startsWith('templates/')).map((file) => file.outcome)).toEqual([
      'updated',
      'updated',
    ]);
    expect(await stableModules()).toEqual(['v1']);
    expect((await runBinary(['compile'], { cwd: project })).code).toBe(0);
    let before = em.requests.length;
    const unchanged = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
    expect((JSON.parse(unchanged.stdout) as { counts: Record<string, number> }).counts).toEqual({
      created: 0,
      updated: 0,
      unchanged: 3,
      failed: 0,
    });
    expect(writesOf(em, before)).toEqual([]);

    // The team makes v2 stable again in the code: publish makes that one call and nothing else.
    const [v1File, v1Text] = (await modules()).find(([, text]) => text.includes("versionLabel: 'v1'"))!;
    const [v2File, v2Text] = (await modules()).find(([, text]) => text.includes("versionLabel: 'v2'"))!;
    await writeFile(join(project, 'templates', v1File), v1Text.replace(/\n\s*stable: true,/, ''));
    await writeFile(
      join(project, 'templates', v2File),
      v2Text.replace("versionLabel: 'v2',", "versionLabel: 'v2',\n  stable: true,"),
    );
    expect((await runBinary(['compile'], { cwd: project })).code).toBe(0);
    before = em.requests.length;
    const moved = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
    assertNoKey(moved);
    expect((JSON.parse(moved.stdout) as { counts: Record<string, number> }).counts).toEqual({
      created: 0,
      updated: 1,
      unchanged: 2,
      failed: 0,
    });
    expect(writesOf(em, before).map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual([
      'PUT /gateway/template/api/templates/updateStableTemplate/checks/v2',
    ]);
    expect(
      em.store
        .versions('default', 'shop', 'checks')
        .filter((version) => version.stable)
        .map((version) => version.versionLabel),
    ).toEqual(['v2']);
  });

  it('pulled again into a project whose modules an older pull named otherwise, moves them: the old path goes', async () => {
    const em = await emulate();
    seedDocuments(em, [projectDoc('shop'), templateDoc('checks', 'shop', 'v1')]);
    expect((await pull(em)).code).toBe(0);
    const project = join(session.work, 'platform');
    // As an older pull named it (`checks.ts`, by reading order), with its record.
    const [now, old] = ['templates/default/shop/checks/v1.ts', 'templates/default/shop/checks.ts'];
    await writeFile(join(project, old), await readFile(join(project, now), 'utf8'));
    await rm(join(project, now));
    const statePath = join(project, 'pipewright.pull.json');
    const state = JSON.parse(await readFile(statePath, 'utf8')) as { files: Record<string, string> };
    state.files = Object.fromEntries(
      Object.entries(state.files).map(([path, hash]) => [path === now ? old : path, hash]),
    );
    await writeFile(statePath, JSON.stringify(state));
    const again = await pull(em, ['--json']);
    expect(again.code).toBe(0);
    const report = JSON.parse(again.stdout) as {
      moved: string[];
      deleted: string[];
      files: { path: string; outcome: string }[];
    };
    expect(report.moved).toEqual([old]);
    expect(report.deleted).toEqual([]);
    expect(report.files.find((file) => file.path === now)?.outcome).toBe('created');
    expect(existsSync(join(project, old))).toBe(false);
    // One module of the resource: compile defines it once.
    expect((await runBinary(['compile'], { cwd: project })).code).toBe(0);
  });

  it('lists in a stable order: a pipeline edited while pull pages through the list is not lost', async () => {
    let edited = false;
    const em: Emulator = await emulate({
      // After the first page of pipelines, someone edits the oldest: in the list's own order (the last update
      // first) it moves to the page already read, and every other one a place down.
      onListPage: (kind, index) => {
        if (kind !== 'pipeline' || index !== 0 || edited) return;
        edited = true;
        em.edit('pipeline', 'default', 'shop', 'deploy_00', (body) => void (body.name = 'edited while paging'));
      },
    });
    seedDocuments(em, [
      projectDoc('shop'),
      ...Array.from({ length: 12 }, (_, i) => pipelineDoc(`deploy_${String(i).padStart(2, '0')}`, 'shop')),
    ]);
    const result = await pull(em, ['--json']);
    expect(result.code).toBe(0);
    expect(edited).toBe(true);
    expect((JSON.parse(result.stdout) as { kinds: Record<string, number> }).kinds.pipeline).toBe(12);
    expect(await readFile(join(session.work, 'platform/pipelines/default/shop/deploy_00.ts'), 'utf8')).toContain(
      "identifier: 'deploy_00'",
    );
  });

  it('lists template versions in a stable order: versions on a page boundary are all pulled, one edited while paging', async () => {
    let edited = false;
    const label = (i: number) => `v${String(i).padStart(2, '0')}`;
    const em: Emulator = await emulate({
      // After the first page of templates (6 versions, 5 a page), someone edits v01. The versions share an identifier:
      // sorted by it alone they tie (the last updated first here), and the edit would move v01 from the page not yet
      // read to the one already read.
      onListPage: (kind, index) => {
        if (kind !== 'template' || index !== 0 || edited) return;
        edited = true;
        em.edit('template', 'default', 'shop', 'checks', (body) => void (body.name = 'edited while paging'), {
          versionLabel: label(1),
        });
      },
    });
    seedDocuments(em, [
      projectDoc('shop'),
      ...Array.from({ length: 6 }, (_, i) => templateDoc('checks', 'shop', label(i + 1))),
    ]);
    const result = await pull(em, ['--org', 'default', '--project', 'shop', '--json']);
    expect(result.code).toBe(0);
    expect(edited).toBe(true);
    // Two sort keys, each a parameter of its own: the identifier, then the version label.
    const lists = em.requests.filter((r) => r.path.startsWith('/gateway/template/api/templates/list-metadata'));
    expect(lists.map((r) => new URL(r.path, 'http://x').searchParams.getAll('sort'))).toEqual(
      Array(2).fill(['identifier,ASC', 'versionLabel,ASC']),
    );
    expect((JSON.parse(result.stdout) as { kinds: Record<string, number> }).kinds.template).toBe(6);
    const templates = await readTree(join(session.work, 'platform/templates/default/shop/checks'));
    expect(Object.keys(templates)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `${label(i)}.ts`));
  });

  it('reads a list again when its total changed while paging: a deletion or an insert ahead moves items across pages', async () => {
    let changed = false;
    const id = (i: number) => `deploy_${String(i).padStart(2, '0')}`;
    const em: Emulator = await emulate({
      // After the first page of pipelines (12, 5 a page), deploy_01 is deleted and deploy_000 added: deploy_05 would
      // move back onto the page already read, and deploy_000 sorts onto it.
      onListPage: (kind, index) => {
        if (kind !== 'pipeline' || index !== 0 || changed) return;
        changed = true;
        em.store.resources.delete(`pipeline:default/shop/${id(1)}`);
        seedDocument(em, pipelineDoc('deploy_000', 'shop'));
        seedDocument(em, pipelineDoc('deploy_001', 'shop'));
      },
    });
    seedDocuments(em, [projectDoc('shop'), ...Array.from({ length: 12 }, (_, i) => pipelineDoc(id(i), 'shop'))]);
    const result = await pull(em, ['--org', 'default', '--project', 'shop', '--json']);
    expect(result.code).toBe(0);
    expect(changed).toBe(true);
    expect((JSON.parse(result.stdout) as { kinds: Record<string, number> }).kinds.pipeline).toBe(13);
    const modules = Object.keys(await readTree(join(session.work, 'platform/pipelines/default/shop')));
    expect(modules).toContain(`${id(5)}.ts`);
    expect(modules).toContain('deploy_000.ts');
    expect(modules).not.toContain(`${id(1)}.ts`);
    // Three pages, then the three pages again.
    expect(
      em.requests.filter((r) => r.path.startsWith('/gateway/pipeline/api/pipelines/list') && r.status === 200),
    ).toHaveLength(6);
  });

  it('--org and --project narrow the scope; --project needs --org', async () => {
    const em = await emulate();
    const { projectIdentifier: _, ...orgHub } = connectorDoc('org_hub', 'shop').connector!;
    seedDocuments(em, [
      projectDoc('shop'),
      projectDoc('other'),
      pipelineDoc('a', 'shop'),
      pipelineDoc('b', 'other'),
      { connector: orgHub },
    ]);
    const kinds = (result: { stdout: string }) =>
      (JSON.parse(result.stdout) as { kinds: Record<string, number> }).kinds;
    expect(kinds(await pull(em, ['--org', 'default', '--project', 'shop', '--json']))).toEqual({
      project: 1,
      pipeline: 1,
    });
    expect(kinds(await pull(em, ['--org', 'default', '--json', '-o', 'org']))).toEqual({
      project: 2,
      connector: 1,
      pipeline: 2,
    });
    const missing = await pull(em, ['--org', 'default', '--project', 'nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('project nope of organization default does not exist on the platform');
    const usage = await pull(em, ['--project', 'shop']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--project needs --org');
  });

  it("pulls the whole account: the account's and each organization's own resources too, and publishes back with no write", async () => {
    const em = await emulate();
    // Without the project (and the organization): the same documents one and two levels up.
    const up = (doc: Doc, level: 'org' | 'account'): Doc =>
      Object.fromEntries(
        Object.entries(doc).map(([root, body]) => {
          const { projectIdentifier: _, orgIdentifier, ...rest } = body as Record<string, unknown>;
          return [root, level === 'org' ? { ...rest, orgIdentifier } : rest];
        }),
      );
    seedDocuments(em, [
      projectDoc('shop'),
      pipelineDoc('deploy', 'shop'),
      up(connectorDoc('hub', 'shop'), 'account'),
      up(serviceDoc('web', 'shop'), 'account'),
      up(environmentDoc('staging', 'shop'), 'org'),
      up(templateDoc('checks', 'shop', 'v1'), 'org'),
      up(templateDoc('lint', 'shop', 'v1'), 'account'),
    ]);
    const result = await pull(em, ['--json']);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { kinds: Record<string, number> }).kinds).toEqual({
      project: 1,
      connector: 1,
      service: 1,
      environment: 1,
      template: 2,
      pipeline: 1,
    });
    const project = join(session.work, 'platform');
    const compiled = await runBinary(['compile'], { cwd: project });
    expect(compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);
    const before = em.requests.length;
    const published = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
    expect(published.code).toBe(0);
    expect((JSON.parse(published.stdout) as { counts: Record<string, number> }).counts).toEqual({
      created: 0,
      updated: 0,
      unchanged: 7,
      failed: 0,
    });
    expect(writesOf(em, before)).toEqual([]);
  });

  it('keeps a document it cannot model as YAML beside the project, with a diagnostic', async () => {
    const em = await emulate();
    seedDocuments(em, [projectDoc('shop'), pipelineDoc('a', 'shop')]);
    seedDocument(em, serviceDoc('odd', 'shop'), { raw: 'service:\n  - not a mapping\n' });
    const result = await pull(em, ['--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { unmodelled: { file: string }[]; diagnostics: { code: string }[] };
    expect(report.unmodelled.map((u) => u.file)).toEqual(['unmodelled/services/default/shop/odd.yaml']);
    expect(report.diagnostics.map((d) => d.code)).toEqual(['pull-unmodelled']);
    expect(await readFile(join(session.work, 'platform/unmodelled/services/default/shop/odd.yaml'), 'utf8')).toBe(
      'service:\n  - not a mapping\n',
    );
  });

  it('writes a template version stored in Git as code with its gitFiles, read on its branch; publish after pull writes nothing', async () => {
    const em = await emulate();
    seedDocuments(em, [projectDoc('shop'), templateDoc('checks', 'shop', 'v1')]);
    seedDocument(em, templateDoc('shared', 'shop', 'v1', 'make lint'), {
      git: { ...GIT, branch: 'config', filePath: '.harness/templates/shared-v1.yaml' },
    });
    seedDocument(em, templateDoc('shared', 'shop', 'v2', 'make lint test'), {
      git: { ...GIT, filePath: '.harness/templates/shared-v2.yaml' },
      stable: true,
    });
    // Edited in Git, not through the platform: its file is what the GET answers.
    em.edit('template', 'default', 'shop', 'shared', (body) => void (body.description = 'pushed to Git'), {
      versionLabel: 'v1',
    });
    const result = await pull(em, ['--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      kinds: Record<string, number>;
      unmodelled: { file: string }[];
      diagnostics: { code: string }[];
      stableTemplates: string[];
    };
    expect(report.kinds).toEqual({ project: 1, template: 3 });
    expect(report.unmodelled).toEqual([]);
    expect(report.diagnostics.filter((d) => d.code === 'pull-unmodelled')).toEqual([]);
    expect(report.stableTemplates).toEqual(['default/shop/shared@v2']);
    // Each version in Git read on the branch its list item names.
    const gets = em.requests.filter(
      (r) => r.method === 'GET' && r.path.startsWith('/gateway/template/api/templates/shared'),
    );
    expect(
      gets
        .map((r) => [
          new URL(r.path, 'http://x').searchParams.get('versionLabel'),
          new URL(r.path, 'http://x').searchParams.get('branch'),
        ])
        .sort(),
    ).toEqual([
      ['v1', 'config'],
      ['v2', 'main'],
    ]);
    const project = join(session.work, 'platform');
    expect(existsSync(join(project, 'unmodelled'))).toBe(false);
    expect(await readFile(join(project, 'templates/default/shop/shared/v1.ts'), 'utf8')).toContain(
      "description: 'pushed to Git'",
    );
    const config = (await readFile(join(project, 'pipewright.config.ts'), 'utf8')).replace(/\s+/g, ' ');
    expect(config).toContain(
      '"template:default/shop/shared@v1": { "connector": "account.github", "repo": "delivery", "branch": "config", "filePath": ".harness/templates/shared-v1.yaml" }',
    );
    expect(config).toContain(
      '"template:default/shop/shared@v2": { "connector": "account.github", "repo": "delivery", "branch": "main", "filePath": ".harness/templates/shared-v2.yaml" }',
    );
    expect(config).not.toContain('template:default/shop/checks');

    expect((await runBinary(['compile'], { cwd: project })).code).toBe(0);
    const before = em.requests.length;
    const published = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
    assertNoKey(published);
    expect(published.code).toBe(0);
    expect((JSON.parse(published.stdout) as { counts: Record<string, number> }).counts).toEqual({
      created: 0,
      updated: 0,
      unchanged: 4,
      failed: 0,
    });
    expect(writesOf(em, before)).toEqual([]);
    const reads = em.requests
      .slice(before)
      .filter((r) => r.method === 'GET' && r.path.startsWith('/gateway/template/api/templates/shared'));
    expect(reads.map((r) => new URL(r.path, 'http://x').searchParams.get('branch')).sort()).toEqual([
      'config',
      'main',
      'main',
    ]);
  });

  it('a Git-stored template version changed in the code after pull is committed to its file on its branch; made stable on that branch', async () => {
    const em = await emulate();
    seedDocuments(em, [projectDoc('shop')]);
    seedDocument(em, templateDoc('shared', 'shop', 'v1', 'make lint'), {
      git: { ...GIT, branch: 'config', filePath: '.harness/templates/shared-v1.yaml' },
      stable: true,
    });
    seedDocument(em, templateDoc('shared', 'shop', 'v2', 'make lint test'), {
      git: { ...GIT, branch: 'config', filePath: '.harness/templates/shared-v2.yaml' },
    });
    expect((await pull(em)).code).toBe(0);
    const project = join(session.work, 'platform');
    const v2 = join(project, 'templates/default/shop/shared/v2.ts');
    const text = await readFile(v2, 'utf8');
    expect(text).toContain("name: 'Template shared'");
    await writeFile(
      v2,
      text
        .replace("name: 'Template shared'", "name: 'shared checks'")
        .replace("versionLabel: 'v2',", "versionLabel: 'v2',\n  stable: true,"),
    );
    const v1 = join(project, 'templates/default/shop/shared/v1.ts');
    await writeFile(v1, (await readFile(v1, 'utf8')).replace(/\n\s*stable: true,/, ''));
    expect((await runBinary(['compile'], { cwd: project })).code).toBe(0);
    const before = em.requests.length;
    const published = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
    assertNoKey(published);
    expect(published.stderr).toBe('');
    expect((JSON.parse(published.stdout) as { counts: Record<string, number> }).counts).toEqual({
      created: 0,
      updated: 1,
      unchanged: 2,
      failed: 0,
    });
    const [update, stable, ...rest] = writesOf(em, before);
    expect(rest).toEqual([]);
    const query = new URL(update!.path, 'http://x').searchParams;
    expect({
      method: update!.method,
      path: update!.path.split('?')[0],
      branch: query.get('branch'),
      filePath: query.get('filePath'),
      connectorRef: query.get('connectorRef'),
      hasBlob: Boolean(query.get('lastObjectId')),
    }).toEqual({
      method: 'PUT',
      path: '/gateway/template/api/templates/update/shared/v2',
      branch: 'config',
      filePath: '.harness/templates/shared-v2.yaml',
      connectorRef: 'account.github',
      hasBlob: true,
    });
    expect(query.get('commitMsg')).toBe(
      'pipewright: publish template shared@v2 from templates/default/shop/shared/v2.ts',
    );
    expect({
      path: stable!.path.split('?')[0],
      branch: new URL(stable!.path, 'http://x').searchParams.get('branch'),
    }).toEqual({ path: '/gateway/template/api/templates/updateStableTemplate/shared/v2', branch: 'config' });
    expect(em.commits.map((c) => ({ repo: c.repoName, branch: c.branch, file: c.filePath }))).toEqual([
      { repo: 'delivery', branch: 'config', file: '.harness/templates/shared-v2.yaml' },
    ]);
    expect(em.resource('template', 'default', 'shop', 'shared', { versionLabel: 'v2' })!.body.name).toBe(
      'shared checks',
    );
    // And the next publish finds it as written.
    const again = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
    expect((JSON.parse(again.stdout) as { counts: Record<string, number> }).counts).toEqual({
      created: 0,
      updated: 0,
      unchanged: 3,
      failed: 0,
    });
  });

  it('refuses a changed Git-stored template version with no gitFiles entry, an inline one with an entry, and does not create one in Git that the platform no longer has', async () => {
    const em = await emulate();
    seedDocuments(em, [projectDoc('shop'), templateDoc('checks', 'shop', 'v1')]);
    seedDocument(em, templateDoc('shared', 'shop', 'v1', 'make lint'), {
      git: { ...GIT, filePath: '.harness/templates/shared.yaml' },
      stable: true,
    });
    expect((await pull(em)).code).toBe(0);
    const project = join(session.work, 'platform');
    const module = join(project, 'templates/default/shop/shared/v1.ts');
    await writeFile(
      module,
      (await readFile(module, 'utf8')).replace("name: 'Template shared'", "name: 'shared checks'"),
    );
    const configFile = join(project, 'pipewright.config.ts');
    const config = await readFile(configFile, 'utf8');
    await writeFile(configFile, config.replace(/gitFiles: \{[^]*?\n {2}\},\n/, ''));
    expect(await readFile(configFile, 'utf8')).not.toContain('gitFiles');
    expect((await runBinary(['compile'], { cwd: project })).code).toBe(0);
    const publish = (identifier = 'shared') => publishedOutcome(em, project, identifier);
    const before = em.requests.length;
    const refused = await publish();
    expect(refused).toMatchObject({ outcome: 'failed', error: { reason: 'storage mismatch' } });
    expect(refused.error!.message).toContain(
      "the config's gitFiles names no place for it, so it would be written inline",
    );
    expect(refused.error!.message).toContain(
      'template shared@v1 is stored in Git (delivery, .harness/templates/shared.yaml)',
    );
    expect(refused.error!.message).toContain(
      "the update would name neither its branch nor its file; it was left as it is; pull again to write its gitFiles entry, or add 'template:default/shop/shared@v1' to gitFiles",
    );
    expect(writesOf(em, before)).toEqual([]);
    await writeFile(configFile, config);
    em.store.resources.delete(resourceKey('template', 'default', 'shop', 'shared', { versionLabel: 'v1' }));
    const gone = await publish();
    expect(gone).toMatchObject({ outcome: 'failed', error: { reason: 'storage mismatch' } });
    expect(gone.error!.message).toContain('has a gitFiles entry but the platform has no such template');
    expect(writesOf(em, before)).toEqual([]);
    // An entry for a version the platform holds inline: moving it into Git is done in the platform.
    await expectInlineWithEntryRefused(
      em,
      project,
      config,
      {
        module: 'templates/default/shop/checks/v1.ts',
        from: "name: 'Template checks'",
        entry: 'template:default/shop/checks@v1',
      },
      before,
    );
  });

  it('writes a service, an environment and an infrastructure stored in Git as code with their gitFiles; publish after pull writes nothing', async () => {
    const em = await emulate();
    seedDocuments(em, [
      projectDoc('shop'),
      serviceDoc('web', 'shop'),
      environmentDoc('staging', 'shop'),
      infrastructureDoc('k8s', 'shop', 'staging'),
    ]);
    const inGit = (filePath: string, branch = 'main') => ({ git: { ...GIT, branch, filePath } });
    seedDocument(em, serviceDoc('api', 'shop'), inGit('.harness/services/api.yaml', 'config'));
    seedDocument(em, environmentDoc('prod', 'shop', 'Production'), inGit('.harness/envs/prod.yaml'));
    seedDocument(em, infrastructureDoc('eks', 'shop', 'prod'), inGit('.harness/envs/prod/eks.yaml'));
    // Edited in Git, not through the platform: its file is what the GET answers.
    em.edit('service', 'default', 'shop', 'api', (body) => void (body.description = 'pushed to Git'));
    const result = await pull(em, ['--json']);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      kinds: Record<string, number>;
      unmodelled: { file: string }[];
      diagnostics: { code: string; message: string }[];
    };
    expect(report.kinds).toEqual({ project: 1, service: 2, environment: 2, infrastructure: 2 });
    expect(report.unmodelled).toEqual([]);
    expect(report.diagnostics.filter((d) => d.code === 'pull-unmodelled')).toEqual([]);
    // Read by GET, one each (the list's copy is the platform's, the GET's the file's).
    const gets = em.requests.filter(
      (r) => r.method === 'GET' && /\/ng\/api\/(servicesV2|environmentsV2|infrastructures)\/\w/.test(r.path),
    );
    expect(gets.map((r) => r.path.split('?')[0])).toEqual(
      expect.arrayContaining([
        '/gateway/ng/api/servicesV2/api',
        '/gateway/ng/api/environmentsV2/prod',
        '/gateway/ng/api/infrastructures/eks',
      ]),
    );
    expect(gets).toHaveLength(3);
    const project = join(session.work, 'platform');
    expect(await readFile(join(project, 'services/default/shop/api.ts'), 'utf8')).toContain(
      "description: 'pushed to Git'",
    );
    const config = await readFile(join(project, 'pipewright.config.ts'), 'utf8');
    for (const [name, branch, filePath] of [
      ['service:default/shop/api', 'config', '.harness/services/api.yaml'],
      ['environment:default/shop/prod', 'main', '.harness/envs/prod.yaml'],
      ['infrastructure:default/shop/prod/eks', 'main', '.harness/envs/prod/eks.yaml'],
    ])
      expect(config.replace(/\s+/g, ' ')).toContain(
        `"${name}": { "connector": "account.github", "repo": "delivery", "branch": "${branch}", "filePath": "${filePath}" }`,
      );

    expect((await runBinary(['compile'], { cwd: project })).code).toBe(0);
    const before = em.requests.length;
    const published = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
    assertNoKey(published);
    expect(published.code).toBe(0);
    expect((JSON.parse(published.stdout) as { counts: Record<string, number> }).counts).toEqual({
      created: 0,
      updated: 0,
      unchanged: 7,
      failed: 0,
    });
    expect(writesOf(em, before)).toEqual([]);
    // Each one in Git read on its branch.
    const reads = em.requests.slice(before).filter((r) => r.method === 'GET' && /\/servicesV2\/api\b/.test(r.path));
    expect(reads.map((r) => new URL(r.path, 'http://x').searchParams.get('branch'))).toEqual(['config']);
  });

  it("a Git-stored service changed in the code after pull is published to its file on its branch, not to the platform's copy", async () => {
    const em = await emulate();
    seedDocuments(em, [projectDoc('shop'), serviceDoc('web', 'shop')]);
    seedDocument(em, serviceDoc('api', 'shop'), {
      git: { ...GIT, branch: 'config', filePath: '.harness/services/api.yaml' },
    });
    seedDocument(em, environmentDoc('prod', 'shop', 'Production'), {
      git: { ...GIT, filePath: '.harness/envs/prod.yaml' },
    });
    expect((await pull(em)).code).toBe(0);
    const listed = () =>
      em.store.get('service', 'default', 'shop', 'api')!.listedYaml ??
      em.store.get('service', 'default', 'shop', 'api')!.raw;
    const copyBefore = listed();
    const project = join(session.work, 'platform');
    const module = join(project, 'services/default/shop/api.ts');
    const text = await readFile(module, 'utf8');
    expect(text).toContain("name: 'Service api'");
    await writeFile(module, text.replace("name: 'Service api'", "name: 'api gateway'"));
    expect((await runBinary(['compile'], { cwd: project })).code).toBe(0);
    const before = em.requests.length;
    const published = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
    assertNoKey(published);
    expect(published.stderr).toBe('');
    expect((JSON.parse(published.stdout) as { counts: Record<string, number> }).counts).toEqual({
      created: 0,
      updated: 1,
      unchanged: 3,
      failed: 0,
    });
    const [write] = writesOf(em, before);
    const query = new URL(write!.path, 'http://x').searchParams;
    expect({
      method: write!.method,
      path: write!.path.split('?')[0],
      storeType: query.get('storeType'),
      branch: query.get('branch'),
      hasBlob: Boolean(query.get('lastObjectId')),
    }).toEqual({
      method: 'PUT',
      path: '/gateway/ng/api/servicesV2',
      storeType: 'REMOTE',
      branch: 'config',
      hasBlob: true,
    });
    expect(query.get('commitMsg')).toBe('pipewright: publish service api from services/default/shop/api.ts');
    expect(em.commits.map((c) => ({ repo: c.repoName, branch: c.branch, file: c.filePath }))).toEqual([
      { repo: 'delivery', branch: 'config', file: '.harness/services/api.yaml' },
    ]);
    // The file (what the GET reads) changed; the platform's copy (what the list serves) did not.
    expect(em.resource('service', 'default', 'shop', 'api')!.body.name).toBe('api gateway');
    expect(listed()).toBe(copyBefore);
    // And the next publish finds it as written.
    const again = await runBinary(['publish', '--json'], { cwd: project, env: env(em) });
    expect((JSON.parse(again.stdout) as { counts: Record<string, number> }).counts).toEqual({
      created: 0,
      updated: 0,
      unchanged: 4,
      failed: 0,
    });
  });

  it('refuses a changed Git-stored service with no gitFiles entry, an inline one with an entry, and does not create one in Git that the platform no longer has', async () => {
    const em = await emulate();
    seedDocuments(em, [projectDoc('shop'), serviceDoc('web', 'shop')]);
    seedDocument(em, serviceDoc('api', 'shop'), { git: { ...GIT, filePath: '.harness/services/api.yaml' } });
    expect((await pull(em)).code).toBe(0);
    const project = join(session.work, 'platform');
    const module = join(project, 'services/default/shop/api.ts');
    await writeFile(module, (await readFile(module, 'utf8')).replace("name: 'Service api'", "name: 'api gateway'"));
    const configFile = join(project, 'pipewright.config.ts');
    const config = await readFile(configFile, 'utf8');
    await writeFile(configFile, config.replace(/gitFiles: \{[^]*?\n {2}\},\n/, ''));
    expect(await readFile(configFile, 'utf8')).not.toContain('gitFiles');
    expect((await runBinary(['compile'], { cwd: project })).code).toBe(0);
    const publish = (identifier = 'api') => publishedOutcome(em, project, identifier);
    const before = em.requests.length;
    const refused = await publish();
    expect(refused).toMatchObject({ outcome: 'failed', error: { reason: 'storage mismatch' } });
    expect(refused.error!.message).toContain(
      "the config's gitFiles names no place for it, so it would be written inline",
    );
    expect(writesOf(em, before)).toEqual([]);
    // With its entry back, but the service gone from the platform: pipewright creates services in Git never.
    await writeFile(configFile, config);
    em.store.resources.delete(resourceKey('service', 'default', 'shop', 'api'));
    const gone = await publish();
    expect(gone).toMatchObject({ outcome: 'failed', error: { reason: 'storage mismatch' } });
    expect(gone.error!.message).toContain('has a gitFiles entry but the platform has no such service');
    // An entry for one the platform holds inline (read from the list): moving it into Git is done in the platform.
    await expectInlineWithEntryRefused(
      em,
      project,
      config,
      { module: 'services/default/shop/web.ts', from: "name: 'Service web'", entry: 'service:default/shop/web' },
      before,
    );
  });

  it('stops in seconds and writes nothing when the platform goes away during the pull', async () => {
    const em = await emulate({ goneAfterRequests: 6 });
    seedEstate(em);
    const started = Date.now();
    const result = await pull(em);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/pull stopped: /);
    expect(result.stderr).toMatch(/nothing (more )?was (sent|written)/);
    expect(existsSync(join(session.work, 'platform'))).toBe(false);
  });

  it('a key without view permission on a kind stops at its first 403, says what the role needs, writes nothing', async () => {
    const em = await emulate({
      forbid: (_method, path) => (path.startsWith('/template/api/templates') ? 'core_template_view' : undefined),
    });
    seedEstate(em);
    const started = Date.now();
    const result = await pull(em, ['--org', 'default', '--project', 'shop']);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/pull stopped: .*403.*Missing permission core_template_view/);
    expect(result.stderr).toContain('lacks permission (HTTP 403): its role needs view on every kind pulled');
    expect(result.stderr).toContain('HARNESS_API_KEY');
    // The 403 is not retried, and nothing is read after it (the pipelines come after the templates).
    expect(em.requests.filter((r) => r.status === 403)).toHaveLength(1);
    expect(em.requests.filter((r) => r.path.includes('/pipeline/api/'))).toEqual([]);
    expect(existsSync(join(session.work, 'platform'))).toBe(false);
  });

  // util-linux `script` gives the binary a terminal: the progress line is drawn only on one.
  it.skipIf(!existsSync('/usr/bin/script'))(
    'on a terminal, draws a progress line of counts per kind, pages and requests, then clears it',
    async () => {
      const em = await emulate();
      seedEstate(em);
      const quote = (text: string) => `'${text.replace(/'/g, "'\\''")}'`;
      const output = await new Promise<string>((resolve, reject) => {
        const child = spawn(
          '/usr/bin/script',
          ['-qefc', [process.execPath, BIN, 'pull', '-o', 'platform'].map(quote).join(' '), '/dev/null'],
          {
            cwd: session.work,
            env: { ...process.env, ...env(em), NO_COLOR: '1' },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let text = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`exit ${code}: ${text}`))));
      });
      const clear = '\r\x1b[2K';
      const drawn = output
        .split(clear)
        .slice(1, -1)
        .map((line) => line.trim());
      expect(drawn.length).toBeGreaterThan(0);
      // Each within the terminal's width (script's terminal says none: 100), and always with the requests.
      for (const line of drawn) {
        expect(line).toMatch(/^[\w ·()…]* · \d+ requests?$/);
        expect(line.length).toBeLessThan(100);
      }
      // The first count drawn at once (later ones at most every 100 ms): the projects' list.
      expect(drawn[0]).toMatch(/^projects 1 \(1 page\) · \d+ requests$/);
      // Cleared before the summary, which is printed as on any output.
      const after = output.slice(output.lastIndexOf(clear) + clear.length);
      expect(after).toMatch(/^platform\/connectors\/default\/shop\/hub.yaml:1:1 {2}written as connector\(\)/);
      expect(after).toContain('pulled 27 documents');
      expect(output).not.toContain(ADMIN_KEY.slice(0, 12));
    },
  );

  it('a bad key fails in seconds with a clear message, and the key is never printed', async () => {
    const em = await emulate();
    seedEstate(em);
    const badKey = 'pat.bad.Qw3Er5Ty7Ui9Op1As';
    const started = Date.now();
    const result = await runBinary(['pull', '-o', 'platform'], {
      cwd: session.work,
      env: { ...env(em, badKey), PIPEWRIGHT_RETRY_BASE_MS: undefined },
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/pull stopped: .*401/);
    expect(result.stderr).toContain('HARNESS_API_KEY');
    expect(`${result.stdout}${result.stderr}`).not.toContain(badKey);
    expect(`${result.stdout}${result.stderr}`).not.toContain(badKey.slice(0, 12));
    // The probe, then the first list: no request after the refusal.
    expect(em.requests.length).toBeLessThanOrEqual(2);
  });
});
