import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyId } from '../src/catalog/resource-key.js';
import { publishDocument } from '../src/platform/document.js';
import { findOrphans } from '../src/publish/prune.js';
import {
  lastPublishedLookup,
  PublishedRecord,
  recordPath,
  unconfirmedLookup,
} from '../src/publish/published-record.js';
import { journalPath } from '../src/publish/record-journal.js';
import { scopeCovers } from '../src/pull/pull-write.js';

/**
 * The record of what pipewright published (out.published.json) and its journal: keyed by identity, merged per
 * scope, written as a run goes and compacted at its end, read back after a run that never got there.
 */

const TARGET = { baseUrl: 'https://platform.example', accountId: 'acct' };
const yaml = (id: string, name: string, org = 'default') =>
  `pipeline:\n  name: ${name}\n  identifier: ${id}\n  orgIdentifier: ${org}\n  projectIdentifier: web\n  stages: []\n`;
const item = (id: string, name: string, org = 'default') => ({
  file: `pipelines/${org}/web/${id}.yaml`,
  document: publishDocument(yaml(id, name, org)),
});

let dir = '';
let out = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pipewright-record-'));
  out = join(dir, 'out');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function open(target = TARGET) {
  const warnings: string[] = [];
  const record = await PublishedRecord.open(out, target, (message) => warnings.push(message));
  return { record, warnings };
}
const nameOf = (document: Record<string, unknown> | undefined) =>
  (document?.pipeline as { name?: string } | undefined)?.name;

describe('the publish record', () => {
  it('keys entries by the resource, whatever file it was published from', async () => {
    const { record } = await open();
    record.confirmed(item('ci', 'first'));
    // compile moved it (another output came to differ from it only in case): still the same resource.
    record.confirmed({ ...item('ci', 'moved'), file: 'pipelines/default/web/ci-2.yaml' });
    expect(record.size).toBe(1);
    await record.compact();
    const lookup = lastPublishedLookup((await open()).record.snapshot());
    expect(nameOf(lookup(item('ci', 'now')))).toBe('moved');
    expect(lookup(item('new', 'now'))).toBeUndefined();
  });

  it('reads a version 1 record (keyed by file) as entries keyed by the resource', async () => {
    const v1 = (id: string, name: string) => ({ sha256: 'x', document: item(id, name).document.value });
    await writeFile(
      recordPath(out),
      JSON.stringify({
        generator: 'pipewright-published',
        version: 1,
        ...TARGET,
        documents: {
          'pipelines/default/web/ci.yaml': v1('ci', 'recorded'),
          'pipelines/default/web/cd.yaml': v1('cd', 'recorded cd'),
          // A hand-edited entry without an identity: nothing to key it by, left out.
          'pipelines/default/web/odd.yaml': { sha256: 'x', document: { pipeline: { name: 'no id' } } },
        },
      }),
    );
    const { record, warnings } = await open();
    expect(warnings).toEqual([]);
    const snapshot = record.snapshot();
    expect([...snapshot.keys()].sort()).toEqual([keyId(item('cd', '').document.id), keyId(item('ci', '').document.id)]);
    expect(nameOf(lastPublishedLookup(snapshot)(item('ci', 'now')))).toBe('recorded');
    // Written back as version 2: the next read needs no migration.
    await record.compact();
    expect(JSON.parse(await readFile(recordPath(out), 'utf8'))).toMatchObject({ version: 2 });
    expect((await open()).record.size).toBe(2);
  });

  it('is empty for another platform or account, and says so for a file that is not a record', async () => {
    const { record } = await open();
    record.confirmed(item('ci', 'first'));
    await record.compact();
    expect((await open({ ...TARGET, accountId: 'other' })).record.size).toBe(0);
    expect((await open()).record.size).toBe(1);
    await writeFile(recordPath(out), '{ not json');
    const broken = await open();
    expect(broken.record.size).toBe(0);
    expect(broken.warnings).toEqual([expect.stringContaining('is not a publish record')]);
    // Unreadable (a folder in its place): said, and the run goes on without one.
    await rm(recordPath(out));
    await mkdir(recordPath(out));
    await mkdir(journalPath(recordPath(out)));
    const unreadable = await open();
    expect(unreadable.record.size).toBe(0);
    expect(unreadable.warnings).toEqual([
      expect.stringMatching(/could not read .*out\.published\.json \(EISDIR\)/),
      expect.stringMatching(/could not read .*out\.published\.journal \(EISDIR\)/),
    ]);
  });

  it('journals each change as it happens: a run that never compacts leaves everything to the next run', async () => {
    const { record } = await open();
    record.confirmed(item('a', 'a1'));
    record.sending(item('b', 'b1'));
    // No compact: the run was killed here.
    expect(existsSync(recordPath(out))).toBe(false);
    const lines = (await readFile(journalPath(recordPath(out)), 'utf8')).trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { state: string }).state)).toEqual(['confirmed', 'unconfirmed']);

    const { record: next, warnings } = await open();
    expect(warnings).toEqual([]);
    const snapshot = next.snapshot();
    expect(nameOf(lastPublishedLookup(snapshot)(item('a', '')))).toBe('a1');
    // Sent, never answered: not what pipewright published, but what it may have.
    expect(lastPublishedLookup(snapshot)(item('b', ''))).toBeUndefined();
    expect(nameOf(unconfirmedLookup(snapshot)(item('b', '')))).toBe('b1');
    await next.compact();
    expect(existsSync(journalPath(recordPath(out)))).toBe(false);
    expect((await open()).record.size).toBe(2);
  });

  it('a confirmed write replaces an unconfirmed one; an unconfirmed one keeps what was confirmed before', async () => {
    const { record } = await open();
    record.confirmed(item('a', 'v1'));
    record.sending(item('a', 'v2'));
    let snapshot = record.snapshot();
    expect(nameOf(lastPublishedLookup(snapshot)(item('a', '')))).toBe('v1');
    expect(nameOf(unconfirmedLookup(snapshot)(item('a', '')))).toBe('v2');
    record.confirmed(item('a', 'v2'));
    snapshot = record.snapshot();
    expect(nameOf(lastPublishedLookup(snapshot)(item('a', '')))).toBe('v2');
    expect(unconfirmedLookup(snapshot)(item('a', ''))).toBeUndefined();
  });

  it('skips a journal line cut short or edited by hand, with a warning, and keeps the others', async () => {
    const { record } = await open();
    record.confirmed(item('a', 'a1'));
    // Killed in the middle of writing a line: the next run's first line must still be whole.
    await appendFile(journalPath(recordPath(out)), '{"baseUrl":"https://platform.example","key":"pipel');
    const second = (await open()).record;
    second.confirmed(item('b', 'b1'));
    await appendFile(journalPath(recordPath(out)), '{"state":"confirmed"}\n');
    const { record: third, warnings } = await open();
    expect(warnings).toEqual([
      expect.stringMatching(/journal line 2 is not a journal line .*skipped/),
      expect.stringMatching(/journal line 4 is not a journal line .*skipped/),
    ]);
    expect([...third.snapshot().keys()].sort()).toEqual([
      keyId(item('a', '').document.id),
      keyId(item('b', '').document.id),
    ]);
  });

  it("leaves out journal lines about another platform or account (they are not this record's)", async () => {
    const other = (await open({ ...TARGET, accountId: 'other' })).record;
    other.confirmed(item('a', 'theirs'));
    expect((await open()).record.size).toBe(0);
    expect((await open({ ...TARGET, accountId: 'other' })).record.size).toBe(1);
  });

  it('replaces only the entries of the scope a pull read, and keeps the others', async () => {
    const { record } = await open();
    record.confirmed(item('a', 'default a'));
    record.confirmed(item('gone', 'default gone'));
    record.confirmed(item('t', 'tif t', 'tif'));
    record.replaceScope((id) => scopeCovers({ org: 'tif' }, id), [item('u', 'tif u', 'tif')]);
    const names = () => [...record.snapshot().values()].map((entry) => nameOf(entry.confirmed?.document)).sort();
    expect(names()).toEqual(['default a', 'default gone', 'tif u']);
    record.replaceScope((id) => scopeCovers({ org: 'default' }, id), [item('a', 'default a2')]);
    expect(names()).toEqual(['default a2', 'tif u']);
    // The whole account: everything is in scope.
    record.replaceScope((id) => scopeCovers({}, id), []);
    expect(record.size).toBe(0);
  });

  it("a pull's scope: an organization, or one project of it (the project itself included)", () => {
    const project = { kind: 'project', org: 'default', identifier: 'web' } as const;
    const pipeline = item('a', '').document.id;
    expect(scopeCovers({ org: 'default', project: 'web' }, project)).toBe(true);
    expect(scopeCovers({ org: 'default', project: 'web' }, pipeline)).toBe(true);
    expect(scopeCovers({ org: 'default', project: 'shop' }, pipeline)).toBe(false);
    expect(scopeCovers({ org: 'default', project: 'shop' }, project)).toBe(false);
    expect(
      scopeCovers({ org: 'default', project: 'web' }, { kind: 'connector', org: 'default', identifier: 'c' }),
    ).toBe(false);
    expect(scopeCovers({ org: 'tif' }, pipeline)).toBe(false);
    expect(scopeCovers({ org: 'default' }, pipeline)).toBe(true);
  });

  it("orphans: an unconfirmed create counts (its source is gone), and a later write's sent document goes along", async () => {
    const { record } = await open();
    record.sending(item('created', 'sent'));
    record.confirmed(item('kept', 'v1'));
    record.sending(item('kept', 'v2'));
    const orphans = findOrphans(record.snapshot(), []);
    expect(orphans.map((o) => [o.id.identifier, nameOf(o.document), nameOf(o.sent)])).toEqual([
      ['created', 'sent', undefined],
      ['kept', 'v1', 'v2'],
    ]);
    expect(findOrphans(record.snapshot(), [item('kept', 'v3')]).map((o) => o.id.identifier)).toEqual(['created']);
  });
});
