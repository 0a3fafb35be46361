import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectorDoc, inputSetDoc, pipelineDoc, projectDoc, triggerDoc, type Doc } from './support/emulator-output.js';
import { emulatorsPerTest, publishWith } from './support/emulator-run.js';
import type { Emulator } from './support/emulator.js';

/**
 * Orphans: what an earlier publish recorded whose source is gone is listed by every publish and dry run; `--prune`
 * deletes it, children before parents, and never anything pipewright did not publish (or that changed since).
 */

const session = emulatorsPerTest('pipewright-prune-');
const { emulate, compiled } = session;

type Orphan = { file: string; kind: string; identifier: string; outcome: string; message?: string };
const orphansOf = (stdout: string) =>
  ((JSON.parse(stdout) as { orphans?: Orphan[] }).orphans ?? []).map((o) => [o.kind, o.identifier, o.outcome]);

const KEEP: Doc[] = [
  projectDoc('shop'),
  connectorDoc('hub', 'shop'),
  pipelineDoc('deploy', 'shop'),
  triggerDoc('nightly', 'shop', 'deploy'),
];
const GONE: Doc[] = [
  pipelineDoc('old', 'shop'),
  inputSetDoc('eu', 'shop', 'old'),
  projectDoc('legacy'),
  pipelineDoc('relic', 'legacy'),
];

/** Publishes everything into `out`, then everything but GONE into the same folder (a compile replaces it). */
async function publishedThenRemoved(em: Emulator): Promise<string> {
  const first = await compiled([...KEEP, ...GONE], 'out');
  expect((await publishWith({ emulator: em, args: [first] })).code).toBe(0);
  return compiled(KEEP, 'out');
}

describe('orphans', () => {
  it('are listed by every publish and dry run, and nothing is deleted without --prune', async () => {
    const em = await emulate();
    const out = await publishedThenRemoved(em);
    const listed = await publishWith({ emulator: em, args: [out] });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      /^orphan\s+inputSet\s+default\/shop\/old\/eu  \(published from input-sets\/default\/shop\/old\/eu\.yaml\): its source is gone; publish --prune deletes it$/m,
    );
    expect(listed.stdout).toContain('orphans (recorded, source gone): 4 (orphaned 4)');
    const dry = await publishWith({ emulator: em, args: [out, '--dry-run', '--json'] });
    expect(orphansOf(dry.stdout)).toEqual([
      ['inputSet', 'eu', 'orphaned'],
      ['pipeline', 'relic', 'orphaned'],
      ['pipeline', 'old', 'orphaned'],
      ['project', 'legacy', 'orphaned'],
    ]);
    expect(em.store.deletes).toEqual([]);
    expect(em.resource('pipeline', 'default', 'shop', 'old')).toBeDefined();
  });

  it('--prune --dry-run says what would be deleted and deletes nothing', async () => {
    const em = await emulate();
    const out = await publishedThenRemoved(em);
    const dry = await publishWith({ emulator: em, args: [out, '--prune', '--dry-run'] });
    expect(dry.code, dry.stdout).toBe(0);
    expect(dry.stdout).toMatch(/^would delete pipeline\s+default\/shop\/old\s/m);
    // Said before it happens: the platform keeps a deleted pipeline's identifier.
    expect(dry.stdout).toContain(
      "the platform keeps a deleted pipeline's identifier: default/shop/old could never be published again under it",
    );
    // Not for a kind whose identifier the platform frees (no evidence it keeps it).
    expect(dry.stdout).not.toMatch(/deleted (?:project|inputSet)'s identifier/);
    expect(em.store.deletes).toEqual([]);
  });

  it('--prune says, as it deletes a pipeline, that its identifier cannot be published again', async () => {
    const em = await emulate();
    const out = await publishedThenRemoved(em);
    const pruned = await publishWith({ emulator: em, args: [out, '--prune'] });
    expect(pruned.code, pruned.stdout).toBe(0);
    expect(pruned.stdout).toMatch(
      /^deleted\s+pipeline\s+default\/shop\/old .*\n {4}the platform keeps a deleted pipeline's identifier: default\/shop\/old can never be published again under it/m,
    );
  });

  it('--prune deletes them children first, drops them from the record, and the next run lists none', async () => {
    const em = await emulate();
    const out = await publishedThenRemoved(em);
    const said = await publishWith({ emulator: em, args: [out] });
    expect(said.stdout).toMatch(
      /^orphan\s+pipeline\s+default\/shop\/old .*publish --prune deletes it \(for good: the platform keeps its identifier\)$/m,
    );
    const pruned = await publishWith({ emulator: em, args: [out, '--prune', '--json'] });
    expect(pruned.code).toBe(0);
    expect(orphansOf(pruned.stdout).map(([, , outcome]) => outcome)).toEqual([
      'deleted',
      'deleted',
      'deleted',
      'deleted',
    ]);
    expect(em.store.deletes).toEqual([
      'inputSet:default/shop/old/eu',
      'pipeline:default/legacy/relic',
      'pipeline:default/shop/old',
      'project:default/_/legacy',
    ]);
    expect(em.resource('pipeline', 'default', 'shop', 'deploy')).toBeDefined();
    const record = JSON.parse(await readFile(join(session.work, 'out.published.json'), 'utf8')) as {
      resources: Record<string, { file: string }>;
    };
    const files = Object.values(record.resources).map((entry) => entry.file);
    expect(files).toContain('pipelines/default/shop/deploy.yaml');
    expect(files.some((file) => file.includes('old') || file.includes('legacy'))).toBe(false);
    const again = await publishWith({ emulator: em, args: [out, '--prune', '--json'] });
    expect(orphansOf(again.stdout)).toEqual([]);
  });

  it('keeps, and says why, one changed on the platform since pipewright published it, and one holding what pipewright did not publish', async () => {
    const em = await emulate();
    const out = await publishedThenRemoved(em);
    em.edit('pipeline', 'default', 'shop', 'old', (body) => (body.description = 'taken over in the UI'));
    // Made in the UI, in the project pipewright would delete: never pipewright's to delete.
    em.seed({
      kind: 'connector',
      org: 'default',
      project: 'legacy',
      identifier: 'by_hand',
      body: connectorDoc('by_hand', 'legacy').connector!,
    });
    const pruned = await publishWith({ emulator: em, args: [out, '--prune', '--json'] });
    expect(pruned.code).toBe(1);
    const orphans = (JSON.parse(pruned.stdout) as { orphans: Orphan[] }).orphans;
    expect(orphans.find((o) => o.identifier === 'old')).toMatchObject({
      outcome: 'kept',
      message: expect.stringContaining(
        'changed on the platform since pipewright published it (1 difference, e.g. description)',
      ),
    });
    expect(orphans.find((o) => o.identifier === 'legacy')).toMatchObject({
      outcome: 'kept',
      message: expect.stringContaining('it holds what pipewright did not publish (connector by_hand)'),
    });
    expect(em.resource('pipeline', 'default', 'shop', 'old')).toBeDefined();
    expect(em.resource('project', 'default', undefined, 'legacy')).toBeDefined();
    expect(em.resource('connector', 'default', 'legacy', 'by_hand')).toBeDefined();
    // The input set of the kept pipeline, and the pipeline in the kept project, were pipewright's and unchanged.
    expect(em.store.deletes).toEqual(['inputSet:default/shop/old/eu', 'pipeline:default/legacy/relic']);
  });

  it('a pipeline holding a trigger pipewright did not publish is kept; one deleted by hand is dropped as gone', async () => {
    const em = await emulate();
    const out = await publishedThenRemoved(em);
    em.seed({
      kind: 'trigger',
      org: 'default',
      project: 'legacy',
      identifier: 'by_hand',
      parent: 'relic',
      body: triggerDoc('by_hand', 'legacy', 'relic').trigger!,
    });
    em.store.resources.delete(
      [...em.store.resources.entries()].find(([, r]) => r.kind === 'inputSet' && r.identifier === 'eu')![0],
    );
    const pruned = await publishWith({ emulator: em, args: [out, '--prune', '--json'] });
    expect(orphansOf(pruned.stdout)).toEqual([
      ['inputSet', 'eu', 'gone'],
      ['pipeline', 'relic', 'kept'],
      ['pipeline', 'old', 'deleted'],
      ['project', 'legacy', 'kept'],
    ]);
  });

  it('only what the record of this platform and account holds: resources made elsewhere are never listed', async () => {
    const em = await emulate();
    em.seed({
      kind: 'pipeline',
      org: 'default',
      project: 'shop',
      identifier: 'by_hand',
      body: pipelineDoc('by_hand', 'shop').pipeline!,
    });
    const out = await compiled([projectDoc('shop')]);
    const result = await publishWith({ emulator: em, args: [out, '--prune', '--json'] });
    expect(orphansOf(result.stdout)).toEqual([]);
    expect(em.resource('pipeline', 'default', 'shop', 'by_hand')).toBeDefined();
    // Another platform's record says nothing about this one.
    const other = await emulate();
    const elsewhere = await publishWith({
      emulator: other,
      args: [await compiled([projectDoc('shop')], 'out'), '--prune', '--json'],
    });
    expect(orphansOf(elsewhere.stdout)).toEqual([]);
  });
});
