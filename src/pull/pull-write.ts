import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { kindRow } from '../catalog/kinds.js';
import { keyName, outputPathOf, type ResourceKey } from '../catalog/resource-key.js';
import { diagnosticOf, type Diagnostic } from '../core/diagnostics.js';
import type { PublishItem } from '../publish/publish-item.js';
import { PublishedRecord } from '../publish/published-record.js';
import type { ImportedEstate } from './pull-import.js';
import { unmodelledPath } from './pull-import.js';
import {
  movedModules,
  pathInScope,
  planPulledFiles,
  PULL_STATE_FILE,
  pullStateText,
  readPullState,
  type FileOutcome,
} from './pull-project.js';
import { readyFiles } from './pull-ready.js';
import { stageAndSwitch } from './pull-stage.js';
import { printable } from '../core/printable.js';
import type { PullScope, Refused, Skipped } from './pull-reads.js';

type WarningCode =
  'pull-unmodelled' | 'pull-skipped' | 'pull-edited' | 'pull-overwritten' | 'pull-deleted' | 'pull-held';

/** Whether anything is at `path` itself, a symbolic link included. */
const lexists = (path: string): boolean => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

/** A warning of pull, on a file of the project when it has one. */
const warning = (out: string, code: WarningCode, message: string, file?: string, hint?: string): Diagnostic =>
  diagnosticOf(code, 'warning', {
    message,
    path: [],
    ...(file ? { location: { file: join(out, file) } } : {}),
    ...(hint ? { hint } : {}),
  });

/** What was skipped and what is kept as YAML, said before anything is written. */
export function readWarnings(
  out: string,
  skipped: readonly Skipped[],
  refused: readonly Refused[],
  estate: ImportedEstate,
): Diagnostic[] {
  return [
    ...skipped.map((s) => warning(out, 'pull-skipped', `${kindRow(s.kind).label} ${s.name} skipped: ${s.reason}`)),
    // An identity the platform's rules refuse would become a path, a document holding the key would put it in the
    // repository: nothing is written for either, and the run fails.
    ...refused.map((r) =>
      diagnosticOf(r.code ?? 'unsafe-identity', 'error', {
        message: `${kindRow(r.kind).label} ${printable(r.name)} is not pulled: ${r.reason}`,
        path: [],
        hint:
          r.code === 'key-in-document'
            ? 'rotate the API key (it is stored on the platform in clear), remove it from the document, then pull again; the other resources are pulled'
            : 'rename it on the platform; nothing is written for it, the other resources are pulled',
      }),
    ),
    ...estate.unmodelled.map((item) =>
      warning(
        out,
        'pull-unmodelled',
        `${kindRow(item.kind).label} ${item.name} is kept as YAML, not code: ${item.reason}`,
        unmodelledPath(item),
        'it is not compiled or published; edit it in the platform, or write it with the builders',
      ),
    ),
    // What the platform holds and pipewright refuses: written so that the project compiles, and said.
    ...estate.held.map((held) =>
      warning(
        out,
        'pull-held',
        `${kindRow(held.document.key.kind).label} ${keyName(held.document.key)} is held by the platform as pipewright refuses it (${held.code}): ${held.messages.join('; ')}; kept in its module as a suppression`,
        held.module,
        'fix the document (or fix it in the platform and pull again), then remove the .suppress() call',
      ),
    ),
  ];
}

/** What writing the pulled files did to the project. */
export interface ProjectChanges {
  readonly outcomes: FileOutcome[];
  /** Files an earlier pull wrote whose resource is no longer on the platform (kept). */
  readonly deleted: string[];
  /** Modules an earlier pull wrote under another path, removed (this pull wrote their resource's module anew). */
  readonly moved: string[];
  readonly warnings: Diagnostic[];
}

/**
 * Writes the files into the project `out` (edits by hand kept unless `force`), removes modules that moved, writes
 * package.json, tsconfig.json and .gitignore where the project has none, and records what was written in pull's
 * own state file: all of it staged, then switched into place in one step (pull-stage.ts), so that a pull
 * interrupted at any point and the next pull converge.
 */
export function writeProject(
  out: string,
  files: ImportedEstate['files'],
  force: boolean,
  state: { baseUrl: string; accountId: string; scope: PullScope },
): ProjectChanges {
  const warnings: Diagnostic[] = [];
  const previous = readPullState(out);
  const { outcomes, writes } = planPulledFiles(out, files, previous, force);
  for (const outcome of outcomes)
    if (outcome.outcome === 'kept')
      warnings.push(
        warning(
          out,
          'pull-edited',
          `${outcome.path} was edited since the last pull and differs from the platform: kept as it is\n${outcome.diff}`,
          outcome.path,
          "bring the platform's change into it by hand, or pull again with --force to replace it",
        ),
      );
    else if (outcome.outcome === 'overwritten')
      // The last place the replaced edits are seen: said, not only counted.
      warnings.push(
        warning(
          out,
          'pull-overwritten',
          `${outcome.path} was edited since the last pull: replaced with the platform's (--force)\n${outcome.diff}`,
          outcome.path,
          'get the edits back from version control if they were meant to stay',
        ),
      );
  const now = new Set(files.map((file) => file.path));
  const gone = Object.keys(previous?.files ?? {}).filter(
    (path) => !now.has(path) && path !== 'pipewright.config.ts' && pathInScope(path, state.scope),
  );
  // A module of a resource still there, now written under another path: the old copy goes unless edited.
  const moved = movedModules(out, gone, files, previous);
  for (const { path, now: replacement } of moved.edited)
    warnings.push(
      warning(
        out,
        'pull-edited',
        `${path} was edited since the last pull, and its resource's module is now ${replacement}: kept as it is`,
        path,
        `bring its edits into ${replacement}, then delete it (both define the same resource)`,
      ),
    );
  const removed = moved.removed.map((entry) => entry.path);
  const deleted = gone.filter((path) => !removed.includes(path) && !moved.edited.some((e) => e.path === path));
  for (const path of deleted)
    warnings.push(
      warning(
        out,
        'pull-deleted',
        `${path}: its resource is no longer on the platform (kept)`,
        path,
        'delete the module if the resource is gone for good; publish would create it again',
      ),
    );
  // The project's own files, never pull's: written where there is none, and not in pull's state.
  // Anything there counts, a link included (even one leading nowhere): never written through, never replaced.
  const ready = readyFiles(out).filter(({ path }) => !lexists(join(out, path)));
  for (const { path } of ready) outcomes.push({ path, outcome: 'created' });
  stageAndSwitch(out, {
    writes: [...writes, ...ready.map((file) => ({ ...file, before: null }))],
    removals: moved.removed,
    state: { path: PULL_STATE_FILE, text: pullStateText(state, files, outcomes, previous) },
  });
  return { outcomes, deleted, moved: removed, warnings };
}

/** Whether a resource is in the scope a pull read: all of the account, one organization, or one project. */
export function scopeCovers(scope: PullScope, id: ResourceKey): boolean {
  if (scope.org === undefined) return true;
  if (id.org !== scope.org) return false;
  if (scope.project === undefined) return true;
  return id.kind === 'project' ? id.identifier === scope.project : id.project === scope.project;
}

/**
 * The publish record of what the platform holds, so the first publish's drift check starts from it: the entries
 * of the scope read are replaced, those of other scopes (another organization pulled into the same folder) kept.
 */
export async function recordPulled(
  outDir: string,
  connection: { baseUrl: string; accountId: string },
  estate: ImportedEstate,
  scope: PullScope,
): Promise<Diagnostic[]> {
  const items: PublishItem[] = estate.imported.map((document) => ({
    file: outputPathOf(document.key),
    document: { id: document.key, yaml: document.yaml, value: document.value },
  }));
  const warnings: Diagnostic[] = [];
  const record = await PublishedRecord.open(outDir, connection, (message) =>
    warnings.push(diagnosticOf('publish-record', 'warning', { message, path: [] })),
  );
  record.replaceScope((id) => scopeCovers(scope, id), items);
  await record.compact();
  return warnings;
}
