import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { sha256 } from '../compile/layout.js';
import { confinedPath } from '../core/confined-path.js';
import { syncFolder } from '../core/sync-folder.js';

/**
 * Pull's files switch into the project as one step, by a journal. Every file a pull writes is staged first
 * (`.pipewright-pull-stage/` in the project, fsynced), then a journal naming each staged file, its place, what
 * must be there for it to be replaced, and pull's new state is put in place by a rename: that rename is the
 * commit. Then the staged files are renamed into place, the files to remove removed, and the state written last.
 *
 * A pull killed before the commit changed nothing in the project (its staging folder is removed by the next
 * pull); killed after it, the next pull finishes the switch from the journal before it reads anything. Either
 * way the project and its state agree: no module of the platform's is taken for an edit by hand, and no stale
 * one is kept. A file changed by someone between the kill and the next pull is left as it is: the state then
 * names another hash for it, so the next pull keeps it as edited, as it would any edit.
 */

/** The staging folder, in the project (a rename never crosses file systems) and ignored by its .gitignore. */
export const STAGE_DIR = '.pipewright-pull-stage';
const JOURNAL = 'journal.json';

/** A file to put in place, and the sha256 of what must be there for that (null: nothing may be there). */
export interface StagedWrite {
  readonly path: string;
  readonly text: string;
  readonly before: string | null;
}

/** What one pull changes in the project, switched in one step. */
export interface SwitchPlan {
  readonly writes: readonly StagedWrite[];
  /** Files to remove, each only while it still holds the bytes whose sha256 is given. */
  readonly removals: ReadonlyArray<{ readonly path: string; readonly sha256: string }>;
  /** Pull's state file (relative to the project) and its text, written once every file is in place. */
  readonly state: { readonly path: string; readonly text: string };
}

interface Journal {
  readonly generator: 'pipewright-pull-stage';
  readonly version: 1;
  readonly writes: ReadonlyArray<{ path: string; staged: string; before: string | null }>;
  readonly removals: SwitchPlan['removals'];
  readonly state: SwitchPlan['state'];
}

/** Writes a file and waits until its bytes are on disk: the journal may then name it. */
function writeDurably(file: string, text: string): void {
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The sha256 of a file's text, or null when there is none. */
function shaOf(file: string): string | null {
  try {
    return sha256(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Stages every file of `plan` in the project `dir`, commits the journal, and switches them into place. */
export function stageAndSwitch(dir: string, plan: SwitchPlan): void {
  const stage = join(dir, STAGE_DIR);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  const writes = plan.writes.map(({ path, text, before }, at) => {
    const staged = `${at}.staged`;
    writeDurably(join(stage, staged), text);
    return { path, staged, before };
  });
  const journal: Journal = {
    generator: 'pipewright-pull-stage',
    version: 1,
    writes,
    removals: plan.removals,
    state: plan.state,
  };
  writeDurably(join(stage, `${JOURNAL}.tmp`), `${JSON.stringify(journal)}\n`);
  // The commit: from here on, this run or the next pull finishes the switch.
  renameSync(join(stage, `${JOURNAL}.tmp`), join(stage, JOURNAL));
  syncFolder(stage);
  finish(dir, journal);
}

/**
 * Finishes a switch an interrupted pull committed, or removes what it staged before committing. Called before a
 * pull reads the project (its config, its state). Answers what it did, or undefined when no pull was interrupted.
 */
export function finishInterrupted(dir: string): 'finished' | 'undone' | undefined {
  const stage = join(dir, STAGE_DIR);
  if (!existsSync(stage)) return undefined;
  const journal = readJournal(join(stage, JOURNAL));
  if (journal === undefined) {
    rmSync(stage, { recursive: true, force: true });
    return 'undone';
  }
  finish(dir, journal);
  return 'finished';
}

function readJournal(file: string): Journal | undefined {
  let parsed: Partial<Journal>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Journal>;
  } catch {
    // No journal (the pull stopped before its commit): nothing of it reached the project.
    return undefined;
  }
  const valid =
    parsed.generator === 'pipewright-pull-stage' &&
    Array.isArray(parsed.writes) &&
    Array.isArray(parsed.removals) &&
    typeof parsed.state?.path === 'string' &&
    typeof parsed.state.text === 'string';
  return valid ? (parsed as Journal) : undefined;
}

/** Applies a committed journal; each step may already have been done by the run that was interrupted. */
function finish(dir: string, journal: Journal): void {
  const stage = join(dir, STAGE_DIR);
  // Paths read back from a file in the project: proved inside it again, as any path from outside.
  const inside = (path: string): string | undefined => {
    const confined = confinedPath(dir, path);
    return 'path' in confined ? confined.path : undefined;
  };
  for (const { path, staged, before } of journal.writes) {
    const from = join(stage, String(staged));
    if (!existsSync(from)) continue;
    const target = inside(path);
    if (target !== undefined && shaOf(target) === before) {
      mkdirSync(dirname(target), { recursive: true });
      renameSync(from, target);
    }
  }
  for (const { path, sha256: expected } of journal.removals) {
    const target = inside(path);
    if (target !== undefined && shaOf(target) === expected) rmSync(target, { force: true });
  }
  const state = inside(journal.state.path);
  if (state !== undefined) {
    writeDurably(join(stage, 'state.tmp'), journal.state.text);
    renameSync(join(stage, 'state.tmp'), state);
  }
  rmSync(stage, { recursive: true, force: true });
}
