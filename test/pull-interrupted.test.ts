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
 * during the write, wherever it is: import's staging, the staged files, the journal's commit, the switch, the
 * state, the publish record.
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
  files: Array<{ path: string; outcome: string }>;
  diagnostics: Array<{ code: string; message: string }>;
}

/** A pull that ran to its end: what it reports, checked to have kept nothing as edited by hand. */
async function converged(em: Emulator, dir: string): Promise<Report> {
  const result = await pull(em, dir);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const report = JSON.parse(result.stdout) as Report;
  expect(report.files.filter((f) => f.outcome === 'kept' || f.outcome === 'overwritten')).toEqual([]);
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

/** The platform moves on: two pipelines edited, one deleted, one added, an input set added. */
function change(em: Emulator): void {
  em.edit('pipeline', 'default', 'shop', 'a', (body) => void (body.name = 'a, renamed on the platform'));
  em.edit('pipeline', 'default', 'shop', 'b', (body) => void (body.name = 'b, renamed on the platform'));
  em.store.resources.delete('pipeline:default/shop/c');
  seedDocument(em, pipelineDoc('d', 'shop'));
  seedDocument(em, inputSetDoc('us', 'shop', 'gated', 'us'));
}

describe('pull interrupted', () => {
  // About twenty pulls of the binary, each killed or run to its end: minutes on a loaded two-core machine.
  it('killed at seeded random points while it writes into an existing project, then pulled again: as if never interrupted', async () => {
    const em = await session.emulate();
    seed(em);
    expect((await pull(em, 'base/platform')).code).toBe(0);
    change(em);
    const expected = await reference(em, 'expected/platform', 'base/platform');
    // The platform's change reached the project through the reference pull: the points are during real writes.
    expect(expected.tree['pipelines/default/shop/a.ts']).toContain('a, renamed on the platform');
    expect(expected.changes).toBeGreaterThan(10);
    for (const killAt of killPoints(7, expected.changes, 4)) {
      const dir = `run-${killAt}/platform`;
      await cp(join(session.work, 'base/platform'), join(session.work, dir), { recursive: true });
      const killed = await pull(em, dir, { killAt });
      expect(killed.code, `kill at change ${killAt}`).toBe(-1);
      await converged(em, dir);
      expect(await readTree(join(session.work, dir)), `kill at change ${killAt}`).toEqual(expected.tree);
    }
  }, 900_000);

  it('killed at seeded random points in a first pull into an empty folder, then pulled again: as if never interrupted', async () => {
    const em = await session.emulate();
    seed(em);
    // The same folder name as the reference's: package.json is named after it.
    const expected = await reference(em, 'expected/platform');
    for (const killAt of killPoints(11, expected.changes, 3)) {
      const dir = `run-${killAt}/platform`;
      const killed = await pull(em, dir, { killAt });
      expect(killed.code, `kill at change ${killAt}`).toBe(-1);
      await converged(em, dir);
      expect(await readTree(join(session.work, dir)), `kill at change ${killAt}`).toEqual(expected.tree);
      expect(existsSync(join(session.work, dir, '.pipewright-pull-stage'))).toBe(false);
    }
  }, 900_000);
});
