import { holdsSecret } from '../core/redact.js';
import { buildUrl, parseBaseUrl } from './base-url.js';
import { systemClock, type Clock } from './clock.js';
import { publishDocument, type PublishDocument } from './document.js';
import type { ResourceKey } from '../catalog/resource-key.js';
import {
  createEndpoint,
  createRemoteEndpoint,
  deleteEndpoint,
  kindApi,
  listEndpoint,
  isPublicIn,
  organizationEndpoint,
  organizationListEndpoint,
  policyEvaluationEndpoint,
  readEndpoint,
  readRemoteEndpoint,
  remoteDocument,
  requestBody,
  stableEndpoint,
  storableInGit,
  storageOf,
  updatableInGit,
  triggerDetailsEndpoint,
  updateEndpoint,
  updateRemoteEndpoint,
  withIfMatch,
  withPublic,
  type Endpoint,
  type GitTarget,
  type GitVersion,
  type ListScope,
  type Storage,
} from './endpoints.js';
import { ApiError, isAlreadyExists, isNotFound, mentionsSoftDelete, type Envelope } from './envelope.js';
import { graphqlRequest, type GraphqlOptions } from './graphql.js';
import { PlatformHealth, type ServerErrorStorm } from './platform-health.js';
import { RateLimiter } from './rate-limiter.js';
import { retryPolicy, type RetryEvent, type RetryOptions } from './retry.js';
import { MAX_BODY_BYTES, probe, sendJson, sendRest, type Probe, type TransportOptions } from './transport.js';
import { checkWritten } from './write-answer.js';
import { dataObject, jsonObject, listedEntity, malformed, pageAnswer } from './answers.js';
import { PageBound } from './page-bound.js';
import {
  abortEndpoint,
  executeBody,
  executeEndpoint,
  executionEndpoint,
  executionSnapshot,
  inputTemplateEndpoint,
  inputTemplateOf,
  startedExecution,
  type ExecutionScope,
  type ExecutionSnapshot,
  type PipelineScope,
} from './executions.js';

export interface ClientOptions {
  /** The platform's address (`{base_url}`), e.g. https://app.harness.io; http only for loopback hosts. */
  readonly baseUrl: string;
  readonly accountId: string;
  /** A personal access token or service-account token. Sent in `x-api-key` (or a form field in browser mode). */
  readonly apiKey: string;
  /** Defaults to the global fetch (Node >= 20, browsers). */
  readonly fetch?: typeof fetch;
  /** Requests per minute this client allows itself; default 1000, the platform's limit per key. */
  readonly rateLimit?: number;
  readonly retry?: RetryOptions;
  /** Limit of one attempt, body included; default 30 s. */
  readonly timeoutMs?: number;
  readonly clock?: Clock;
  /** Called before each retry wait (for logs; the event holds no key). */
  readonly onRetry?: (event: RetryEvent) => void;
  /** Cancels every request in flight and every wait (e.g. a page navigating away). */
  readonly signal?: AbortSignal;
  /**
   * When the platform counts as gone: this many attempts in a row without an answer, and none for `quietMs`;
   * default 5 and 2000 ms; `serverErrors`: when a run of 5xx answers counts as a failing platform (platform-health.ts).
   */
  readonly gone?: { readonly threshold?: number; readonly quietMs?: number; readonly serverErrors?: ServerErrorStorm };
  /** Items per list page; default 100, the most the services answer. Smaller pages are for tests. */
  readonly listPageSize?: number;
  /** Pages of one list at most, whatever its answers announce; default MAX_LIST_PAGES (page-bound.ts). */
  readonly maxListPages?: number;
  /** Bytes of one answer at most; default MAX_BODY_BYTES (transport.ts). */
  readonly maxBodyBytes?: number;
}

/** What a GET found. */
export interface RemoteResource {
  /** In the request's shape, `{ <kind>: {...} }`. */
  readonly document: Record<string, unknown>;
  readonly correlationId?: string;
  /** The ETag of the answer (projects): the version an update sends back in `If-Match`. */
  readonly etag?: string;
  /** Kinds that may live in Git (pipelines, input sets, services, environments, infrastructures): inline or in Git, with the file's object and commit ids. */
  readonly storage?: Storage;
  /** Pipelines: made public in the platform (an update keeps it so). */
  readonly public?: boolean;
  /** The GET's `data` as it came, for what the document does not hold (a trigger's `enabled` and status). */
  readonly data?: unknown;
}

interface ReadOptions {
  /** Read from this Git branch (documents stored in Git; ignored by inline ones). */
  readonly branch?: string;
}

export interface WriteOptions {
  /** Store the pipeline or input set in Git, as this file. */
  readonly git?: GitTarget;
  /** Remote updates: the Git blob and commit the write replaces, from the GET. */
  readonly gitVersion?: GitVersion;
  /** Projects: the ETag the GET returned, sent as `If-Match`. */
  readonly etag?: string;
  /** Pipeline updates: keep the pipeline public (`public=true`). */
  readonly public?: boolean;
}

/** One entity of a list page. */
export interface ListedItem {
  readonly identifier: string;
  /** Templates: each version is an item of its own. */
  readonly versionLabel?: string;
  /** The entity as the list has it (`content[].service`, or the item itself). */
  readonly entity: Record<string, unknown>;
  /** The item of `content` as it came: for kinds whose list is complete, what the GET's `data` would be. */
  readonly data: Record<string, unknown>;
}

interface ListPage {
  readonly items: readonly ListedItem[];
  /** No page after this one. */
  readonly last: boolean;
  /** How many pages the list has, when the answer says. */
  readonly totalPages?: number;
  /** How many items the whole list has, when the answer says (NG's `totalItems`, Spring's `totalElements`). */
  readonly totalItems?: number;
}

interface WriteResult {
  readonly outcome: 'created' | 'updated';
  readonly correlationId?: string;
  /** The write's answer as it came (a trigger's says whether the platform turned it off). */
  readonly answer: Envelope;
}

interface UpsertOptions extends WriteOptions {
  /** Runs the create, e.g. one at a time with a pause after it (webhook triggers); by default it just runs. */
  readonly aroundCreate?: (create: () => Promise<Envelope>) => Promise<Envelope>;
}

/**
 * "Already exists" on create and "not there" on update: the identifier belongs to a deleted resource the
 * platform still holds (a soft delete, platform-facts-3.md §2 D7).
 */
export class SoftDeletedError extends ApiError {}

export interface Client {
  readonly baseUrl: string;
  readonly accountId: string;
  /**
   * Whether a text (an answer's document) holds the API key this client sends, in any form the output redaction
   * masks: pull never writes such a document into a repository. The key itself never leaves the client.
   */
  holdsKey(text: string): boolean;
  /** GET; undefined when the platform says it is not there. */
  read(id: ResourceKey, options?: ReadOptions): Promise<RemoteResource | undefined>;
  /** GET, the answer as it came (pull keeps what it cannot read as a document); undefined when not there. */
  readData(id: ResourceKey, options?: ReadOptions): Promise<Envelope | undefined>;
  /** Resolves only when the platform stored it: a policy denial or an answer without the entity rejects. */
  create(document: PublishDocument, options?: WriteOptions): Promise<Envelope>;
  update(document: PublishDocument, options?: WriteOptions): Promise<Envelope>;
  /** Makes a template version the stable one (on `branch` for a version kept in Git). */
  makeStable(id: ResourceKey, options?: ReadOptions): Promise<Envelope>;
  /** A trigger's details: `data.triggerStatus.validationStatus` says why the platform disabled it. */
  triggerDetails(id: ResourceKey): Promise<Envelope>;
  /** Whether the organization exists. */
  organizationExists(identifier: string): Promise<boolean>;
  /** The scope's policy sets evaluated against the document (`onsave`), as the policy service answers: nothing is saved. */
  evaluatePolicies(document: PublishDocument): Promise<Record<string, unknown>>;
  /** DELETE; resolves when the platform says it deleted it (a missing one rejects with its "not there" error). */
  delete(id: ResourceKey): Promise<Envelope>;
  /** Page `index` (from 0) of a kind's list in a scope. */
  listPage(scope: ListScope, index: number, size?: number): Promise<ListPage>;
  /**
   * The pages of a kind's list in a scope, one at a time, ending at the last; past the pages the first answer
   * announced (plus a margin) or the hard cap, an ApiError (page-bound.ts). Stop early by leaving the loop.
   */
  pages(scope: ListScope): AsyncGenerator<ListPage, void, undefined>;
  /** Every page of a kind's list in a scope. */
  list(scope: ListScope): Promise<ListedItem[]>;
  /** The identifiers of the account's organizations, every page. */
  listOrganizations(): Promise<string[]>;
  /** Requests sent so far (each attempt counts: a retry is a request to the platform too). */
  readonly requests: number;
  /**
   * Create, or update when it exists (also when a retried create finds its own lost write); an update that finds
   * nothing after the create said "exists" rejects with a SoftDeletedError.
   */
  upsert(document: PublishDocument | string, options?: UpsertOptions): Promise<WriteResult>;
  /** One request without retries to the document's read endpoint: is the platform at the base URL at all? */
  probe(id: ResourceKey): Promise<Probe>;
  /** Endpoint 1 (or 2): the GraphQL result as JSON, `{ data, errors }`. */
  graphql(query: string, options?: GraphqlOptions): Promise<unknown>;
  /**
   * Starts the pipeline with the runtime-input YAML (and input sets, merged before it); resolves to the execution's
   * id. Sent once, never retried: an answer lost after the platform started the run would start a second one.
   */
  execute(scope: PipelineScope, runtimeInputYaml: string, inputSets?: readonly string[]): Promise<string>;
  /** One read of an execution: its status, stages and steps. */
  execution(scope: ExecutionScope): Promise<ExecutionSnapshot>;
  /** Aborts every stage and step of the execution (interrupt `AbortAll`). */
  abort(scope: ExecutionScope): Promise<void>;
  /** The pipeline's runtime inputs as the platform lists them: an input set YAML, empty when there are none. */
  inputTemplate(scope: PipelineScope): Promise<string>;
}

const withCorrelation = (answer: Envelope) => (answer.correlationId ? { correlationId: answer.correlationId } : {});

/** Visible ASCII only: anything else cannot go in a header, and fetch's error for it would quote the key. */
const KEY_SHAPE = /^[\x21-\x7e]+$/;

const DEFAULT_RATE_LIMIT = 1000;
const DEFAULT_TIMEOUT_MS = 30_000;
/** Items per list page: the most the services answer (platform-facts-3.md §3). */
const LIST_PAGE_SIZE = 100;

/** A client of the platform's REST and GraphQL endpoints, built on web-standard fetch only. */
export function createClient(options: ClientOptions): Client {
  const base = parseBaseUrl(options.baseUrl);
  const { accountId } = options;
  const apiKey = options.apiKey.trim();
  if (!accountId) throw new TypeError('accountId is required');
  if (!KEY_SHAPE.test(apiKey))
    throw new TypeError(
      'the API key is empty or holds characters a header cannot carry (spaces, line breaks, non-ASCII)',
    );
  const redact = (text: string) => (apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text);
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const clock = options.clock ?? systemClock;
  const pageSize = options.listPageSize ?? LIST_PAGE_SIZE;
  const transport: TransportOptions = {
    fetch: doFetch,
    limiter: new RateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT, clock),
    retry: retryPolicy(options.retry),
    clock,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    redact,
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    health: new PlatformHealth(clock.now(), options.gone),
    counter: { requests: 0 },
  };

  const send = (endpoint: Endpoint, body?: string): Promise<Envelope> => {
    return sendRest(httpRequest(endpoint, body), transport);
  };
  const httpRequest = (endpoint: Endpoint, body?: string) => {
    const headers = new Headers({ ...endpoint.headers, 'x-api-key': apiKey, accept: 'application/json' });
    if (endpoint.contentType) headers.set('content-type', endpoint.contentType);
    return {
      method: endpoint.method,
      url: buildUrl(base, endpoint.path, endpoint.query),
      label: `${endpoint.method} ${endpoint.path}`,
      headers,
      ...(body !== undefined ? { body } : {}),
    };
  };
  /** A write, checked: a 200 that stored nothing (a policy denial) rejects like any other failure. */
  const write = async (endpoint: Endpoint, document: PublishDocument): Promise<Envelope> => {
    const envelope = await send(endpoint, requestBody(document));
    checkWritten(document.id.kind, envelope, `${endpoint.method} ${endpoint.path}`);
    return envelope;
  };
  const remoteOnly = (document: PublishDocument, options: WriteOptions, call: 'create' | 'update') => {
    const inGit = call === 'create' ? storableInGit : updatableInGit;
    if (options.git && !inGit(document.id.kind)) throw new TypeError(`${document.id.kind} cannot be ${call}d in Git`);
    return options.git;
  };

  const client: Client = {
    baseUrl: base.href.replace(/\/$/, ''),
    holdsKey: (text) => holdsSecret(text, [apiKey]),
    accountId,
    get requests() {
      return transport.counter!.requests;
    },
    async read(id, readOptions = {}) {
      const envelope = await client.readData(id, readOptions);
      if (!envelope) return undefined;
      let document: Record<string, unknown>;
      try {
        document = remoteDocument(id.kind, envelope.data);
      } catch (error) {
        const request = `GET ${readEndpoint(id, accountId).path}`;
        throw malformed(request, error instanceof Error ? error.message : String(error), envelope.correlationId);
      }
      return {
        document,
        data: envelope.data,
        ...(envelope.correlationId ? { correlationId: envelope.correlationId } : {}),
        ...(envelope.etag ? { etag: envelope.etag } : {}),
        ...(updatableInGit(id.kind) ? { storage: storageOf(id.kind, envelope.data) } : {}),
        ...(id.kind === 'pipeline' && isPublicIn(envelope.data) ? { public: true } : {}),
      };
    },
    async readData(id, readOptions = {}) {
      const endpoint =
        updatableInGit(id.kind) && readOptions.branch
          ? readRemoteEndpoint(id, accountId, readOptions.branch)
          : readEndpoint(id, accountId);
      let envelope: Envelope;
      try {
        envelope = await send(endpoint);
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
      // Every GET of one resource answers an object (the entity, or its wrapper): anything else is not a resource.
      dataObject(envelope.data, `${endpoint.method} ${endpoint.path}`, envelope.correlationId);
      return envelope;
    },
    create(document, writeOptions = {}) {
      const git = remoteOnly(document, writeOptions, 'create');
      return write(
        git ? createRemoteEndpoint(document.id, accountId, git) : createEndpoint(document.id, accountId),
        document,
      );
    },
    update(document, writeOptions = {}) {
      const git = remoteOnly(document, writeOptions, 'update');
      const plain = git
        ? updateRemoteEndpoint(document.id, accountId, git, writeOptions.gitVersion ?? {})
        : updateEndpoint(document.id, accountId);
      const endpoint = withPublic(
        withIfMatch(plain, document.id.kind === 'project' ? writeOptions.etag : undefined),
        document.id.kind === 'pipeline' && writeOptions.public,
      );
      return write(endpoint, document);
    },
    makeStable: (id, stableOptions = {}) => send(stableEndpoint(id, accountId, stableOptions.branch)),
    triggerDetails: (id) => send(triggerDetailsEndpoint(id, accountId)),
    delete: (id) => send(deleteEndpoint(id, accountId)),
    async evaluatePolicies(document) {
      const endpoint = policyEvaluationEndpoint(document, accountId, new Date(clock.now()));
      const answer = await sendJson(httpRequest(endpoint, endpoint.body), transport);
      const record = jsonObject(answer, `${endpoint.method} ${endpoint.path}`, 'an evaluation status');
      if (typeof record.status !== 'string')
        throw new ApiError(`${endpoint.method} ${endpoint.path} answered without an evaluation status`, {
          kind: 'rejected',
          request: `${endpoint.method} ${endpoint.path}`,
        });
      return record;
    },
    async listPage(scope, index, size = pageSize) {
      const endpoint = listEndpoint(scope, accountId, index, size);
      const envelope = await send(endpoint, endpoint.body);
      const request = `${endpoint.method} ${endpoint.path}`;
      const page = pageAnswer(envelope.data, request, envelope.correlationId);
      const { entity } = kindApi(scope.kind).list;
      const items = page.content.map((raw, at): ListedItem => {
        const listed = listedEntity(raw, entity, `data.content[${at}]`, request, envelope.correlationId);
        const version = listed.entity.versionLabel;
        return {
          identifier: listed.identifier,
          ...(typeof version === 'string' || typeof version === 'number' ? { versionLabel: String(version) } : {}),
          entity: listed.entity,
          data: listed.data,
        };
      });
      const { totalPages, totalItems } = page;
      const last =
        page.last === true || (totalPages !== undefined && index + 1 >= totalPages) || page.content.length < size;
      return {
        items,
        last,
        ...(totalPages !== undefined ? { totalPages } : {}),
        ...(totalItems !== undefined ? { totalItems } : {}),
      };
    },
    async *pages(scope) {
      const endpoint = listEndpoint(scope, accountId, 0, pageSize);
      const bound = new PageBound(`${endpoint.method} ${endpoint.path}`, options.maxListPages);
      for (let index = 0; ; index++) {
        const page = await client.listPage(scope, index);
        yield page;
        if (page.last) return;
        bound.next(index, page, pageSize);
      }
    },
    async list(scope) {
      const all: ListedItem[] = [];
      for await (const page of client.pages(scope)) all.push(...page.items);
      return all;
    },
    async listOrganizations() {
      const found: string[] = [];
      const bound = new PageBound(`GET ${organizationListEndpoint(accountId, 0, pageSize).path}`, options.maxListPages);
      for (let index = 0; ; index++) {
        const endpoint = organizationListEndpoint(accountId, index, pageSize);
        const envelope = await send(endpoint);
        const request = `${endpoint.method} ${endpoint.path}`;
        const page = pageAnswer(envelope.data, request, envelope.correlationId);
        page.content.forEach((raw, at) =>
          found.push(
            listedEntity(raw, 'organization', `data.content[${at}]`, request, envelope.correlationId).identifier,
          ),
        );
        const { totalPages } = page;
        if (
          page.last === true ||
          (totalPages !== undefined && index + 1 >= totalPages) ||
          page.content.length < pageSize
        )
          return found;
        bound.next(index, page, pageSize);
      }
    },
    async organizationExists(identifier) {
      try {
        await send(organizationEndpoint(identifier, accountId));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
    probe: (id) => probe(httpRequest(readEndpoint(id, accountId)), transport),
    async upsert(input, { aroundCreate = (create: () => Promise<Envelope>) => create(), ...writeOptions } = {}) {
      const document = typeof input === 'string' ? publishDocument(input) : input;
      let exists: unknown;
      try {
        const created = await aroundCreate(() => client.create(document, writeOptions));
        return { outcome: 'created', answer: created, ...withCorrelation(created) };
      } catch (error) {
        // Also the retry of a create whose first response was lost after the write: it is there now.
        if (!isAlreadyExists(error)) throw error;
        exists = error;
      }
      // No version to send: the create just said it exists, and a remote update without lastObjectId would be blind.
      if (writeOptions.git)
        throw new ApiError(
          `${document.id.kind} ${document.id.identifier} appeared while it was being created; run publish again to compare it first`,
          { kind: 'rejected', request: `POST ${createEndpoint(document.id, accountId).path}` },
        );
      try {
        const updated = await client.update(document, writeOptions);
        return { outcome: 'updated', answer: updated, ...withCorrelation(updated) };
      } catch (error) {
        if (!isNotFound(error)) throw error;
        const { kind, request, correlationId } = error as ApiError;
        const said = exists instanceof ApiError ? exists.message : '';
        throw new SoftDeletedError(
          `the platform answers that ${document.id.kind} ${document.id.identifier} already exists on create${mentionsSoftDelete(exists) ? ' ("or has been deleted")' : ''} and that it does not exist on update: the identifier belongs to a deleted ${document.id.kind} the platform still holds (a soft delete). Restore it in the platform, or give this one another identifier (the platform said: ${said})`,
          { kind, request, ...(correlationId ? { correlationId } : {}) },
        );
      }
    },
    graphql(query, graphqlOptions = {}) {
      return sendJson(graphqlRequest(base, accountId, apiKey, query, graphqlOptions), transport);
    },
    async execute(scope, runtimeInputYaml, inputSets = []) {
      const endpoint = executeEndpoint(accountId, scope, inputSets);
      const once = { ...transport, retry: { ...transport.retry, attempts: 1 } };
      const envelope = await sendRest(httpRequest(endpoint, executeBody(inputSets, runtimeInputYaml)), once);
      return startedExecution(envelope.data, `${endpoint.method} ${endpoint.path}`, envelope.correlationId);
    },
    async execution(scope) {
      const endpoint = executionEndpoint(accountId, scope);
      const envelope = await send(endpoint);
      return executionSnapshot(envelope.data, `${endpoint.method} ${endpoint.path}`, envelope.correlationId);
    },
    async abort(scope) {
      await send(abortEndpoint(accountId, scope));
    },
    async inputTemplate(scope) {
      const endpoint = inputTemplateEndpoint(accountId, scope);
      const envelope = await send(endpoint, '{}');
      return inputTemplateOf(envelope.data, `${endpoint.method} ${endpoint.path}`, envelope.correlationId);
    },
  };
  return client;
}
