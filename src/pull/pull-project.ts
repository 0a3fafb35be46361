import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '../compile/layout.js';
import { confinedPath } from '../core/confined-path.js';
import { KINDS } from '../catalog/kinds.js';
import { importedFrom } from '../import/module-header.js';
import { planWrites, type FileOutcome } from '../import/edited-files.js';

export { shortDiff, type FileOutcome } from '../import/edited-files.js';
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

/** The files of a pull to write, and what happens to each file of the project it names. */
export interface PulledFilesPlan {
  readonly outcomes: FileOutcome[];
  /** What to put in place (pull-stage.ts switches them in one step), each with the sha256 of what is there now. */
  readonly writes: StagedWrite[];
}

/** What a pull does to each of its files: import's plan (edited-files.ts) against the hashes of the last pull. */
export const planPulledFiles = (
  dir: string,
  files: ReadonlyArray<{ path: string; text: string }>,
  previous: PullState | undefined,
  force: boolean,
): PulledFilesPlan => planWrites(dir, files, previous?.files, force);

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
