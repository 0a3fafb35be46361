import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { identityProblem } from '../catalog/identity-rules.js';
import { keyOf, outputPathOf, type ResourceKey } from '../catalog/resource-key.js';
import { isRecord } from '../core/is-record.js';
import { toYaml } from '../yaml/emit-yaml.js';
import type { Client, ListedItem } from '../platform/client.js';
import { asText as text } from '../platform/answers.js';
import { readPlatformYaml } from '../platform/document.js';
import { dottedPath, valueAt } from '../core/document-path.js';
import { kindApi, storageOf, type ListScope, type Storage } from '../platform/endpoints.js';
import { SettingsError } from '../publish/settings.js';
import { runPool } from '../core/pool.js';
import { printable } from '../core/printable.js';

/**
 * What `pipewright pull` reads: every resource of a scope of the account, with the list calls of
 * platform-facts-3.md §3 (each kind's page parameters and shape, input sets and triggers per pipeline,
 * infrastructure definitions per environment, a stable sort), and a GET for those whose list holds no YAML
 * (pipelines, templates, input sets). Everything goes through publish's client: its rate limit, retries, and the
 * stop on a refused key.
 */

export interface PullScope {
  /** Only this organization; without it, every organization of the account (and the account's own resources). */
  readonly org?: string;
  /** Only this project of `org`; without it, every project of the organization (and the org's own resources). */
  readonly project?: string;
}

/** Where the platform keeps a document as a file in Git. */
interface GitLocation {
  readonly connectorRef: string;
  readonly repoName: string;
  readonly branch: string;
  readonly filePath: string;
}

export interface PulledDocument {
  readonly key: ResourceKey;
  /** The YAML as the platform holds it (comments kept), or the object of projects and connectors written as YAML. */
  readonly yaml: string;
  /** The parsed document, `{ <root key>: {...} }`: what publish will compare with. */
  readonly value: Record<string, unknown>;
  /** Documents stored in Git (pipelines, input sets, services, environments, infrastructures): where. */
  readonly git?: GitLocation;
  /** Templates: this version is the stable one. */
  readonly stable?: boolean;
}

/** A resource the platform returned that pipewright does not read as a document of its kind: kept as it came. */
export interface Unreadable {
  readonly kind: ResourceKind;
  readonly name: string;
  /** The text the platform returned (YAML, or the JSON of an object). */
  readonly text: string;
  readonly reason: string;
}

/** A resource pull leaves out on purpose (a pipeline in the v1 syntax). */
export interface Skipped {
  readonly kind: ResourceKind;
  readonly name: string;
  readonly reason: string;
}

export interface PullProgress {
  /** Per kind: list pages read and resources found. */
  readonly kinds: ReadonlyMap<ResourceKind, { pages: number; items: number }>;
  readonly requests: number;
}

/**
 * A resource whose identity (identifier, org, project, parent, version label) is not one the platform allows:
 * it is never written, since its names would become paths (`../../.github/workflows/evil`).
 */
export interface Refused {
  readonly kind: ResourceKind;
  /** The name as the platform gave it, for the message only. */
  readonly name: string;
  readonly reason: string;
  /** Why it is refused: its identity (the default), or the API key it holds (keyHolders). */
  readonly code?: 'unsafe-identity' | 'key-in-document';
}

export interface PullReadResult {
  readonly documents: PulledDocument[];
  readonly unreadable: Unreadable[];
  readonly skipped: Skipped[];
  readonly refused: Refused[];
  readonly progress: PullProgress;
}

export interface PullReadOptions {
  /** Lists and GETs in flight at once; default 4 (the rate limit is the bound that matters). */
  readonly concurrency?: number;
  readonly onProgress?: (progress: PullProgress) => void;
}

type Json = Record<string, unknown>;
const scopeName = (org: string | undefined, project: string | undefined) =>
  project ? `${org}/${project}` : org ? `${org}` : 'the account';

/** Reads of one list when its total keeps changing while it is paged (someone adding and deleting meanwhile). */
const LIST_PASSES = 3;

class PullRun {
  readonly documents: PulledDocument[] = [];
  readonly unreadable: Unreadable[] = [];
  readonly skipped: Skipped[] = [];
  readonly refused: Refused[] = [];
  readonly #kinds = new Map<ResourceKind, { pages: number; items: number }>();
  readonly #client: Client;
  readonly #options: PullReadOptions;

  constructor(client: Client, options: PullReadOptions) {
    this.#client = client;
    this.#options = options;
  }

  get progress(): PullProgress {
    return { kinds: this.#kinds, requests: this.#client.requests };
  }

  #count(kind: ResourceKind, pages: number, items: number): void {
    const counts = this.#kinds.get(kind) ?? { pages: 0, items: 0 };
    counts.pages += pages;
    counts.items += items;
    this.#kinds.set(kind, counts);
    this.#options.onProgress?.(this.progress);
  }

  pool<T>(items: readonly T[], worker: (item: T) => Promise<void>): Promise<void> {
    return runPool(items, this.#options.concurrency ?? 4, worker);
  }

  /**
   * Every item of a list, a page at a time. An item created meanwhile ahead of the page being read pushes one already
   * read onto the next page: it is kept once (a template's versions by their label). One deleted meanwhile ahead of it
   * pulls one not yet read onto a page already read: when the list's total changed while paging, it is read again
   * (at most LIST_PASSES times; the last pass is kept).
   */
  async list(scope: ListScope): Promise<ListedItem[]> {
    for (let pass = 1; ; pass++) {
      const all = new Map<string, ListedItem>();
      const totals = new Set<number>();
      for await (const page of this.#client.pages(scope)) {
        const before = all.size;
        for (const item of page.items) {
          const identity = `${item.identifier}@${item.versionLabel ?? ''}`;
          if (!all.has(identity)) all.set(identity, item);
        }
        if (page.totalItems !== undefined) totals.add(page.totalItems);
        this.#count(scope.kind, 1, pass === 1 ? all.size - before : 0);
      }
      if (totals.size <= 1 || pass >= LIST_PASSES) return this.#usable(scope, [...all.values()]);
    }
  }

  /** The items whose identity can become a path; the others are refused, saying why (`unsafe-identity`). */
  #usable(scope: ListScope, items: readonly ListedItem[]): ListedItem[] {
    return items.filter((item) => {
      const problem = identityProblem({
        kind: scope.kind,
        identifier: item.identifier,
        ...(item.versionLabel !== undefined ? { version: item.versionLabel } : {}),
      });
      if (problem)
        this.refused.push({
          kind: scope.kind,
          name: `${scopeName(scope.org, scope.project)}${scope.parent ? `/${scope.parent}` : ''}/${printable(item.identifier)}`,
          reason: problem,
        });
      return !problem;
    });
  }

  /** A document from a list item or a GET's `data`, in the shape of the kind's GET answer. */
  keep(
    kind: ResourceKind,
    data: unknown,
    extra: { git?: GitLocation; stable?: boolean; name: string },
  ): PulledDocument | undefined {
    const { rootKey } = kindRow(kind);
    const answer = kindApi(kind).answer;
    let yamlText: string;
    let value: Json | undefined;
    if ('object' in answer) {
      const body = valueAt(data, dottedPath(answer.object));
      if (!isRecord(body))
        return this.#unreadable(
          kind,
          extra.name,
          JSON.stringify(data, null, 2),
          `the answer has no ${answer.object} object`,
        );
      value = { [rootKey]: body };
      // As the platform reads YAML (1.1): a string such as `on` stays a string.
      yamlText = toYaml(value);
    } else {
      const found = valueAt(data, dottedPath(answer.yaml));
      if (typeof found !== 'string')
        return this.#unreadable(
          kind,
          extra.name,
          JSON.stringify(data, null, 2),
          `the answer has no ${answer.yaml} text`,
        );
      yamlText = found;
      try {
        const parsed = readPlatformYaml(found);
        value = isRecord(parsed) && Object.keys(parsed).length === 1 && isRecord(parsed[rootKey]) ? parsed : undefined;
      } catch (error) {
        return this.#unreadable(
          kind,
          extra.name,
          found,
          `its YAML does not read: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (!value)
        return this.#unreadable(
          kind,
          extra.name,
          found,
          `it is not a ${kindRow(kind).label} document (one root key, ${rootKey}:)`,
        );
      if (valueAt(data, dottedPath('entityValidityDetails.valid')) === false)
        return this.#unreadable(
          kind,
          extra.name,
          found,
          'the platform marks it invalid (entityValidityDetails.valid is false)',
        );
    }
    const key = keyOf(kind, value[rootKey]);
    if (!key) return this.#unreadable(kind, extra.name, yamlText, 'it has no identifier');
    const problem = identityProblem(key);
    if (problem) {
      this.refused.push({ kind, name: extra.name, reason: problem });
      return undefined;
    }
    const document: PulledDocument = {
      key,
      yaml: yamlText,
      value,
      ...(extra.git ? { git: extra.git } : {}),
      ...(extra.stable ? { stable: true } : {}),
    };
    this.documents.push(document);
    return document;
  }

  /** A resource kept as the text the platform answered (its YAML when the answer has one), not as a document. */
  keepAsText(kind: ResourceKind, data: unknown, name: string, reason: string): void {
    const answer = kindApi(kind).answer;
    const found = 'yaml' in answer ? valueAt(data, dottedPath(answer.yaml)) : undefined;
    this.#unreadable(kind, name, typeof found === 'string' ? found : JSON.stringify(data, null, 2), reason);
  }

  #unreadable(kind: ResourceKind, name: string, textOf: string, reason: string): undefined {
    this.unreadable.push({ kind, name, text: textOf, reason });
    return undefined;
  }

  /** GET one resource's `data` (on its Git branch when it lives in Git); undefined when deleted since the list. */
  async read(key: ResourceKey, branch: string | undefined): Promise<unknown> {
    return (await this.#client.readData(key, branch ? { branch } : {}))?.data;
  }
}

/** Where a GET says the document lives in Git, when it does and says so in full. */
function gitLocation(storage: Storage | undefined): GitLocation | undefined {
  if (storage?.store !== 'remote' || !storage.connectorRef || !storage.repoName || !storage.branch || !storage.filePath)
    return undefined;
  return {
    connectorRef: storage.connectorRef,
    repoName: storage.repoName,
    branch: storage.branch,
    filePath: storage.filePath,
  };
}

const scoped = (
  kind: ResourceKind,
  org: string | undefined,
  project: string | undefined,
  parent?: string,
): ListScope => ({
  kind,
  ...(org ? { org } : {}),
  ...(project ? { project } : {}),
  ...(parent ? { parent } : {}),
});

/** Kinds listed at every scope level they may live at (pipelines and their children only in projects). */
const SCOPE_KINDS: readonly ResourceKind[] = ['connector', 'service', 'environment', 'template'];

/**
 * Reads every resource in `scope`. A 401 or 403 (or a platform that went away) ends the read at once with the
 * client's error; a resource that cannot be read as a document is kept in `unreadable`, never dropped.
 */
export async function readEstate(
  client: Client,
  scope: PullScope,
  options: PullReadOptions = {},
): Promise<PullReadResult> {
  const run = new PullRun(client, options);
  if (scope.project && !scope.org) throw new TypeError('a project needs its organization');
  const orgs = scope.org
    ? [scope.org]
    : (await client.listOrganizations()).filter((org) => {
        const problem = identityProblem({ kind: 'project', identifier: org });
        if (problem)
          run.skipped.push({ kind: 'project', name: `${printable(org)}/*`, reason: `its organization: ${problem}` });
        return !problem;
      });
  const scopes: Array<{ org?: string; project?: string }> = [];
  if (!scope.org) scopes.push({});
  for (const org of orgs) {
    if (!scope.project) scopes.push({ org });
    if (scope.project) {
      const found = await client.readData({ kind: 'project', org, identifier: scope.project });
      if (!found)
        throw new SettingsError(
          `project ${scope.project} of organization ${org} does not exist on the platform`,
          'check --org and --project: they take identifiers (as in the console URL), not names',
          'invalid-setting',
        );
      run.keep('project', found.data, { name: `${org}/${scope.project}` });
      scopes.push({ org, project: scope.project });
      continue;
    }
    for (const item of await run.list(scoped('project', org, undefined))) {
      const kept = run.keep('project', item.data, { name: `${org}/${item.identifier}` });
      if (kept) scopes.push({ org, project: item.identifier });
    }
  }
  await run.pool(scopes, async ({ org, project }) => {
    for (const kind of SCOPE_KINDS) await readKind(run, kind, org, project);
    if (project) await readPipelines(run, org!, project);
  });
  // Answers arrive in any order: sorted, the same account reads as the same result (and pull writes the same project).
  const byPath = (document: PulledDocument) => outputPathOf(document.key);
  const byName = (item: { kind: ResourceKind; name: string }) => `${kindRow(item.kind).folder}/${item.name}`;
  return {
    documents: sortedBy(run.documents, byPath),
    unreadable: sortedBy(run.unreadable, byName),
    skipped: sortedBy(run.skipped, byName),
    refused: sortedBy(run.refused, byName),
    progress: run.progress,
  };
}

const sortedBy = <T>(items: readonly T[], sortKey: (item: T) => string): T[] =>
  items
    .map((item) => ({ item, key: sortKey(item) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map(({ item }) => item);

async function readKind(
  run: PullRun,
  kind: ResourceKind,
  org: string | undefined,
  project: string | undefined,
): Promise<void> {
  const items = await run.list(scoped(kind, org, project));
  const where = scopeName(org, project);
  if (kind === 'template') {
    // Every version is an item of its own; their YAML needs a GET each.
    await run.pool(items, async (item) => {
      const key: ResourceKey = {
        kind,
        identifier: item.identifier,
        ...(org ? { org } : {}),
        ...(project ? { project } : {}),
        ...(item.versionLabel ? { version: item.versionLabel } : {}),
      };
      // A version kept in Git is read on the branch its list item names, and goes with where it lives (connector,
      // repository, file, branch), so publish updates it in its file (docs/publishing.md, "Templates in Git").
      const listedDetails = (item.entity.gitDetails ?? {}) as Json;
      const inGit = item.entity.storeType === 'REMOTE';
      const found = await run.read(key, inGit ? text(listedDetails.branch) : undefined);
      const name = `${where}/${item.identifier}@${item.versionLabel ?? ''}`;
      if (found === undefined) return;
      const stable = item.entity.stableTemplate === true;
      const git = inGit ? gitOf(kind, found, text(item.entity.connectorRef)) : {};
      if (inGit && !git.git) {
        run.keepAsText(kind, found, name, storedInGit(listedDetails, NOT_IN_FULL, text(item.entity.connectorRef)));
        return;
      }
      run.keep(kind, found, { name, stable, ...git });
    });
    return;
  }
  await readListed(run, kind, items, { org, project }, where);
  if (kind === 'environment')
    await run.pool(items, async (environment) => {
      const infrastructures = await run.list(scoped('infrastructure', org, project, environment.identifier));
      await readListed(
        run,
        'infrastructure',
        infrastructures,
        { org, project, parent: environment.identifier },
        `${where}/${environment.identifier}`,
      );
    });
}

/**
 * Kinds whose list holds the document (services, environments, infrastructures, connectors). One stored in Git
 * (`storeType: REMOTE`) is read by GET: its list item holds the copy the platform saved at its last write
 * (ServiceRepositoryCustomImpl.java L245-269), not the file, which only a GET reads (L296-300). Where it lives
 * (connector, repository, file, and the branch the GET read) goes with it, so publish updates the file there
 * (docs/publishing.md, "Services, environments and infrastructure definitions in Git"); one whose answer does not
 * say where in full is kept as YAML, saying what it does say.
 */
async function readListed(
  run: PullRun,
  kind: ResourceKind,
  items: readonly ListedItem[],
  at: { org?: string | undefined; project?: string | undefined; parent?: string },
  where: string,
): Promise<void> {
  const inGit = items.filter((item) => item.entity.storeType === 'REMOTE');
  for (const item of items)
    if (!inGit.includes(item)) run.keep(kind, item.data, { name: `${where}/${item.identifier}` });
  await run.pool(inGit, async (item) => {
    const key: ResourceKey = {
      kind,
      identifier: item.identifier,
      ...(at.org ? { org: at.org } : {}),
      ...(at.project ? { project: at.project } : {}),
      ...(at.parent ? { parent: at.parent } : {}),
    };
    const found = await run.read(key, undefined);
    if (found === undefined) return;
    const name = `${where}/${item.identifier}`;
    const git = gitOf(kind, found, text(item.entity.connectorRef));
    if (git.git) {
      run.keep(kind, found, { name, ...git });
      return;
    }
    const entity = (valueAt(found, dottedPath(kindApi(kind).list.entity)) ?? {}) as Json;
    const details = (entity.entityGitDetails ?? item.entity.entityGitDetails ?? {}) as Json;
    run.keepAsText(
      kind,
      found,
      name,
      storedInGit(
        { ...details, branch: text(details.branch) ?? text(entity.fallbackBranch) },
        NOT_IN_FULL,
        text(entity.connectorRef) ?? text(item.entity.connectorRef),
      ),
    );
  });
}

/** Why a Git-stored document whose GET does not say where it lives in full is kept as YAML. */
const NOT_IN_FULL =
  "the platform's answer does not say its connector, repository, branch and file in full, which publish needs to update it there";

/** Why a document stored in Git is kept as YAML: where it lives (as far as the platform said), and `why`. */
function storedInGit(details: Json, why: string, connectorRef?: string): string {
  const place = [text(details.repoName), text(details.filePath)].filter(Boolean).join(':') || 'a Git repository';
  const branch = text(details.branch);
  const through = connectorRef ? `, connector ${connectorRef}` : '';
  return `it is stored in Git (${place}${branch ? ` on ${branch}` : ''}${through}), and ${why}; change it in its repository`;
}

/** The pipelines of a project (each GET on its Git branch), then per pipeline its input sets and its triggers. */
async function readPipelines(run: PullRun, org: string, project: string): Promise<void> {
  const summaries = await run.list(scoped('pipeline', org, project));
  await run.pool(summaries, async (summary) => {
    const name = `${org}/${project}/${summary.identifier}`;
    const yamlVersion = text(summary.entity.yamlVersion) ?? String(summary.entity.yamlVersion ?? '0');
    if (yamlVersion === '1') {
      run.skipped.push({
        kind: 'pipeline',
        name,
        reason: 'it is written in the v1 (simplified) syntax, which pipewright does not model',
      });
      return;
    }
    const branch = text((summary.entity.gitDetails as Json | undefined)?.branch);
    const found = await run.read({ kind: 'pipeline', org, project, identifier: summary.identifier }, branch);
    if (found === undefined) return;
    const connectorRef = text(summary.entity.connectorRef);
    const pipeline = run.keep('pipeline', found, { name, ...gitOf('pipeline', found, connectorRef) });
    // The platform answers a v1 pipeline's YAML without `pipeline:` too: said once, as a skip.
    if (!pipeline) {
      const last = run.unreadable.at(-1);
      if (last?.name === name && isV1(last.text)) {
        run.unreadable.pop();
        run.skipped.push({
          kind: 'pipeline',
          name,
          reason: 'it is written in the v1 (simplified) syntax, which pipewright does not model',
        });
      }
    }
    const inputSets = await run.list({
      ...scoped('inputSet', org, project, summary.identifier),
      query: { inputSetType: 'ALL' },
    });
    for (const item of inputSets) {
      const kind: ResourceKind = item.entity.inputSetType === 'OVERLAY_INPUT_SET' ? 'overlayInputSet' : 'inputSet';
      const inputSetBranch = text((item.entity.gitDetails as Json | undefined)?.branch) ?? branch;
      const set = await run.read(
        { kind, org, project, parent: summary.identifier, identifier: item.identifier },
        inputSetBranch,
      );
      if (set !== undefined)
        run.keep(kind, set, { name: `${name}/${item.identifier}`, ...gitOf(kind, set, connectorRef) });
    }
    for (const item of await run.list(scoped('trigger', org, project, summary.identifier)))
      run.keep('trigger', item.data, { name: `${name}/${item.identifier}` });
  });
}

/** A pipeline's GET names no connector (PMSPipelineResponseDTO.java L36-51): its list summary does. */
const gitOf = (kind: ResourceKind, data: unknown, connectorRef?: string): { git?: GitLocation } => {
  const storage = storageOf(kind, data);
  const git = gitLocation(storage.connectorRef || !connectorRef ? storage : { ...storage, connectorRef });
  return git ? { git } : {};
};

/** A v1 pipeline: `version: 1` at the root, no `pipeline:` key. */
function isV1(yamlText: string): boolean {
  try {
    const parsed = readPlatformYaml(yamlText);
    return isRecord(parsed) && parsed.version === 1 && !('pipeline' in parsed);
  } catch {
    return false;
  }
}
