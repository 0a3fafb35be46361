import { existsSync } from 'node:fs';
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// The one seeded generator of the project (scripts/seeded-random.mjs): a failing kill point can be replayed.
import { seededRandom } from '../scripts/seeded-random.mjs';
import { inputSetDoc, pipelineDoc, projectDoc, templatedPipelineDoc } from './support/emulator-output.js';
import { readTree, ROOT } from './support/cli.js';
import { assertNoKey, emulatorsPerTest, FAST_RETRIES, runBinary } from './support/emulator-run.js';
import { seedDocument, seedDocuments } from './support/emulator-seed.js';
import { ACCOUNT_ID, ADMIN_KEY, type Emulator } from './support/emulator.js';

/**
 * A pull killed (SIGKILL) at seeded random points while it writes the project, then pulled again, ends exactly as
 * an uninterrupted pull: no module of the platform's taken for an edit by hand, no stale module kept, no working
 * folder left. The points are chosen among the pull's own changes to the project folder (test/support/fs-kill.mjs
 * counts them in an uninterrupted run, then kills the child right before the one chosen), so each kill lands
 * during the write, wherever it is: the staged files, the journal's commit, the switch, the state, the publish
 * record. (Import's working folder is left out: a kill there is one before anything is written.)
 */

const session = emulatorsPerTest('pipewright-pull-interrupted-');
const KILLER = pathToFileURL(join(ROOT, 'test/support/fs-kill.mjs')).href;

const env = (em: Emulator) => ({
  HARNESS_API_KEY: ADMIN_KEY,
  HARNESS_ACCOUNT_ID: ACCOUNT_ID,
  HARNESS_BASE_URL: em.url,
  ...FAST_RETRIES,
});

/** `pipewright pull --json -o dir` (relative to the test's folder), killed at the `killAt`th change when given. */
async function pull(em: Emulator, dir: string, fs: { killAt?: number; countInto?: string } = {}) {
  const result = await runBinary(['pull', '--json', '-o', dir], {
    cwd: session.work,
    env: {
      ...env(em),
      ...(fs.killAt || fs.countInto
        ? {
            NODE_OPTIONS: `--import=${KILLER}`,
            PIPEWRIGHT_TEST_FS_ROOT: join(session.work, dir),
            // Import's working folder: a kill there is one before the pull writes into the project.
            PIPEWRIGHT_TEST_FS_SKIP: join(session.work, dir, '.pipewright-pull'),
            ...(fs.killAt ? { PIPEWRIGHT_TEST_KILL_AT: String(fs.killAt) } : {}),
            ...(fs.countInto ? { PIPEWRIGHT_TEST_FS_COUNT: fs.countInto } : {}),
          }
        : {}),
    },
  });
  assertNoKey(result);
  return result;
}

interface Report {
  ok: boolean;
  interrupted?: 'finished' | 'undone';
  files: Array<{ path: string; outcome: string }>;
  diagnostics: Array<{ code: string; message: string }>;
}

/** A pull that ran to its end: what it reports, checked to have kept nothing as edited by hand. */
async function converged(em: Emulator, dir: string, killAt: number): Promise<Report> {
  const result = await pull(em, dir);
  expect(result.code, `kill at change ${killAt}: ${result.stderr}`).toBe(0);
  const report = JSON.parse(result.stdout) as Report;
  const kept = report.files.filter((f) => f.outcome === 'kept' || f.outcome === 'overwritten');
  expect(kept, `kill at change ${killAt}`).toEqual([]);
  expect(report.diagnostics.map((d) => d.code)).not.toContain('pull-edited');
  return report;
}

/** An uninterrupted pull into `dir` (a copy of `from`, when given): the reference, and how many changes it makes. */
async function reference(em: Emulator, dir: string, from?: string) {
  if (from) await cp(join(session.work, from), join(session.work, dir), { recursive: true });
  const counted = join(session.work, `${dir.replace(/\W/g, '-')}.count`);
  const result = await pull(em, dir, { countInto: counted });
  expect(result.code).toBe(0);
  return { tree: await readTree(join(session.work, dir)), changes: Number(await readFile(counted, 'utf8')) };
}

/** Seeded kill points among `changes`, distinct, in order; the first and last change always among them. */
function killPoints(seed: number, changes: number, n: number): number[] {
  const random = seededRandom(seed);
  const points = new Set([1, changes]);
  while (points.size < Math.min(n, changes)) points.add(1 + Math.floor(random() * changes));
  return [...points].sort((a, b) => a - b);
}

function seed(em: Emulator): void {
  seedDocuments(em, [
    projectDoc('shop'),
    pipelineDoc('a', 'shop'),
    pipelineDoc('b', 'shop'),
    pipelineDoc('c', 'shop'),
    templatedPipelineDoc('gated', 'shop', 'checks', 'v1'),
    inputSetDoc('eu', 'shop', 'gated'),
  ]);
}

const named = (em: Emulator, id: string, name: string) =>
  em.edit('pipeline', 'default', 'shop', id, (body) => void (body.name = name));

/** The platform moves on: two pipelines edited, one deleted, one added, an input set added. */
function second(em: Emulator): void {
  named(em, 'a', 'a, second');
  named(em, 'b', 'b, second');
  em.store.resources.delete('pipeline:default/shop/c');
  if (em.resource('pipeline', 'default', 'shop', 'd')) named(em, 'd', 'deploy d');
  else seedDocument(em, pipelineDoc('d', 'shop'));
  if (!em.resource('inputSet', 'default', 'shop', 'us')) seedDocument(em, inputSetDoc('us', 'shop', 'gated', 'us'));
}

/**
 * And on again while the pull was down: a module the interrupted pull changed and one it created change once more.
 * Had the interrupted pull's files not been switched with its state, the next pull would take them for edits by
 * hand (their bytes are neither what the state names nor what the platform now gives) and keep them stale.
 */
function third(em: Emulator): void {
  named(em, 'a', 'a, third');
  named(em, 'd', 'd, third');
}

describe('pull interrupted', () => {
  // About twenty pulls of the binary, each killed or run to its end: minutes on a loaded two-core machine.
  it('killed at seeded random points while it writes into an existing project, then pulled again: as if never interrupted', async () => {
    const em = await session.emulate();
    seed(em);
    expect((await pull(em, 'base/platform')).code).toBe(0);
    second(em);
    // How many changes the pull of the second state makes: the kill points are among them.
    const { changes } = await reference(em, 'counted/platform', 'base/platform');
    expect(changes).toBeGreaterThan(20);
    third(em);
    const expected = await reference(em, 'expected/platform', 'base/platform');
    expect(expected.tree['pipelines/default/shop/a.ts']).toContain('a, third');
    // What each next pull said it found: the last kill point falls after the journal's commit, so it finishes one.
    const found = new Set<string | undefined>();
    for (const killAt of killPoints(7, changes, 6)) {
      second(em);
      const dir = `run-${killAt}/platform`;
      await cp(join(session.work, 'base/platform'), join(session.work, dir), { recursive: true });
      const killed = await pull(em, dir, { killAt });
      expect(killed.code, `kill at change ${killAt}`).toBe(-1);
      third(em);
      found.add((await converged(em, dir, killAt)).interrupted);
      expect(await readTree(join(session.work, dir)), `kill at change ${killAt}`).toEqual(expected.tree);
    }
    expect(found).toContain('finished');
    // An uninterrupted pull says nothing of the kind.
    expect((JSON.parse((await pull(em, 'expected/platform')).stdout) as Report).interrupted).toBeUndefined();
  }, 900_000);

  it('killed at seeded random points in a first pull into an empty folder, then pulled again: as if never interrupted', async () => {
    const em = await session.emulate();
    seed(em);
    second(em);
    // The same folder name as the reference's: package.json is named after it.
    const { changes } = await reference(em, 'counted/platform');
    third(em);
    const expected = await reference(em, 'expected/platform');
    for (const killAt of killPoints(11, changes, 4)) {
      second(em);
      const dir = `run-${killAt}/platform`;
      const killed = await pull(em, dir, { killAt });
      expect(killed.code, `kill at change ${killAt}`).toBe(-1);
      third(em);
      await converged(em, dir, killAt);
      expect(await readTree(join(session.work, dir)), `kill at change ${killAt}`).toEqual(expected.tree);
      expect(existsSync(join(session.work, dir, '.pipewright-pull-stage'))).toBe(false);
    }
  }, 900_000);
});
