import { join } from 'node:path';
import { kindRow } from '../catalog/kinds.js';
import { keyName, outputPathOf } from '../catalog/resource-key.js';
import { diagnosticOf, type Diagnostic } from '../core/diagnostics.js';
import type { PublishItem } from '../publish/publish-item.js';
import type { DocumentResult } from '../publish/publish.js';
import { writeRecord } from '../publish/published-record.js';
import type { ImportedEstate } from './pull-import.js';
import { unmodelledPath } from './pull-import.js';
import { readPullState, removeMoved, writePulledFiles, writePullState, type FileOutcome } from './pull-project.js';
import { printable } from '../core/printable.js';
import type { PullScope, Refused, Skipped } from './pull-reads.js';

type WarningCode = 'pull-unmodelled' | 'pull-skipped' | 'pull-edited' | 'pull-overwritten' | 'pull-deleted';

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
    // An identity the platform's rules refuse would become a path: nothing is written for it, and the run fails.
    ...refused.map((r) =>
      diagnosticOf('unsafe-identity', 'error', {
        message: `${kindRow(r.kind).label} ${printable(r.name)} is not pulled: ${r.reason}`,
        path: [],
        hint: 'rename it on the platform; nothing is written for it, the other resources are pulled',
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
 * Writes the files into the project `out` (edits by hand kept unless `force`), removes modules that moved, and
 * records what was written in pull's own state file.
 */
export function writeProject(
  out: string,
  files: ImportedEstate['files'],
  force: boolean,
  state: { baseUrl: string; accountId: string; scope: PullScope },
): ProjectChanges {
  const warnings: Diagnostic[] = [];
  const previous = readPullState(out);
  const outcomes = writePulledFiles(out, files, previous, force);
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
  const gone = Object.keys(previous?.files ?? {}).filter((path) => !now.has(path) && path !== 'pipewright.config.ts');
  // A module of a resource still there, now written under another path: the old copy goes unless edited.
  const moved = removeMoved(out, gone, files, previous);
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
  const deleted = gone.filter((path) => !moved.removed.includes(path) && !moved.edited.some((e) => e.path === path));
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
  writePullState(out, state, files, outcomes, previous);
  return { outcomes, deleted, moved: moved.removed, warnings };
}

/** The publish record of what the platform holds, so the first publish's drift check starts from it. */
export async function recordPulled(
  outDir: string,
  connection: { baseUrl: string; accountId: string },
  estate: ImportedEstate,
): Promise<void> {
  const items: PublishItem[] = estate.imported.map((document) => ({
    file: outputPathOf(document.key),
    document: { id: document.key, yaml: document.yaml, value: document.value },
  }));
  const results: DocumentResult[] = items.map((item) => ({
    file: item.file,
    kind: item.document.id.kind,
    name: keyName(item.document.id),
    id: item.document.id,
    outcome: 'unchanged',
  }));
  await writeRecord(outDir, connection, new Map(), items, results);
}
