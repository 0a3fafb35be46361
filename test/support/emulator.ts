import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { FaultInjector, type FaultKind, type FaultPlan } from './emulator-faults.js';
import { readGraphqlRequest, runQuery, type GraphqlCall } from './emulator-graphql.js';
import { stringify } from 'yaml';
import { commitTo, type Commit } from './emulator-git.js';
import { KIND_FACTS } from './emulator-kinds.js';
import {
  DEFAULT_NOT_FOUND,
  errorBody,
  handleRest,
  matchRoute,
  readTarget,
  type Answer,
  type Behaviour,
  type NotFoundForm,
  type PolicyDeny,
} from './emulator-rest.js';
import type { Route } from './emulator-kinds.js';
import type { GitSettingsTable } from './emulator-gitx.js';
import { listAnswer, organizationListAnswer } from './emulator-lists.js';
import { evaluateByType, type PolicySet } from './emulator-policies.js';
import { scmError } from './emulator-git.js';
import {
  resourceKey,
  Store,
  type GitFile,
  type Kind,
  type Placement,
  type StoredResource,
  type WriteCount,
} from './emulator-store.js';
import { WebhookRegistrar } from './emulator-triggers.js';
import { Executions, type ExecutionOptions } from './emulator-executions.js';

/**
 * An emulator of the delivery platform's API (spec/delivery-platform-api.md) for end-to-end tests: node:http or
 * node:https on 127.0.0.1, a random port. It validates requests strictly, keeps state, answers with the spec's
 * envelope, limits the rate per key and injects faults on demand.
 */

export type Role = 'admin' | 'read-only';

export interface EmulatorOptions {
  readonly accountId?: string;
  /** API keys and their roles; default `{ 'admin-key-...': 'admin', 'reader-key-...': 'read-only' }`. */
  readonly keys?: Readonly<Record<string, Role>>;
  /** Organizations that exist; default `['default']`. */
  readonly orgs?: readonly string[];
  /** Serve HTTPS with this key and certificate. */
  readonly tls?: { readonly key: string; readonly cert: string };
  /** A path prefix in front of /gateway, as a self-hosted install behind a proxy has. */
  readonly prefix?: string;
  /**
   * Requests per key per window; beyond it, 429. `edge`: the 429 comes from the edge (Cloud Armor) as the
   * platform's does: an HTML page, never a Retry-After.
   */
  readonly rateLimit?: {
    readonly limit: number;
    readonly windowMs: number;
    readonly retryAfterSeconds?: number;
    readonly edge?: boolean;
  };
  /** How each kind answers a GET of something missing; default as the facts file says (projects and pipelines 404, connectors 400). */
  readonly notFound?: Partial<Record<Kind, NotFoundForm>>;
  /**
   * Paths below `/gateway` this server has no route for (an older or trimmed deployment): answered as every
   * unknown path is, the way the platform answers Jersey's NotFoundException (see routeMissingAnswer).
   */
  readonly missingRoutes?: readonly RegExp[];
  /**
   * `false`: the account has no governance (policy as code) module; the policy service refuses its evaluations
   * with a goa error (harness-go-sdk harness/policymgmt/api_evaluate.go: ModelError on 403). The text is ours:
   * the sources fix none.
   */
  readonly governance?: false;
  /** Governance policies that deny writes of these resources (200 SUCCESS without the entity). */
  readonly deny?: readonly PolicyDeny[];
  /** Identifiers whose writes answer 200 SUCCESS with `data: null` and store nothing. */
  readonly withoutEntity?: readonly string[];
  /** Licence limits: resources of a kind the account may have. */
  readonly limits?: Partial<Record<Kind, number>>;
  readonly faults?: FaultPlan;
  /** Git Experience settings by scope (`account`, `<org>`, `<org>/<project>`): default store type, enforcement. */
  readonly gitSettings?: GitSettingsTable;
  /** Deleted resources the platform still holds: "exists" on create, "not there" on read and update. */
  readonly softDeleted?: readonly {
    kind: Kind;
    org?: string;
    project?: string;
    identifier: string;
    parent?: string;
    versionLabel?: string;
  }[];
  /** Trigger identifiers whose writes answer 200 with `errorResponse: true` and store nothing. */
  readonly triggerErrors?: readonly string[];
  /** How long registering a webhook takes after a webhook trigger create is answered; default 50 ms. */
  readonly webhookRegistrationMs?: number;
  /** How long a Git commit takes; another write to the same repository and branch meanwhile answers 409. Default 25 ms. */
  readonly gitCommitMs?: number;
  /** Governance policy sets: evaluated by `/pm/api/v1/evaluate-by-type`, and on saves of their type. */
  readonly policySets?: readonly PolicySet[];
  /** The platform goes away after answering this many requests: the port closes, connections are refused. */
  readonly goneAfterRequests?: number;
  /**
   * Requests the key's role may not make, whatever the key: the permission they lack (`core_template_view`), answered
   * as the platform does (403 NG_ACCESS_DENIED), or undefined to let them through.
   */
  readonly forbid?: (method: string, path: string) => string | undefined;
  /** A hostile platform: every answer's correlationId is the API key the request carried (an echo of the key). */
  readonly echoKey?: boolean;
  /** Called as each list page is answered (before it is sent): a test edits the platform while a client pages. */
  readonly onListPage?: (kind: Kind, index: number) => void;
  /** Static files served on GET outside /gateway (a page for the browser test, on the emulator's origin). */
  readonly pages?: Readonly<Record<string, { readonly contentType: string; readonly body: string }>>;
  /** How executions progress (emulator-executions.ts): how long each step runs. */
  readonly executions?: ExecutionOptions;
}

export const ADMIN_KEY = 'pat.emulator.admin.Zx81c9Qe4t7Lm2Vb';
export const READER_KEY = 'pat.emulator.reader.Ha3Kd8Pw1Ns5Yr6';
/** Unknown to the emulator until a rotation issues it (see `rotateKey`). */
export const ROTATED_KEY = 'pat.emulator.rotated.Jq5Wn2Xc8Tb4Fe7';
export const ACCOUNT_ID = 'acct_emulator_1';

export interface RequestRecord {
  readonly method: string;
  readonly path: string;
  readonly status?: number;
  readonly fault?: FaultKind;
}

export class Emulator {
  readonly store: Store;
  readonly accountId: string;
  readonly requests: RequestRecord[] = [];
  /** Requests that broke the API contract: tests assert this stays empty. */
  readonly violations: string[] = [];
  readonly graphqlCalls: GraphqlCall[] = [];
  /** CORS preflights seen (browser mode must not cause any). */
  preflights = 0;
  rateLimited = 0;
  /** Git commits of remote writes. */
  readonly commits: Commit[] = [];
  /** Webhooks registered for webhook triggers, and how many were duplicates. */
  readonly webhooks: WebhookRegistrar;
  /** Git writes refused because another write to the same repository and branch was under way. */
  gitCollisions = 0;
  /** Pipeline executions started, and the execute, status and interrupt requests seen. */
  readonly executions: Executions;
  readonly #busyBranches = new Set<string>();
  readonly #behaviour: Behaviour;
  /** One-shot hooks run after a GET of a resource is answered (to change it between a read and a write). */
  readonly #afterRead = new Map<string, () => void>();
  url = '';
  readonly #options: EmulatorOptions;
  readonly #keys: Map<string, Role>;
  /** Rotated keys and how many more authenticated requests each may make before it is revoked. */
  readonly #rotations = new Map<string, number>();
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  readonly #windows = new Map<string, { start: number; count: number }>();
  #faults: FaultInjector | undefined;

  constructor(options: EmulatorOptions = {}) {
    this.#options = options;
    this.accountId = options.accountId ?? ACCOUNT_ID;
    this.#keys = new Map(Object.entries(options.keys ?? { [ADMIN_KEY]: 'admin', [READER_KEY]: 'read-only' }));
    this.webhooks = new WebhookRegistrar(options.webhookRegistrationMs ?? 50);
    this.store = new Store(options.orgs ?? ['default']);
    this.executions = new Executions(options.executions);
    this.#faults = options.faults ? new FaultInjector(options.faults) : undefined;
    this.#behaviour = {
      notFound: { ...DEFAULT_NOT_FOUND, ...options.notFound },
      deny: options.deny ?? [],
      withoutEntity: options.withoutEntity ?? [],
      limits: options.limits ?? {},
      commits: this.commits,
      gitSettings: options.gitSettings ?? {},
      softDeleted: new Set(
        (options.softDeleted ?? []).map((r) => resourceKey(r.kind, r.org, r.project, r.identifier, r)),
      ),
      triggerErrors: options.triggerErrors ?? [],
      webhooks: this.webhooks,
      policySets: options.policySets ?? [],
    };
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.#handle(req, res);
    this.#server = options.tls
      ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, handler)
      : createHttpServer(handler);
    this.#server.on(options.tls ? 'secureConnection' : 'connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    this.url = `${this.#options.tls ? 'https' : 'http'}://127.0.0.1:${port}${this.#options.prefix ?? ''}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The platform goes away mid-run: no new connection is accepted, and the open ones are cut. */
  goAway(): void {
    this.#server.close();
    for (const socket of this.#sockets) socket.destroy();
  }

  /** Replaces the fault plan (undefined: no faults). */
  setFaults(plan: FaultPlan | undefined): void {
    this.#faults = plan ? new FaultInjector(plan) : undefined;
  }

  /**
   * Rotates `key` as regenerating a token does: `newKey` holds its role from now on, and after `afterRequests` more
   * authenticated requests (default 0: at once) the old key gets the same 401 INVALID_CREDENTIAL as an unknown one.
   * A count rather than a time, so a rotation lands at the same point of a run on a slow machine too.
   */
  rotateKey(key: string, newKey: string, { afterRequests = 0 }: { afterRequests?: number } = {}): void {
    const role = this.#keys.get(key);
    if (!role) throw new Error('rotateKey: the emulator does not know that key');
    this.#keys.set(newKey, role);
    this.#rotations.set(key, afterRequests);
  }

  get faultsInjected(): ReadonlyMap<FaultKind, number> {
    return this.#faults?.injected ?? new Map();
  }

  /** `at`: the parent (an input set's pipeline, an infrastructure's environment) and a template's version. */
  resource(
    kind: Kind,
    org: string | undefined,
    project: string | undefined,
    identifier: string,
    at: Placement = {},
  ): StoredResource | undefined {
    return this.store.get(kind, org, project, identifier, at);
  }

  writes(
    kind: Kind,
    org: string | undefined,
    project: string | undefined,
    identifier: string,
    at: Placement = {},
  ): WriteCount {
    return this.store.writes.get(resourceKey(kind, org, project, identifier, at)) ?? { creates: 0, updates: 0 };
  }

  totalWrites(): number {
    return this.store.totalWrites();
  }

  /**
   * Someone edits a resource outside pipewright (the UI, or a push for a Git-stored pipeline): its body changes,
   * its version moves on, and a Git file gets a new blob and commit. Not counted as a write of pipewright's.
   */
  edit(
    kind: Kind,
    org: string | undefined,
    project: string | undefined,
    identifier: string,
    change: (body: Record<string, unknown>) => void,
    at: Placement = {},
  ): void {
    const found = this.store.get(kind, org, project, identifier, at);
    if (!found) throw new Error(`edit: no ${kind} ${identifier}`);
    const body = structuredClone(found.body);
    change(body);
    found.body = body;
    // A push to the file of a Git-stored service, environment or infrastructure: their list keeps the platform's copy.
    if (found.git && KIND_FACTS[kind].body === 'json') found.listedYaml ??= found.raw;
    // Kinds served as YAML text serve the edit too.
    found.raw = stringify({ [KIND_FACTS[kind].rootKey]: body });
    found.version++;
    found.lastModifiedAt = this.store.stamp();
    if (found.git) found.git = commitTo(found, JSON.stringify(body));
  }

  /** Stores a resource as if made in the UI (a Git-stored pipeline, an invalid one); not counted as a write. */
  seed(resource: {
    kind: Kind;
    org?: string;
    project?: string;
    identifier: string;
    parent?: string;
    versionLabel?: string;
    stable?: boolean;
    body: Record<string, unknown>;
    raw?: string;
    git?: GitFile;
    invalid?: boolean;
    public?: boolean;
    withServiceV2?: boolean;
    yamlVersion?: string;
  }): void {
    const now = this.store.stamp();
    this.store.resources.set(
      resourceKey(resource.kind, resource.org, resource.project, resource.identifier, resource),
      {
        ...resource,
        raw: resource.raw ?? stringify({ [KIND_FACTS[resource.kind].rootKey]: resource.body }),
        createdAt: now,
        lastModifiedAt: now,
        version: 1,
      },
    );
  }

  /** The Git file of a remote pipeline is deleted (or its branch): its GET answers 400 HINT from now on. */
  deleteGitFile(org: string, project: string, identifier: string): void {
    const found = this.store.get('pipeline', org, project, identifier);
    if (!found?.git) throw new Error(`deleteGitFile: pipeline ${identifier} is not in Git`);
    found.git.missing = true;
  }

  /** Runs `hook` once, right after the next GET of this resource is answered. */
  afterNextRead(
    kind: Kind,
    org: string | undefined,
    project: string | undefined,
    identifier: string,
    hook: () => void,
    at: Placement = {},
  ): void {
    this.#afterRead.set(resourceKey(kind, org, project, identifier, at), hook);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://emulator');
    const method = req.method ?? 'GET';
    const prefix = this.#options.prefix ?? '';
    // CORS for pages on other origins (the browser test): any origin, no credentials.
    res.setHeader('access-control-allow-origin', '*');
    if (method === 'OPTIONS') {
      this.preflights++;
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST, PUT, DELETE',
        'access-control-allow-headers': 'content-type, x-api-key',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    const page = method === 'GET' ? this.#options.pages?.[url.pathname] : undefined;
    if (page) {
      res.writeHead(200, { 'content-type': page.contentType }).end(page.body);
      return;
    }
    if (!url.pathname.startsWith(`${prefix}/gateway/`))
      return this.#send(req, res, { status: 404, body: 'no such endpoint' }, undefined, `unknown path ${url.pathname}`);
    const path = url.pathname.slice(prefix.length + '/gateway'.length);
    const fault = this.#faults?.pick(method, url.pathname.slice(prefix.length), body.toString('utf8'));
    if (fault && (await this.#preFault(fault, req, res))) return;
    const answer = await this.#answer(req, method, path, url.searchParams, body);
    if (fault === 'drop-after-write') {
      this.requests.push({ method, path, fault, status: answer.status });
      req.socket.destroy();
      return;
    }
    this.#send(req, res, answer, fault);
    if (this.#options.goneAfterRequests !== undefined && this.requests.length >= this.#options.goneAfterRequests) {
      // After this answer is out: the requests before the cut get theirs.
      if (res.writableFinished) this.goAway();
      else res.once('finish', () => this.goAway());
    }
  }

  /** Faults that replace the answer; true when the request is finished (or abandoned). */
  async #preFault(fault: FaultKind, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const record = (status?: number) =>
      this.requests.push({ method: req.method ?? '', path: req.url ?? '', fault, ...(status ? { status } : {}) });
    switch (fault) {
      case 'error-500-json':
        record(500);
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify(errorBody('UNEXPECTED', 'Oops, something went wrong on our end.', randomUUID())));
        return true;
      case 'error-503-empty':
        record(503);
        res.writeHead(503).end();
        return true;
      case 'error-502-html':
        record(502);
        res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
        return true;
      case 'reset':
        record();
        req.socket.destroy();
        return true;
      case 'hang':
        record();
        return true; // the socket stays open until the client gives up or the emulator stops
      case 'delay':
        await new Promise((resolve) => setTimeout(resolve, this.#faults?.plan.delayMs ?? 150));
        return false;
      case 'drop-after-write':
        return false;
      case 'too-many-requests':
        record(429);
        this.rateLimited++;
        res
          .writeHead(429, { 'content-type': 'application/json' })
          .end(JSON.stringify(errorBody('TOO_MANY_REQUESTS', 'Rate limit exceeded', randomUUID())));
        return true;
    }
  }

  #send(
    req: IncomingMessage,
    res: ServerResponse,
    answer: Answer & { headers?: Record<string, string> },
    fault?: FaultKind,
    violation?: string,
  ): void {
    const why = violation ?? answer.violation;
    if (why) this.violations.push(`${req.method} ${req.url}: ${why}`);
    this.requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      status: answer.status,
      ...(fault ? { fault } : {}),
    });
    const json = typeof answer.body !== 'string';
    res.writeHead(answer.status, { 'content-type': json ? 'application/json' : 'text/plain', ...answer.headers });
    res.end(json ? JSON.stringify(answer.body) : answer.body);
  }

  /** Authentication, the rate limit, then the endpoint. */
  async #answer(
    req: IncomingMessage,
    method: string,
    path: string,
    query: URLSearchParams,
    body: Buffer,
  ): Promise<Answer & { headers?: Record<string, string> }> {
    const headerKey = typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : undefined;
    const correlationId = this.#options.echoKey && headerKey ? headerKey : randomUUID();
    const graphql = path === '/api/graphql' || path === '/api/graphql-api';
    let key = headerKey;
    let graphqlQuery: string | undefined;
    if (graphql) {
      if (method !== 'POST')
        return {
          status: 405,
          body: errorBody('INVALID_REQUEST', 'use POST', correlationId),
          violation: `${method} on GraphQL`,
        };
      const read = await readGraphqlRequest(req.headers['content-type'], headerKey, body);
      if (read.problem)
        return {
          status: 400,
          body: errorBody('INVALID_REQUEST', read.problem, correlationId),
          violation: read.problem,
        };
      key = read.key;
      graphqlQuery = read.query;
      this.graphqlCalls.push({
        mode: read.mode!,
        path,
        headerNames: Object.keys(req.headers),
        hadCookie: req.headers.cookie !== undefined,
      });
    }
    const role = key !== undefined ? this.#authenticate(key) : undefined;
    if (!role)
      return {
        status: 401,
        body: errorBody(
          'INVALID_CREDENTIAL',
          'Invalid API key: the token is not valid, expired or rotated',
          correlationId,
        ),
      };
    const limited = this.#rateLimit(key!);
    if (limited) return limited;
    const missing = this.#options.forbid?.(method, path);
    if (missing)
      return { status: 403, body: errorBody('NG_ACCESS_DENIED', `Missing permission ${missing}`, correlationId) };
    if (graphql) {
      const account = query.get('accountId');
      if (!account)
        return {
          status: 400,
          body: errorBody('INVALID_REQUEST', 'accountId is required', correlationId),
          violation: 'GraphQL without accountId',
        };
      if (account !== this.accountId)
        return {
          status: 401,
          body: errorBody('INVALID_CREDENTIAL', 'The API key does not belong to this account', correlationId),
        };
      return { status: 200, body: runQuery(graphqlQuery!) };
    }
    if (this.#options.missingRoutes?.some((pattern) => pattern.test(path))) return routeMissingAnswer(correlationId);
    if (this.#options.governance === false && path.startsWith('/pm/'))
      return {
        status: 403,
        body: {
          name: 'forbidden',
          id: correlationId,
          message: `Policy management is not enabled for account ${this.accountId}: the governance module is not licensed`,
          temporary: false,
          timeout: false,
          fault: false,
        },
      };
    const ran = this.executions.answer(this.store, {
      method,
      path,
      query,
      body: body.toString('utf8'),
      contentType: req.headers['content-type'],
      accountId: this.accountId,
      correlationId,
      canWrite: role === 'admin',
      ...(this.#options.echoKey && key ? { echo: key } : {}),
    });
    if (ran) return ran;
    const evaluated = evaluateByType(
      this.#behaviour.policySets,
      method,
      path,
      query,
      body.toString('utf8'),
      req.headers['content-type'],
      this.accountId,
      correlationId,
    );
    if (evaluated) return evaluated;
    const listed = listAnswer(
      this.store,
      method,
      path,
      query,
      body.toString('utf8'),
      this.accountId,
      correlationId,
      (kind, index) => this.#options.onListPage?.(kind, index),
    );
    if (listed) return listed;
    if (method === 'GET' && path === '/ng/api/organizations')
      return organizationListAnswer(this.store.orgs, query, this.accountId, correlationId);
    const organization = method === 'GET' ? /^\/ng\/api\/organizations\/([^/]+)$/.exec(path) : null;
    if (organization) return this.#organization(decodeURIComponent(organization[1]!), query, correlationId);
    const route = matchRoute(method, path);
    if (!route) return { ...routeMissingAnswer(correlationId), violation: `unknown endpoint ${method} ${path}` };
    const ifMatch = req.headers['if-match'];
    const branch = this.#gitBranchOf(route, query);
    if (branch !== undefined) {
      // TF issue #970: writes to one repository and branch at once fail on a blob-id conflict.
      if (this.#busyBranches.has(branch)) {
        this.gitCollisions++;
        return {
          status: 409,
          body: scmError(
            'Please check the input blob id of the requested file, it may have been changed by another commit to the branch; retry with its latest version.',
            "The input blob id of the requested file doesn't match with current blob id of the file at head of the branch in Github repo",
            'SCM_CONFLICT_ERROR_V2',
            'Conflict: another commit to the branch is in progress',
            correlationId,
          ),
        };
      }
      this.#busyBranches.add(branch);
      try {
        await new Promise((resolve) => setTimeout(resolve, this.#options.gitCommitMs ?? 25));
      } finally {
        this.#busyBranches.delete(branch);
      }
    }
    const answer = handleRest(this.store, {
      route,
      query,
      contentType: req.headers['content-type'],
      body: body.toString('utf8'),
      accountId: this.accountId,
      canWrite: role === 'admin',
      correlationId,
      ...(typeof ifMatch === 'string' ? { ifMatch } : {}),
      behaviour: this.#behaviour,
    });
    if (route.op === 'read') {
      const { org, project, at } = readTarget(route, query);
      const key = resourceKey(route.kind, org, project, route.id!, at);
      const hook = this.#afterRead.get(key);
      if (hook) {
        this.#afterRead.delete(key);
        hook();
      }
    }
    return answer;
  }

  /** `repo/branch` of a write that commits to Git (a remote create, or an update naming a blob), else undefined. */
  #gitBranchOf(route: Route, query: URLSearchParams): string | undefined {
    if (route.op === 'create')
      return query.get('storeType') === 'REMOTE' ? `${query.get('repoName')}/${query.get('branch')}` : undefined;
    if (route.op !== 'update' || !query.get('lastObjectId') || route.id === undefined) return undefined;
    // An update names no repository: the stored file's is the one it commits to.
    const { org, project, at } = readTarget(route, query);
    const stored = this.store.get(route.kind, org, project, route.id, at);
    return stored?.git ? `${stored.git.repoName}/${query.get('branch') ?? stored.git.branch}` : undefined;
  }

  /**
   * GET `/ng/api/organizations/{id}`: the organization, or the FailureDTO 400 RESOURCE_NOT_FOUND_EXCEPTION of
   * OrganizationResource.java L164 (javax.ws.rs.NotFoundException, platform-facts-2.md §3).
   */
  #organization(identifier: string, query: URLSearchParams, correlationId: string): Answer {
    const extra = [...query.keys()].filter((name) => name !== 'accountIdentifier');
    if (extra.length || query.get('accountIdentifier') !== this.accountId)
      return {
        status: 400,
        body: errorBody('INVALID_REQUEST', 'accountIdentifier is the only query parameter', correlationId),
        violation: `organization read with ${query.toString()}`,
      };
    if (!this.store.orgs.has(identifier))
      return {
        status: 400,
        body: {
          status: 'FAILURE',
          code: 'RESOURCE_NOT_FOUND_EXCEPTION',
          message: `Organization with identifier [${identifier}] not found`,
          correlationId,
          errors: null,
        },
      };
    return {
      status: 200,
      body: {
        status: 'SUCCESS',
        data: { organization: { identifier, name: identifier, description: '', tags: {} } },
        metaData: null,
        correlationId,
      },
    };
  }

  /** The key's role, or undefined once a rotation has revoked it. */
  #authenticate(key: string): Role | undefined {
    const left = this.#rotations.get(key);
    if (left === undefined) return this.#keys.get(key);
    if (left === 0) return undefined;
    this.#rotations.set(key, left - 1);
    return this.#keys.get(key);
  }

  /** A fixed window per key: `limit` requests per `windowMs`, then 429 until the window ends. */
  #rateLimit(key: string): (Answer & { headers?: Record<string, string> }) | undefined {
    const limit = this.#options.rateLimit;
    if (!limit) return undefined;
    const now = Date.now();
    let window = this.#windows.get(key);
    if (!window || now - window.start >= limit.windowMs) this.#windows.set(key, (window = { start: now, count: 0 }));
    if (++window.count <= limit.limit) return undefined;
    this.rateLimited++;
    if (limit.edge)
      return {
        status: 429,
        body: '<!doctype html><html><head><title>429 Too Many Requests</title></head><body><h1>Too Many Requests</h1><p>Cloud Armor</p></body></html>',
        headers: { 'content-type': 'text/html' },
      };
    return {
      status: 429,
      body: errorBody('TOO_MANY_REQUESTS', 'Rate limit exceeded', randomUUID()),
      ...(limit.retryAfterSeconds !== undefined ? { headers: { 'retry-after': String(limit.retryAfterSeconds) } } : {}),
    };
  }
}

/** Starts an emulator; stop it with `await emulator.stop()`. */
export const startEmulator = (options: EmulatorOptions = {}): Promise<Emulator> => new Emulator(options).start();

/**
 * A path no resource method matches: Jersey raises javax.ws.rs.NotFoundException ("HTTP 404 Not Found"), and the
 * platform's NotFoundExceptionMapper answers it as 400 FAILURE `RESOURCE_NOT_FOUND_EXCEPTION`, the code of a
 * missing connector; only the message differs (platform-facts-2.md §3, "wrong URL").
 */
function routeMissingAnswer(correlationId: string): Answer {
  return {
    status: 400,
    body: {
      status: 'FAILURE',
      code: 'RESOURCE_NOT_FOUND_EXCEPTION',
      message: 'HTTP 404 Not Found',
      correlationId,
      errors: null,
    },
  };
}
