import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../scripts/seeded-random.mjs';
import { BIN } from './support/cli.js';
import { pipelineDoc, projectDoc, writeOutputFolder, type Doc } from './support/emulator-output.js';
import { assertNoKey, emulatorsPerTest, FAST_RETRIES, publishWith, runBinary } from './support/emulator-run.js';
import { seedDocuments } from './support/emulator-seed.js';
import { ACCOUNT_ID, ADMIN_KEY, type Emulator } from './support/emulator.js';

/**
 * The publish record survives what happens to a run, on the built binary against the emulator: two organizations
 * pulled into one folder, a publish killed midway, a write whose answer is lost. After each, the next run
 * converges: no false drift, no false orphan, no lost entry, and a change made on the platform is still drift.
 */

const session = emulatorsPerTest('pipewright-record-');
const { emulate } = session;

const env = (em: Emulator) => ({
  HARNESS_API_KEY: ADMIN_KEY,
  HARNESS_ACCOUNT_ID: ACCOUNT_ID,
  HARNESS_BASE_URL: em.url,
  ...FAST_RETRIES,
});

interface Report {
  counts: Record<string, number>;
  documents: Array<{ identifier: string; outcome: string; error?: { reason?: string } }>;
  orphans?: unknown[];
}
const reportOf = (stdout: string) => JSON.parse(stdout) as Report;

const writesOf = (em: Emulator, from = 0) =>
  em.requests.slice(from).filter((r) => r.method !== 'GET' && !/\/list(-metadata|V2)?\b/.test(r.path));

/** A project's documents, in organization `org`. */
function inOrg(org: string, docs: readonly Doc[]): Doc[] {
  return docs.map((doc) =>
    Object.fromEntries(Object.entries(doc).map(([root, body]) => [root, { ...body, orgIdentifier: org }])),
  );
}

/** A project and its pipelines, each pipeline's script saying which version of the source this is. */
const estate = (count: number, version: string): Doc[] => [
  projectDoc('shop'),
  ...Array.from({ length: count }, (_, i) => pipelineDoc(`p${i}`, 'shop', `echo ${version}`)),
];

const recordOf = async (out: string) =>
  JSON.parse(await readFile(`${out}.published.json`, 'utf8')) as {
    resources: Record<string, { file: string; confirmed?: { document: Doc }; unconfirmed?: { document: Doc } }>;
  };
const scriptOf = (doc: Doc | undefined) => JSON.stringify(doc).match(/echo (v\d)/)?.[1];

/**
 * `publish` of `out`, killed with SIGKILL once the journal holds `after` confirmed writes (the emulator delays
 * every write, so the run is still going then).
 */
function publishKilled(em: Emulator, out: string, after: number): Promise<{ killed: boolean; confirmed: number }> {
  const journal = `${out}.published.journal`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'publish', out, '--concurrency', '2'], {
      env: { ...process.env, NO_COLOR: '1', ...env(em) },
      stdio: 'ignore',
    });
    let confirmed = 0;
    let reading = false;
    const watch = setInterval(() => {
      if (reading) return;
      reading = true;
      void readFile(journal, 'utf8')
        .then(
          (text) => {
            // Pipelines' writes only: the project, unchanged, is confirmed without a write.
            const lines = text.split('\n').filter((line) => line.includes('"key":"pipeline/'));
            confirmed = lines.filter((line) => line.includes('"state":"confirmed"')).length;
            if (confirmed >= after) child.kill('SIGKILL');
          },
          () => {},
        )
        .finally(() => (reading = false));
    }, 5);
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearInterval(watch);
      resolve({ killed: signal === 'SIGKILL', confirmed });
    });
  });
}

describe('the publish record across runs', () => {
  it('two organizations pulled into one folder: publish --fail-on-drift finds no drift and no orphan, and still protects both', async () => {
    const em = await emulate({ orgs: ['default', 'tif'] });
    seedDocuments(em, [
      ...inOrg('default', [projectDoc('shop'), pipelineDoc('a', 'shop'), pipelineDoc('b', 'shop')]),
      ...inOrg('tif', [projectDoc('shop'), pipelineDoc('c', 'shop')]),
    ]);
    const project = join(session.work, 'platform');
    for (const org of ['default', 'tif']) {
      const pulled = await runBinary(['pull', '--org', org, '-o', 'platform'], { cwd: session.work, env: env(em) });
      assertNoKey(pulled);
      expect(pulled.code, pulled.stderr).toBe(0);
      // The other organization's modules are not "no longer on the platform".
      expect(pulled.stderr).not.toContain('pull-deleted');
    }
    // Pull's own state kept both: the first organization pulled again finds nothing edited by hand.
    const state = JSON.parse(await readFile(join(project, 'pipewright.pull.json'), 'utf8')) as {
      files: Record<string, string>;
    };
    expect(
      Object.keys(state.files)
        .filter((path) => path.startsWith('pipelines/'))
        .sort(),
    ).toEqual(['pipelines/default/shop/a.ts', 'pipelines/default/shop/b.ts', 'pipelines/tif/shop/c.ts']);
    const again = await runBinary(['pull', '--org', 'default', '-o', 'platform'], { cwd: session.work, env: env(em) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toMatch(/pull-edited|pull-deleted/);
    // The second pull kept the first's entries: 3 + 2 resources.
    const record = await recordOf(join(project, 'out'));
    expect(Object.keys(record.resources).sort()).toEqual([
      'pipeline/default/shop//a/',
      'pipeline/default/shop//b/',
      'pipeline/tif/shop//c/',
      'project/default///shop/',
      'project/tif///shop/',
    ]);
    const compiled = await runBinary(['compile'], { cwd: project });
    expect(compiled.code, compiled.stderr).toBe(0);

    const before = em.requests.length;
    const published = await runBinary(['publish', '--fail-on-drift', '--json'], { cwd: project, env: env(em) });
    expect(published.code, published.stdout).toBe(0);
    expect(published.stderr).toBe('');
    const report = reportOf(published.stdout);
    expect(report.counts).toEqual({ created: 0, updated: 0, unchanged: 5, failed: 0 });
    expect(report.orphans ?? []).toEqual([]);
    expect(writesOf(em, before)).toEqual([]);

    // A change in the UI to the first organization's pipeline is still drift: not overwritten.
    em.edit('pipeline', 'default', 'shop', 'a', (body) => void (body.description = 'edited in the UI'));
    const drifted = await runBinary(['publish', '--fail-on-drift', '--json'], { cwd: project, env: env(em) });
    expect(drifted.code).toBe(1);
    expect(reportOf(drifted.stdout).documents.find((d) => d.identifier === 'a')).toMatchObject({
      outcome: 'failed',
      error: { reason: 'drift' },
    });
    expect(em.resource('pipeline', 'default', 'shop', 'a')!.body.description).toBe('edited in the UI');
    // Two pulls, a compile and two publishes: over a minute on a loaded two-core machine.
  }, 240_000);

  // Three seeded kill points; each run is a few seconds on a loaded machine.
  it.each([11, 23, 37])(
    'a publish killed by SIGKILL midway (seed %i), then a publish of a newer source with --fail-on-drift: converges, no false drift, no lost entry',
    async (seed) => {
      const count = 12;
      const em = await emulate();
      const out = join(session.work, 'out');
      await writeOutputFolder(out, estate(count, 'v1'));
      expect((await publishWith({ emulator: em, args: [out] })).code).toBe(0);

      // Version 2: every write answered late, so the run is midway when the journal shows `after` of them.
      await writeOutputFolder(out, estate(count, 'v2'));
      em.setFaults({ rate: 1, kinds: ['delay'], delayMs: 300, match: ({ method }) => method === 'PUT' });
      const after = 1 + Math.floor(seededRandom(seed)() * (count - 4));
      const killed = await publishKilled(em, out, after);
      expect(killed.killed).toBe(true);
      em.setFaults(undefined);
      const onPlatform = Array.from({ length: count }, (_, i) =>
        scriptOf(em.resource('pipeline', 'default', 'shop', `p${i}`)!.body as Doc),
      );
      // The kill came midway: some writes of version 2 reached the platform, not all.
      expect(onPlatform.filter((v) => v === 'v2').length).toBeGreaterThanOrEqual(after);
      expect(onPlatform).toContain('v1');

      // Version 3 with --fail-on-drift: version 2 on the platform is pipewright's own write, not drift.
      await writeOutputFolder(out, estate(count, 'v3'));
      const next = await publishWith({ emulator: em, args: [out, '--fail-on-drift', '--json'] });
      expect(next.code, next.stdout).toBe(0);
      expect(next.stderr).toBe('');
      expect(reportOf(next.stdout).counts).toEqual({ created: 0, updated: count, unchanged: 1, failed: 0 });
      const record = await recordOf(out);
      expect(Object.keys(record.resources)).toHaveLength(count + 1);
      for (const [key, entry] of Object.entries(record.resources)) {
        if (key.startsWith('project/')) continue;
        expect(scriptOf(entry.confirmed?.document), key).toBe('v3');
        expect(entry.unconfirmed, key).toBeUndefined();
      }
      expect(existsSync(`${out}.published.journal`)).toBe(false);
    },
  );

  /** Version 1 published, then version 2 of p0 whose every answer the emulator drops after applying it. */
  async function lostAnswer(em: Emulator, out: string): Promise<void> {
    await writeOutputFolder(out, estate(2, 'v1'));
    expect((await publishWith({ emulator: em, args: [out] })).code).toBe(0);
    await writeOutputFolder(out, estate(2, 'v2'));
    em.setFaults({
      rate: 1,
      kinds: ['drop-after-write'],
      match: ({ method, path }) => method === 'PUT' && path.includes('/pipelines/') && path.endsWith('/p0'),
    });
    const lost = await publishWith({
      emulator: em,
      args: [out, '--json'],
      env: { PIPEWRIGHT_RETRY_ATTEMPTS: '2' },
    });
    em.setFaults(undefined);
    expect(lost.code).toBe(1);
    expect(reportOf(lost.stdout).documents.find((d) => d.identifier === 'p0')).toMatchObject({ outcome: 'failed' });
    // The platform applied it; the record knows it was sent, not that it arrived.
    expect(scriptOf(em.resource('pipeline', 'default', 'shop', 'p0')!.body as Doc)).toBe('v2');
    const entry = (await recordOf(out)).resources['pipeline/default/shop//p0/']!;
    expect(scriptOf(entry.confirmed?.document)).toBe('v1');
    expect(scriptOf(entry.unconfirmed?.document)).toBe('v2');
  }

  it('a write whose answer was lost is unconfirmed; the next run finds exactly that on the platform and takes it as its own', async () => {
    const em = await emulate();
    const out = join(session.work, 'out');
    await lostAnswer(em, out);
    await writeOutputFolder(out, estate(2, 'v3'));
    const next = await publishWith({ emulator: em, args: [out, '--fail-on-drift', '--json'] });
    expect(next.code, next.stdout).toBe(0);
    expect(reportOf(next.stdout).documents.find((d) => d.identifier === 'p0')).toMatchObject({ outcome: 'updated' });
    const entry = (await recordOf(out)).resources['pipeline/default/shop//p0/']!;
    expect(scriptOf(entry.confirmed?.document)).toBe('v3');
    expect(entry.unconfirmed).toBeUndefined();
  });

  it('an unconfirmed write and then a change in the UI: the platform holds neither, so it is drift', async () => {
    const em = await emulate();
    const out = join(session.work, 'out');
    await lostAnswer(em, out);
    em.edit('pipeline', 'default', 'shop', 'p0', (body) => void (body.description = 'edited in the UI'));
    await writeOutputFolder(out, estate(2, 'v3'));
    const next = await publishWith({ emulator: em, args: [out, '--fail-on-drift', '--json'] });
    expect(next.code).toBe(1);
    expect(reportOf(next.stdout).documents.find((d) => d.identifier === 'p0')).toMatchObject({
      outcome: 'failed',
      error: { reason: 'drift' },
    });
    expect(em.resource('pipeline', 'default', 'shop', 'p0')!.body.description).toBe('edited in the UI');
  });

  it('a journal line that cannot be read is skipped with a warning; the run goes on and compacts the rest', async () => {
    const em = await emulate();
    const out = join(session.work, 'out');
    await writeOutputFolder(out, estate(1, 'v1'));
    await appendFile(`${out}.published.journal`, '{"state":"confirmed","key":"cut short\n');
    const result = await publishWith({ emulator: em, args: [out] });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: .*published\.journal line 1 is not a journal line .*skipped/);
    expect(result.stderr).not.toContain('unexpected error');
    expect(Object.keys((await recordOf(out)).resources)).toHaveLength(2);
    expect(existsSync(`${out}.published.journal`)).toBe(false);
  });
});
