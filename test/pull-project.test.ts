import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import {
  pathInScope,
  movedModules,
  planPulledFiles,
  PULL_STATE_FILE,
  pullStateText,
  readPullState,
  shortDiff,
  type FileOutcome,
  type PullState,
} from '../src/pull/pull-project.js';
import { stageAndSwitch } from '../src/pull/pull-stage.js';
import { pullProgressText } from '../src/pull/progress-text.js';

/** How a pull lands in a project that exists: what changed is written, hand edits are kept, and the diff shows why. */

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
const project = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pipewright-pull-project-'));
  dirs.push(dir);
  return dir;
};
const STATE = { baseUrl: 'http://127.0.0.1:1', accountId: 'acct', scope: {} };

type Files = ReadonlyArray<{ path: string; text: string }>;

/** What a pull decides for `files`, switched into `dir` with the state it leaves (the state as given, else its own). */
function writePulled(
  dir: string,
  files: Files,
  previous: PullState | undefined,
  force: boolean,
  stateFiles: Files = files,
  removals: ReadonlyArray<{ path: string; sha256: string }> = [],
): FileOutcome[] {
  const { outcomes, writes } = planPulledFiles(dir, files, previous, force);
  stageAndSwitch(dir, {
    writes,
    removals,
    state: { path: PULL_STATE_FILE, text: pullStateText(STATE, stateFiles, outcomes, previous) },
  });
  return outcomes;
}

describe('shortDiff', () => {
  it('shows only the lines that differ, under the line they start at', () => {
    expect(shortDiff('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n')).toBe(
      ['@@ line 2', '+ B', '- b', '@@ line 5', '+ e'].join('\n'),
    );
  });
  it('says how many more lines differ past the limit', () => {
    const diff = shortDiff('x\n', Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n'), 5);
    // 30 lines added and 2 removed (`x` and the empty last line): 5 shown.
    expect(diff).toBe(
      ['@@ line 1', '+ line 0', '+ line 1', '+ line 2', '+ line 3', '+ line 4', '... 27 more changed lines'].join('\n'),
    );
  });
  it('is empty for equal texts', () => {
    expect(shortDiff('same\n', 'same\n')).toBe('');
  });
});

describe('planPulledFiles, switched into place', () => {
  it('creates, leaves identical files alone, and replaces what only the platform changed', async () => {
    const dir = await project();
    const first = [
      { path: 'pipelines/a.ts', text: 'one\n' },
      { path: 'pipelines/b.ts', text: 'two\n' },
    ];
    const created = writePulled(dir, first, undefined, false);
    expect(created.map((o) => o.outcome)).toEqual(['created', 'created']);
    const state = readPullState(dir);
    const again = writePulled(
      dir,
      [
        { path: 'pipelines/a.ts', text: 'one\n' },
        { path: 'pipelines/b.ts', text: 'TWO\n' },
      ],
      state,
      false,
    );
    expect(again.map((o) => o.outcome)).toEqual(['unchanged', 'updated']);
    expect(await readFile(join(dir, 'pipelines/b.ts'), 'utf8')).toBe('TWO\n');
  });

  it('keeps a file edited by hand, and replaces it with force', async () => {
    const dir = await project();
    const files = [{ path: 'a.ts', text: 'one\n' }];
    writePulled(dir, files, undefined, false);
    await writeFile(join(dir, 'a.ts'), 'one\n// mine\n');
    const state = readPullState(dir);
    const kept = writePulled(dir, [{ path: 'a.ts', text: 'ONE\n' }], state, false);
    expect(kept).toEqual([
      { path: 'a.ts', outcome: 'kept', diff: ['@@ line 1', '+ ONE', '- one', '- // mine'].join('\n') },
    ]);
    expect(await readFile(join(dir, 'a.ts'), 'utf8')).toBe('one\n// mine\n');
    // The record keeps what pull last wrote for a kept file: the edit is still seen as one next time.
    expect(readPullState(dir)!.files['a.ts']).toBe(state!.files['a.ts']);
    const forced = writePulled(dir, [{ path: 'a.ts', text: 'ONE\n' }], readPullState(dir), true);
    expect(forced.map((o) => o.outcome)).toEqual(['overwritten']);
    expect(await readFile(join(dir, 'a.ts'), 'utf8')).toBe('ONE\n');
  });

  it("treats a file no pull wrote as the user's", async () => {
    const dir = await project();
    await writeFile(join(dir, 'a.ts'), 'hand written\n');
    expect(writePulled(dir, [{ path: 'a.ts', text: 'pulled\n' }], undefined, false).map((o) => o.outcome)).toEqual([
      'kept',
    ]);
    expect(await readFile(join(dir, 'a.ts'), 'utf8')).toBe('hand written\n');
  });
});

describe('movedModules', () => {
  const module = (source: string, body = 'export const checks = 1;\n') =>
    `// Imported by pipewright from ${source}.\n${body}`;

  it('removes a module an earlier pull wrote whose document is now written under another path; keeps the rest', async () => {
    const dir = await project();
    const before = [
      { path: 'templates/default/shop/checks.ts', text: module('platform/templates/default/shop/checks/v1.yaml') },
      {
        path: 'templates/default/shop/checks_template.ts',
        text: module('platform/templates/default/shop/checks/v2.yaml'),
      },
      { path: 'pipelines/default/shop/gone.ts', text: module('platform/pipelines/default/shop/gone.yaml') },
    ];
    writePulled(dir, before, undefined, false);
    // Edited since: not removed, but named with the module that replaces it.
    await writeFile(join(dir, 'templates/default/shop/checks_template.ts'), `${before[1]!.text}// mine\n`);
    const now = [
      { path: 'templates/default/shop/checks/v1.ts', text: module('platform/templates/default/shop/checks/v1.yaml') },
      { path: 'templates/default/shop/checks/v2.ts', text: module('platform/templates/default/shop/checks/v2.yaml') },
    ];
    const gone = before.map((file) => file.path);
    const previous = readPullState(dir);
    const moved = movedModules(dir, gone, now, previous);
    expect(moved).toEqual({
      removed: [
        { path: 'templates/default/shop/checks.ts', sha256: previous!.files['templates/default/shop/checks.ts'] },
      ],
      edited: [{ path: 'templates/default/shop/checks_template.ts', now: 'templates/default/shop/checks/v2.ts' }],
    });
    // Nothing is removed until the switch.
    expect(existsSync(join(dir, 'templates/default/shop/checks.ts'))).toBe(true);
    writePulled(dir, now, previous, false, now, moved.removed);
    expect(existsSync(join(dir, 'templates/default/shop/checks.ts'))).toBe(false);
    expect(existsSync(join(dir, 'templates/default/shop/checks_template.ts'))).toBe(true);
    // A resource no longer pulled: not moved, left for the deleted report.
    expect(existsSync(join(dir, 'pipelines/default/shop/gone.ts'))).toBe(true);
  });

  it('never removes a file outside the project that a tampered pull state names, with the right header and hash', async () => {
    const dir = await project();
    const inside = join(dir, 'estate');
    await mkdir(inside);
    const text = module('platform/pipelines/default/shop/a.yaml');
    // The victim looks exactly like a module pull wrote: same header, and the state holds its hash.
    await writeFile(join(dir, 'victim.ts'), text);
    await mkdir(join(inside, 'pipelines'), { recursive: true });
    await writeFile(join(inside, 'pipelines', 'old.ts'), text);
    const hash = createHash('sha256').update(text).digest('hex');
    const tampered: PullState = {
      generator: 'pipewright-pull',
      version: 1,
      ...STATE,
      files: { '../victim.ts': hash, [join(dir, 'victim.ts')]: hash, 'pipelines/old.ts': hash },
    };
    const now = [{ path: 'pipelines/default/shop/a.ts', text }];
    const moved = movedModules(inside, Object.keys(tampered.files), now, tampered);
    // Only the file inside the project is removed (the negative: the guard removes what it should).
    expect(moved.removed).toEqual([{ path: 'pipelines/old.ts', sha256: hash }]);
    expect(moved.edited).toEqual([]);
    writePulled(inside, now, tampered, false, now, moved.removed);
    expect(existsSync(join(dir, 'victim.ts'))).toBe(true);
    expect(existsSync(join(inside, 'pipelines', 'old.ts'))).toBe(false);
  });

  it('never removes a file no pull wrote, nor one without the header', async () => {
    const dir = await project();
    await writeFile(join(dir, 'a.ts'), module('platform/x.yaml'));
    await writeFile(join(dir, 'b.ts'), 'export const b = 1;\n');
    const now = [{ path: 'c.ts', text: module('platform/x.yaml') }];
    expect(movedModules(dir, ['a.ts', 'b.ts'], now, undefined)).toEqual({
      removed: [],
      edited: [{ path: 'a.ts', now: 'c.ts' }],
    });
    expect(movedModules(dir, ['b.ts'], now, { generator: 'pipewright-pull', version: 1, ...STATE, files: {} })).toEqual(
      {
        removed: [],
        edited: [],
      },
    );
    expect(existsSync(join(dir, 'a.ts')) && existsSync(join(dir, 'b.ts'))).toBe(true);
  });
});

describe('pullProgressText', () => {
  it("counts items and pages per kind, in the table's order, then the requests", () => {
    const kinds = new Map([
      ['trigger', { pages: 3, items: 2 }],
      ['pipeline', { pages: 2, items: 120 }],
      ['project', { pages: 1, items: 1 }],
    ] as const);
    expect(pullProgressText({ kinds: new Map(kinds), requests: 512 })).toBe(
      'projects 1 (1 page) · pipelines 120 (2 pages) · triggers 2 (3 pages) · 512 requests',
    );
    expect(pullProgressText({ kinds: new Map(), requests: 1 })).toBe('1 request');
  });

  it('fits a narrow terminal: the pages go first, then the kinds with the fewest items, never the requests', () => {
    const progress = {
      kinds: new Map([
        ['project', { pages: 1, items: 1 }],
        ['pipeline', { pages: 2, items: 120 }],
        ['trigger', { pages: 3, items: 2 }],
      ] as const),
      requests: 512,
    };
    const full = 'projects 1 (1 page) · pipelines 120 (2 pages) · triggers 2 (3 pages) · 512 requests';
    expect(pullProgressText(progress, full.length)).toBe(full);
    expect(pullProgressText(progress, full.length - 1)).toBe('projects 1 · pipelines 120 · triggers 2 · 512 requests');
    expect(pullProgressText(progress, 40)).toBe('pipelines 120 · … · 512 requests');
    expect(pullProgressText(progress, 50)).toBe('pipelines 120 · triggers 2 · … · 512 requests');
    expect(pullProgressText(progress, 10)).toBe('… · 512 requests');
  });
});

describe('pathInScope: which files of the project a pull of one scope answers for', () => {
  it('a whole-account pull answers for every file', () => {
    expect(pathInScope('pipelines/tif/shop/c.ts', {})).toBe(true);
    expect(pathInScope('connectors/_/_/github.ts', {})).toBe(true);
  });

  it("an organization's pull answers for its modules and its projects', not another organization's or the account's", () => {
    const scope = { org: 'default' };
    expect(pathInScope('pipelines/default/shop/a.ts', scope)).toBe(true);
    expect(pathInScope('connectors/default/_/git.ts', scope)).toBe(true);
    expect(pathInScope('projects/default/shop.ts', scope)).toBe(true);
    expect(pathInScope('pipelines/tif/shop/c.ts', scope)).toBe(false);
    expect(pathInScope('projects/tif/shop.ts', scope)).toBe(false);
    expect(pathInScope('connectors/_/_/github.ts', scope)).toBe(false);
  });

  it("a project's pull answers for that project's modules and its own document only", () => {
    const scope = { org: 'default', project: 'shop' };
    expect(pathInScope('pipelines/default/shop/a.ts', scope)).toBe(true);
    expect(pathInScope('input-sets/default/shop/a/prod.ts', scope)).toBe(true);
    expect(pathInScope('projects/default/shop.ts', scope)).toBe(true);
    expect(pathInScope('pipelines/default/web/x.ts', scope)).toBe(false);
    expect(pathInScope('projects/default/web.ts', scope)).toBe(false);
    expect(pathInScope('connectors/default/_/git.ts', scope)).toBe(false);
  });

  it('files that are not modules of a resource belong to every pull', () => {
    for (const path of ['pipewright.config.ts', 'package.json', '.gitignore', 'unmodelled/x.yaml'])
      expect(pathInScope(path, { org: 'tif', project: 'shop' })).toBe(true);
  });
});
