import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../compile/layout.js';
import { confinedPath, confinedPathOrThrow } from '../core/confined-path.js';
import { KINDS } from '../catalog/kinds.js';
import { importedFrom } from '../import/module-header.js';
import type { StagedWrite } from './pull-stage.js';

/**
 * Pull's own record, `pipewright.pull.json` at the project's root: the address, account and scope pulled, and the
 * sha256 of every file pull wrote, so that a later pull tells a module the user edited (its bytes differ from what
 * pull wrote) from one only the platform changed, and names what the platform no longer has.
 */

export const PULL_STATE_FILE = 'pipewright.pull.json';

export interface PullState {
  readonly generator: 'pipewright-pull';
  readonly version: 1;
  readonly baseUrl: string;
  readonly accountId: string;
  readonly scope: { readonly org?: string; readonly project?: string };
  /** Every file pull wrote, relative to the project, and the sha256 of what it wrote. */
  readonly files: Readonly<Record<string, string>>;
}

export function readPullState(dir: string): PullState | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, PULL_STATE_FILE), 'utf8')) as Partial<PullState>;
    return parsed.generator === 'pipewright-pull' && parsed.files && typeof parsed.files === 'object'
      ? (parsed as PullState)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What happened to one file of the pulled project. */
export interface FileOutcome {
  readonly path: string;
  readonly outcome: 'created' | 'updated' | 'unchanged' | 'kept' | 'overwritten';
  /** `kept` and `overwritten`: the lines that differ (the user's, then the platform's). */
  readonly diff?: string;
}

/**
 * The lines that differ between two texts, as `-` (the first's) and `+` (the second's) lines under `@@ line N`
 * headers: a longest-common-subsequence diff of the lines, at most `maxLines` of them shown. Modules are small;
 * past 4000 lines a side only the changed range between the common start and end is shown.
 */
export function shortDiff(mine: string, theirs: string, maxLines = 20): string {
  const a = mine.split('\n');
  const b = theirs.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const x = a.slice(start, endA);
  const y = b.slice(start, endB);
  const lines: Array<{ sign: '-' | '+'; at: number; text: string }> = [];
  if (x.length > 4000 || y.length > 4000) {
    x.forEach((text, i) => lines.push({ sign: '-', at: start + i, text }));
    y.forEach((text, i) => lines.push({ sign: '+', at: start + i, text }));
  } else {
    // lengths[i][j]: the longest common subsequence of x[i..] and y[j..].
    const lengths = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
    for (let i = x.length - 1; i >= 0; i--)
      for (let j = y.length - 1; j >= 0; j--)
        lengths[i]![j] =
          x[i] === y[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    let i = 0;
    let j = 0;
    while (i < x.length || j < y.length) {
      if (i < x.length && j < y.length && x[i] === y[j]) {
        i++;
        j++;
      } else if (j < y.length && (i === x.length || lengths[i]![j + 1]! >= lengths[i + 1]![j]!))
        lines.push({ sign: '+', at: start + i, text: y[j++]! });
      else lines.push({ sign: '-', at: start + i, text: x[i++]! });
    }
  }
  const out: string[] = [];
  let last = -2;
  for (const line of lines.slice(0, maxLines)) {
    if (line.at > last + 1) out.push(`@@ line ${line.at + 1}`);
    last = line.sign === '-' ? line.at : line.at - 1;
    out.push(`${line.sign} ${line.text}`);
  }
  if (lines.length > maxLines)
    out.push(`... ${lines.length - maxLines} more changed line${lines.length - maxLines === 1 ? '' : 's'}`);
  return out.join('\n');
}

/** The files of a pull to write, and what happens to each file of the project it names. */
export interface PulledFilesPlan {
  readonly outcomes: FileOutcome[];
  /** What to put in place (pull-stage.ts switches them in one step), each with the sha256 of what is there now. */
  readonly writes: StagedWrite[];
}

/**
 * Decides what a pull does to each of its files in the project: a file pull wrote before and nobody changed since
 * is replaced when the platform changed it; a file someone edited (its bytes are not what pull last wrote) is kept
 * unless `force`; an identical one is not touched. Nothing is written here.
 */
export function planPulledFiles(
  dir: string,
  files: ReadonlyArray<{ path: string; text: string }>,
  previous: PullState | undefined,
  force: boolean,
): PulledFilesPlan {
  const outcomes: FileOutcome[] = [];
  const writes: StagedWrite[] = [];
  // Every target proved inside the project before the first write (no link in it leads out).
  const targets = files.map(({ path }) => confinedPathOrThrow(dir, path));
  for (const [at, { path, text }] of files.entries()) {
    const target = targets[at]!;
    const current = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    if (current === text) {
      outcomes.push({ path, outcome: 'unchanged' });
      continue;
    }
    const ours = current !== undefined && previous?.files[path] === sha256(current);
    if (current !== undefined && !ours && !force) {
      outcomes.push({ path, outcome: 'kept', diff: shortDiff(current, text) });
      continue;
    }
    writes.push({ path, text, before: current === undefined ? null : sha256(current) });
    outcomes.push(
      current === undefined
        ? { path, outcome: 'created' }
        : ours
          ? { path, outcome: 'updated' }
          : { path, outcome: 'overwritten', diff: shortDiff(current, text) },
    );
  }
  return { outcomes, writes };
}

/** Pull's state after this pull (files kept as the user has them keep the hash pull last wrote), as its file's text. */
export function pullStateText(
  state: Omit<PullState, 'generator' | 'version' | 'files'>,
  written: ReadonlyArray<{ path: string; text: string }>,
  outcomes: readonly FileOutcome[],
  previous: PullState | undefined,
): string {
  const kept = new Set(outcomes.filter((o) => o.outcome === 'kept').map((o) => o.path));
  const unsorted: Record<string, string> = {};
  // What an earlier pull of another scope wrote (another organization into the same folder) stays known.
  for (const [path, hash] of Object.entries(previous?.files ?? {}))
    if (!pathInScope(path, state.scope)) unsorted[path] = hash;
  for (const { path, text } of written) {
    const before = previous?.files[path];
    if (kept.has(path)) {
      if (before) unsorted[path] = before;
    } else unsorted[path] = sha256(text);
  }
  const files = Object.fromEntries(Object.entries(unsorted).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as Record<
    string,
    string
  >;
  const record: PullState = { generator: 'pipewright-pull', version: 1, ...state, files };
  return `${JSON.stringify(record, null, 2)}\n`;
}

/**
 * Of the files the last pull wrote that this one did not (`gone`), those whose document this pull wrote under
 * another path (their first line names the same YAML: pipewright changed how it names modules). Two modules of one
 * resource would be defined twice: one nobody edited since is to be removed (`removed`, with the sha256 it must
 * still have when the switch removes it); an edited one is left to the user (`edited`, with the path that
 * replaces it).
 */
export function movedModules(
  dir: string,
  gone: readonly string[],
  written: ReadonlyArray<{ path: string; text: string }>,
  previous: PullState | undefined,
): { removed: Array<{ path: string; sha256: string }>; edited: Array<{ path: string; now: string }> } {
  const bySource = new Map(
    written.flatMap((file) => {
      const source = importedFrom(file.text);
      return source === undefined ? [] : [[source, file.path] as const];
    }),
  );
  const removed: Array<{ path: string; sha256: string }> = [];
  const edited: Array<{ path: string; now: string }> = [];
  for (const path of gone) {
    // A path read from the pull state file: never one outside the project.
    const confined = confinedPath(dir, path);
    if ('problem' in confined) continue;
    const target = confined.path;
    const text = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
    const now = text === undefined ? undefined : bySource.get(importedFrom(text) ?? '');
    if (now === undefined) continue;
    if (previous?.files[path] === sha256(text!)) removed.push({ path, sha256: previous.files[path] });
    else edited.push({ path, now });
  }
  return { removed, edited };
}

const KIND_FOLDERS = new Map<string, (typeof KINDS)[number]>(KINDS.map((row) => [row.folder, row]));

/**
 * Whether a file of the project belongs to a pull of `scope`: a module's path names its resource's org and project
 * (`<kind folder>/<org>/<project>/...`, `projects/<org>/<project>.ts`, `_` for none), as import's project mode
 * writes it; anything else (the config, the ready files, what is kept as YAML) belongs to every pull. So a pull of
 * one organization neither takes another's modules for deleted nor forgets their hashes.
 */
export function pathInScope(path: string, scope: { readonly org?: string; readonly project?: string }): boolean {
  if (scope.org === undefined) return true;
  const [folder, org, second] = path.split('/');
  if (folder === 'projects') {
    if (org !== scope.org) return false;
    return scope.project === undefined || second === `${scope.project}.ts`;
  }
  const row = folder === undefined ? undefined : KIND_FOLDERS.get(folder);
  if (!row || org === undefined) return true;
  if (org !== scope.org) return false;
  if (scope.project === undefined) return true;
  return (row.scopes as readonly string[]).includes('project') && second === scope.project;
}
