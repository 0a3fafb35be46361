import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { kindRow, publishRank, type ResourceKind } from '../catalog/kinds.js';
import { keyName, outputPathOf } from '../catalog/resource-key.js';
import { DEFAULT_OUT_DIR, type PipewrightConfig } from '../compile/config.js';
import { loadConfig } from '../compile/load-config.js';
import { DiagnosticError, diagnosticOf, formatDiagnostics, type Diagnostic } from '../core/diagnostics.js';
import { safeFileName } from '../core/confined-path.js';
import type { ImportInput } from '../import/import-yaml.js';
import type { Client } from '../platform/client.js';
import { ApiError } from '../platform/envelope.js';
import type { PublishItem } from '../publish/publish-item.js';
import type { DocumentResult } from '../publish/publish.js';
import { recordPath, writeRecord } from '../publish/published-record.js';
import { pullProgressText } from '../pull/progress-text.js';
import { readEstate, type PulledDocument, type PullReadResult, type Unreadable } from '../pull/pull-reads.js';
import { authAdvice, gitFileName, resolveConnection } from '../publish/settings.js';
import { EXIT, useColor } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { requireOptional } from './optional-dependencies.js';
import { asUserError, platformClient, PREFLIGHT_HINT } from './publish-run.js';
import { readPullState, removeMoved, writePulledFiles, writePullState, type FileOutcome } from './pull-project.js';

export interface PullFlags {
  readonly baseUrl?: string;
  readonly account?: string;
  readonly apiKeyFile?: string;
  readonly org?: string;
  readonly project?: string;
  readonly out: string;
  readonly force?: boolean;
  readonly json?: boolean;
  readonly rate?: number;
  readonly concurrency?: number;
  readonly debug?: boolean;
}

/** Failures that say something about the key or the platform as a whole: publish's advice for them applies. */
const STOPPING: ReadonlySet<string> = new Set([
  'unauthorized',
  'forbidden',
  'untrusted-certificate',
  'unreachable',
  'gone',
]);
/** Where documents pipewright cannot model go, beside the project's code (no include glob reads them). */
const UNMODELLED_DIR = 'unmodelled';
/** Import writes here first; pull then brings into the project only what changed. */
const STAGING_DIR = '.pipewright-pull';
/** Import rounds: a round that refuses documents sets them aside and imports the rest again. */
const IMPORT_ROUNDS = 4;

/** A file's name for a document pipewright keeps as YAML: its compiled path, or the kind and platform name. */
const unmodelledPath = (item: Unreadable) => {
  // The name is the platform's: each of its segments becomes one safe file name (`..` included).
  const segments = item.name.replace(/[^\w.@/-]/g, '_').split('/');
  const names = segments.map((segment, at) => safeFileName(segment, at === segments.length - 1 ? '.yaml' : '').name);
  return [UNMODELLED_DIR, kindRow(item.kind).folder, ...names].join('/');
};

/**
 * Imports the documents in project mode. Documents import refuses (its diagnostics name their input) are set
 * aside as unmodelled, with import's own diagnostics, and the rest are imported again.
 */
async function importDocuments(
  documents: readonly PulledDocument[],
  staging: string,
  config: Record<string, unknown>,
): Promise<{
  files: Array<{ path: string; text: string }>;
  imported: PulledDocument[];
  refused: Array<{ document: PulledDocument; diagnostics: Diagnostic[] }>;
  warnings: Diagnostic[];
}> {
  const { importYaml } = await import('../import/import-yaml.js');
  let remaining = [...documents];
  const refused: Array<{ document: PulledDocument; diagnostics: Diagnostic[] }> = [];
  for (let round = 0; ; round++) {
    const byFile = new Map(remaining.map((document) => [`platform/${outputPathOf(document.key)}`, document]));
    // The stable version of a template is the platform's fact, not the YAML's: its module says `stable: true`.
    const inputs: ImportInput[] = [...byFile].map(([file, document]) => ({
      file,
      text: document.yaml,
      ...(document.stable ? { publishFlags: { stable: true as const } } : {}),
    }));
    rmSync(staging, { recursive: true, force: true });
    if (inputs.length === 0) return { files: [], imported: [], refused, warnings: [] };
    try {
      const result = await importYaml({ inputs, outDir: staging, mode: 'project', config });
      const files = result.written.map((path) => ({ path, text: readFileSync(join(staging, path), 'utf8') }));
      return { files, imported: remaining, refused, warnings: result.warnings };
    } catch (error) {
      if (!(error instanceof DiagnosticError) || round + 1 >= IMPORT_ROUNDS) throw error;
      const blamed = new Map<string, Diagnostic[]>();
      for (const diagnostic of error.diagnostics) {
        const file = diagnostic.location?.file;
        if (file && byFile.has(file)) blamed.set(file, [...(blamed.get(file) ?? []), diagnostic]);
      }
      // Problems pull cannot place on a document: not the platform's documents' fault.
      if (blamed.size === 0) throw error;
      for (const [file, diagnostics] of blamed) refused.push({ document: byFile.get(file)!, diagnostics });
      remaining = remaining.filter((document) => !blamed.has(`platform/${outputPathOf(document.key)}`));
    }
  }
}

export async function runPull(flags: PullFlags): Promise<number> {
  if (flags.project && !flags.org)
    throw DiagnosticError.of(
      'usage',
      '--project needs --org (a project belongs to an organization)',
      'pass --org <org> --project <project>',
    );
  requireOptional(['ts-morph', 'prettier'], 'pipewright pull');
  const out = flags.out;
  const tty = Boolean(process.stderr.isTTY) && !flags.json;
  let keySource = 'HARNESS_API_KEY';
  let read: PullReadResult;
  let client: Client;
  let existing: PipewrightConfig = {};
  try {
    // Pulling again: the project's own config says where it came from (flags and environment still win).
    const { config } = existsSync(out) ? await loadConfig(out) : { config: {} };
    existing = config;
    const connection = await resolveConnection(flags, config);
    keySource = connection.keySource;
    client = platformClient(connection, flags, config);
    // One request first: a wrong address fails once, at once.
    const found = await client.probe({
      kind: 'project',
      org: flags.org ?? 'default',
      identifier: flags.project ?? 'default',
    });
    if (!found.ok)
      throw DiagnosticError.of(
        'no-platform',
        `no platform at ${client.baseUrl}: ${found.detail}`,
        PREFLIGHT_HINT[found.problem],
      );
    if (!flags.json)
      process.stderr.write(
        `pulling ${flags.project ? `project ${flags.org}/${flags.project}` : flags.org ? `organization ${flags.org}` : 'the whole account'} from ${client.baseUrl} (account ${client.accountId}) into ${out}\n`,
      );
    let drawn = 0;
    read = await readEstate(
      client,
      { ...(flags.org ? { org: flags.org } : {}), ...(flags.project ? { project: flags.project } : {}) },
      {
        concurrency: flags.concurrency ?? 4,
        onProgress: (progress) => {
          // A redraw at most every 100 ms: a thousand pages would otherwise flood a slow terminal.
          if (!tty || Date.now() - drawn < 100) return;
          drawn = Date.now();
          process.stderr.write(`\r\x1b[2K${pullProgressText(progress, (process.stderr.columns || 100) - 1)}`);
        },
      },
    );
    if (tty) process.stderr.write('\r\x1b[2K');
  } catch (error) {
    if (tty) process.stderr.write('\r\x1b[2K');
    if (error instanceof ApiError) {
      // Nothing is written from a partial read: a project missing what the platform holds would publish as deletions.
      const advice = STOPPING.has(error.kind)
        ? authAdvice(error.kind as 'unauthorized', keySource, 'pull')
        : error.kind === 'transient'
          ? 'the platform kept failing this request after every retry (429, 5xx or no answer): nothing was written; check that it is up, then pull again (with a lower --rate if it kept answering 429)'
          : 'nothing was written; pull again once the request above can succeed';
      throw DiagnosticError.of(
        'request-failed',
        `pull stopped: ${error.message}${error.correlationId ? ` (correlationId ${error.correlationId})` : ''}`,
        advice,
      );
    }
    throw asUserError(error);
  }

  const diagnostics: Diagnostic[] = [];
  const warn = (
    code: 'pull-unmodelled' | 'pull-skipped' | 'pull-edited' | 'pull-overwritten' | 'pull-deleted',
    message: string,
    file?: string,
    hint?: string,
  ) =>
    diagnostics.push(
      diagnosticOf(code, 'warning', {
        message,
        path: [],
        ...(file ? { location: { file: join(out, file) } } : {}),
        ...(hint ? { hint } : {}),
      }),
    );
  for (const skipped of read.skipped)
    warn('pull-skipped', `${kindRow(skipped.kind).label} ${skipped.name} skipped: ${skipped.reason}`);
  for (const refused of read.refused)
    diagnostics.push(
      diagnosticOf('unsafe-identity', 'error', {
        message: `${kindRow(refused.kind).label} ${JSON.stringify(refused.name)} is not pulled: ${refused.reason}`,
        path: [],
        hint: 'rename it on the platform; nothing is written for it, the other resources are pulled',
      }),
    );

  // Where each Git-stored document lives, for publish (config gitFiles).
  const gitFiles = Object.fromEntries(
    read.documents
      .filter((document) => document.git)
      .map((document) => [
        gitFileName(document.key),
        {
          connector: document.git!.connectorRef,
          repo: document.git!.repoName,
          branch: document.git!.branch,
          filePath: document.git!.filePath,
        },
      ])
      .sort(([a], [b]) => (a! < b! ? -1 : 1)),
  );
  const config = {
    baseUrl: client.baseUrl,
    accountId: client.accountId,
    ...(Object.keys(gitFiles).length ? { gitFiles } : {}),
  };
  const staging = join(out, STAGING_DIR);
  let imported: Awaited<ReturnType<typeof importDocuments>>;
  try {
    imported = await importDocuments(read.documents, staging, config);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const unmodelled: Unreadable[] = [
    ...read.unreadable,
    ...imported.refused.map(({ document, diagnostics: found }) => ({
      kind: document.key.kind,
      name: keyName(document.key),
      text: document.yaml,
      reason: `import cannot write it as code: ${found
        .map((d) => d.message)
        .slice(0, 3)
        .join('; ')}`,
    })),
  ];
  const yamlFiles = unmodelled.map((item) => ({
    path: unmodelledPath(item),
    text: item.text.endsWith('\n') ? item.text : `${item.text}\n`,
  }));
  for (const item of unmodelled)
    warn(
      'pull-unmodelled',
      `${kindRow(item.kind).label} ${item.name} is kept as YAML, not code: ${item.reason}`,
      unmodelledPath(item),
      'it is not compiled or published; edit it in the platform, or write it with the builders',
    );

  const previous = readPullState(out);
  const files = [...imported.files, ...yamlFiles];
  const outcomes = writePulledFiles(out, files, previous, flags.force ?? false);
  for (const outcome of outcomes)
    if (outcome.outcome === 'kept')
      warn(
        'pull-edited',
        `${outcome.path} was edited since the last pull and differs from the platform: kept as it is\n${outcome.diff}`,
        outcome.path,
        "bring the platform's change into it by hand, or pull again with --force to replace it",
      );
    else if (outcome.outcome === 'overwritten')
      // The last place the replaced edits are seen: said, not only counted.
      warn(
        'pull-overwritten',
        `${outcome.path} was edited since the last pull: replaced with the platform's (--force)\n${outcome.diff}`,
        outcome.path,
        'get the edits back from version control if they were meant to stay',
      );
  const now = new Set(files.map((file) => file.path));
  const gone = Object.keys(previous?.files ?? {}).filter((path) => !now.has(path) && path !== 'pipewright.config.ts');
  // A module of a resource still there, now written under another path: the old copy goes unless edited.
  const moved = removeMoved(out, gone, files, previous);
  for (const { path, now: replacement } of moved.edited)
    warn(
      'pull-edited',
      `${path} was edited since the last pull, and its resource's module is now ${replacement}: kept as it is`,
      path,
      `bring its edits into ${replacement}, then delete it (both define the same resource)`,
    );
  const deleted = gone.filter((path) => !moved.removed.includes(path) && !moved.edited.some((e) => e.path === path));
  for (const path of deleted)
    warn(
      'pull-deleted',
      `${path}: its resource is no longer on the platform (kept)`,
      path,
      'delete the module if the resource is gone for good; publish would create it again',
    );
  writePullState(
    out,
    {
      baseUrl: client.baseUrl,
      accountId: client.accountId,
      scope: { ...(flags.org ? { org: flags.org } : {}), ...(flags.project ? { project: flags.project } : {}) },
    },
    files,
    outcomes,
    previous,
  );

  // The publish record: what the platform holds, so the first publish's drift check starts from it.
  const items: PublishItem[] = imported.imported.map((document) => ({
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
  // Beside the folder publish reads: the project's own outDir when it has a config of its own already.
  const outDir = join(out, existing.outDir ?? DEFAULT_OUT_DIR);
  await writeRecord(outDir, { baseUrl: client.baseUrl, accountId: client.accountId }, new Map(), items, results);

  const count = (what: FileOutcome['outcome']) => outcomes.filter((o) => o.outcome === what).length;
  const perKind = new Map<ResourceKind, number>();
  for (const document of imported.imported) perKind.set(document.key.kind, (perKind.get(document.key.kind) ?? 0) + 1);
  const kinds = Object.fromEntries(
    [...perKind].sort(([a], [b]) => publishRank(a) - publishRank(b)).map(([kind, n]) => [kind, n]),
  );
  const warnings = [...imported.warnings, ...diagnostics];
  if (flags.json) {
    printEnvelope('pull', read.refused.length === 0, warnings, {
      outDir: out,
      requests: client.requests,
      documents: imported.imported.length,
      kinds,
      unmodelled: unmodelled.map((item) => ({ kind: item.kind, name: item.name, file: unmodelledPath(item) })),
      skipped: read.skipped,
      // Which version of each template is the stable one, as the platform says (its module says `stable: true` too).
      stableTemplates: imported.imported.filter((document) => document.stable).map((document) => keyName(document.key)),
      deleted,
      // Modules an earlier pull wrote under another path, removed (this pull wrote their resource's module anew).
      moved: moved.removed,
      files: outcomes.map(({ path, outcome }) => ({ path, outcome })),
      record: recordPath(outDir),
    });
    return read.refused.length ? EXIT.failed : EXIT.ok;
  }
  if (warnings.length) process.stderr.write(formatDiagnostics(warnings, { color: useColor(process.stderr) }));
  const kindText = [...perKind]
    .sort(([a], [b]) => publishRank(a) - publishRank(b))
    .map(([kind, n]) => `${n} ${n === 1 ? kindRow(kind).label : kindRow(kind).plural}`);
  process.stdout.write(
    [
      `pulled ${imported.imported.length} document${imported.imported.length === 1 ? '' : 's'}${kindText.length ? ` (${kindText.join(', ')})` : ''} in ${client.requests} request${client.requests === 1 ? '' : 's'}`,
      `files: ${count('created')} created, ${count('updated')} updated, ${count('unchanged')} unchanged, ${count('kept')} kept (edited by hand), ${count('overwritten')} overwritten`,
      ...(unmodelled.length ? [`${unmodelled.length} kept as YAML in ${join(out, UNMODELLED_DIR)}`] : []),
      ...(read.skipped.length ? [`${read.skipped.length} skipped (v1 pipelines)`] : []),
      ...(deleted.length ? [`${deleted.length} no longer on the platform`] : []),
      ...(moved.removed.length
        ? [
            `${moved.removed.length} module${moved.removed.length === 1 ? '' : 's'} moved (the old path${moved.removed.length === 1 ? '' : 's'} removed)`,
          ]
        : []),
      `next: cd ${out} && pipewright compile && pipewright publish --dry-run`,
      '',
    ].join('\n'),
  );
  return read.refused.length ? EXIT.failed : EXIT.ok;
}
