import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { finishInterrupted, STAGE_DIR, stageAndSwitch } from '../src/pull/pull-stage.js';
import { readTree } from './support/cli.js';

/**
 * Pull's files switch into the project in one step, by a journal: a pull stopped before the journal is committed
 * changed nothing, one stopped after it is finished by the next pull. (The pull killed at random points on the
 * built binary is test/pull-interrupted.test.ts.)
 */

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
const project = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'pipewright-pull-stage-'));
  dirs.push(dir);
  return dir;
};
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const STATE = 'pipewright.pull.json';

/** The journal a pull commits, as a pull killed right after the commit leaves it (its staged files beside it). */
async function committed(
  dir: string,
  writes: Array<{ path: string; text: string; before: string | null }>,
  removals: Array<{ path: string; sha256: string }> = [],
  state = '{"state":"new"}\n',
) {
  const stage = join(dir, STAGE_DIR);
  await mkdir(stage, { recursive: true });
  for (const [at, { text }] of writes.entries()) await writeFile(join(stage, `${at}.staged`), text);
  const journal = {
    generator: 'pipewright-pull-stage',
    version: 1,
    writes: writes.map(({ path, before }, at) => ({ path, staged: `${at}.staged`, before })),
    removals,
    state: { path: STATE, text: state },
  };
  await writeFile(join(stage, 'journal.json'), JSON.stringify(journal));
}

describe('stageAndSwitch', () => {
  it('puts every file in place, removes what it names, writes the state, and leaves no staging folder', async () => {
    const dir = await project();
    await writeFile(join(dir, 'old.ts'), 'old\n');
    await writeFile(join(dir, 'b.ts'), 'b\n');
    stageAndSwitch(dir, {
      writes: [
        { path: 'pipelines/a.ts', text: 'a\n', before: null },
        { path: 'b.ts', text: 'B\n', before: sha('b\n') },
      ],
      removals: [{ path: 'old.ts', sha256: sha('old\n') }],
      state: { path: STATE, text: '{}\n' },
    });
    expect(await readTree(dir)).toEqual({ 'pipelines/a.ts': 'a\n', 'b.ts': 'B\n', [STATE]: '{}\n' });
  });
});

describe('finishInterrupted', () => {
  it('is a no-op in a project no pull was interrupted in', async () => {
    const dir = await project();
    await writeFile(join(dir, 'a.ts'), 'a\n');
    expect(finishInterrupted(dir)).toBeUndefined();
    expect(finishInterrupted(join(dir, 'not-made-yet'))).toBeUndefined();
    expect(await readTree(dir)).toEqual({ 'a.ts': 'a\n' });
  });

  it('undoes a pull stopped before its commit: the staged files go, the project is as it was', async () => {
    const dir = await project();
    await writeFile(join(dir, 'a.ts'), 'a\n');
    await writeFile(join(dir, STATE), '{"state":"old"}\n');
    await mkdir(join(dir, STAGE_DIR));
    await writeFile(join(dir, STAGE_DIR, '0.staged'), 'A\n');
    // A journal being written when the pull stopped is no commit.
    await writeFile(join(dir, STAGE_DIR, 'journal.json.tmp'), '{"generator":"pipewright-pull-st');
    expect(finishInterrupted(dir)).toBe('undone');
    expect(await readTree(dir)).toEqual({ 'a.ts': 'a\n', [STATE]: '{"state":"old"}\n' });
  });

  it('finishes a pull stopped after its commit: the files not yet switched, the removals, then the state', async () => {
    const dir = await project();
    // a.ts was switched before the stop (its staged file is gone); b.ts and c.ts were not.
    await writeFile(join(dir, 'a.ts'), 'A\n');
    await writeFile(join(dir, 'b.ts'), 'b\n');
    await writeFile(join(dir, 'moved.ts'), 'moved\n');
    await writeFile(join(dir, STATE), '{"state":"old"}\n');
    await committed(dir, [
      { path: 'a.ts', text: 'A\n', before: sha('a\n') },
      { path: 'b.ts', text: 'B\n', before: sha('b\n') },
      { path: 'new/c.ts', text: 'C\n', before: null },
    ]);
    await rm(join(dir, STAGE_DIR, '0.staged'));
    await writeFile(
      join(dir, STAGE_DIR, 'journal.json'),
      (await readFile(join(dir, STAGE_DIR, 'journal.json'), 'utf8')).replace(
        '"removals":[]',
        `"removals":[{"path":"moved.ts","sha256":"${sha('moved\n')}"}]`,
      ),
    );
    expect(finishInterrupted(dir)).toBe('finished');
    expect(await readTree(dir)).toEqual({
      'a.ts': 'A\n',
      'b.ts': 'B\n',
      'new/c.ts': 'C\n',
      [STATE]: '{"state":"new"}\n',
    });
  });

  it('leaves a file changed after the commit as it is, and removes none that changed', async () => {
    const dir = await project();
    await writeFile(join(dir, 'a.ts'), 'a\n// edited after the stop\n');
    await writeFile(join(dir, 'c.ts'), 'made by hand after the stop\n');
    await writeFile(join(dir, 'moved.ts'), 'moved\n// edited\n');
    await committed(
      dir,
      [
        { path: 'a.ts', text: 'A\n', before: sha('a\n') },
        { path: 'c.ts', text: 'C\n', before: null },
      ],
      [{ path: 'moved.ts', sha256: sha('moved\n') }],
    );
    expect(finishInterrupted(dir)).toBe('finished');
    // The state names the pulled hashes: the next pull keeps these as edited, as any edit.
    expect(await readTree(dir)).toEqual({
      'a.ts': 'a\n// edited after the stop\n',
      'c.ts': 'made by hand after the stop\n',
      'moved.ts': 'moved\n// edited\n',
      [STATE]: '{"state":"new"}\n',
    });
  });

  it('writes nothing outside the project whatever the journal names', async () => {
    const parent = await project();
    const dir = join(parent, 'project');
    await mkdir(dir);
    await writeFile(join(parent, 'outside.ts'), 'theirs\n');
    await committed(
      dir,
      [
        { path: '../escape.ts', text: 'x\n', before: null },
        { path: '/tmp/absolute.ts', text: 'x\n', before: null },
      ],
      [{ path: '../outside.ts', sha256: sha('theirs\n') }],
    );
    expect(finishInterrupted(dir)).toBe('finished');
    expect(existsSync(join(parent, 'escape.ts'))).toBe(false);
    expect(existsSync('/tmp/absolute.ts')).toBe(false);
    expect(await readFile(join(parent, 'outside.ts'), 'utf8')).toBe('theirs\n');
    expect(await readTree(dir)).toEqual({ [STATE]: '{"state":"new"}\n' });
  });
});
