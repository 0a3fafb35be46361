import { parse } from 'yaml';
import { commitTo, CREATE_GIT_PARAMS, missingFile, newFile, staleBlob, UPDATE_GIT_PARAMS, type Commit } from './emulator-git.js';
import { connectorData, pipelineData, projectData, type Kind, type Store, type StoredResource } from './emulator-store.js';

/** An answer of the emulator: status and JSON body (the envelope, or the platform's error shape). */
export interface Answer {
  readonly status: number;
  readonly body?: unknown;
  /** Set when the request broke the API contract (wrong path, query, content type, body): tests assert none. */
  readonly violation?: string;
  /** A write that was applied. */
  readonly wrote?: boolean;
  readonly headers?: Record<string, string>;
}

/** The forms "not there" takes on the platform (platform-facts-2.md §3). */
export type NotFoundForm =
  | '404 ENTITY_NOT_FOUND'
  | '404 RESOURCE_NOT_FOUND'
  | '404 RESOURCE_NOT_FOUND_EXCEPTION'
  | '400 RESOURCE_NOT_FOUND_EXCEPTION'
  | '400 INVALID_REQUEST';

/** What the facts file says each kind answers today: projects and pipelines 404, connectors 400 (CORE 2023-12). */
export const DEFAULT_NOT_FOUND: Readonly<Record<Kind, NotFoundForm>> = {
  project: '404 ENTITY_NOT_FOUND',
  connector: '400 RESOURCE_NOT_FOUND_EXCEPTION',
  pipeline: '404 ENTITY_NOT_FOUND',
};

/** A governance (OPA) policy set that denies writes of one resource. */
export interface PolicyDeny {
  readonly kind: Kind;
  readonly identifier: string;
  readonly policySet?: string;
  readonly message: string;
}

/** How the emulator answers beyond the contract: configured per test. */
export interface Behaviour {
  readonly notFound: Readonly<Record<Kind, NotFoundForm>>;
  readonly deny: readonly PolicyDeny[];
  /** Identifiers whose writes answer 200 SUCCESS with no entity and no governance metadata (and store nothing). */
  readonly withoutEntity: readonly string[];
  /** Licence limits: creates beyond this many resources of a kind answer 400 INVALID_REQUEST. */
  readonly limits: Partial<Record<Kind, number>>;
  /** Git commits made by remote pipeline writes, in order. */
  readonly commits: Commit[];
}

export const errorBody = (code: string, message: string, correlationId: string) => ({
  status: 'ERROR',
  code,
  message,
  correlationId,
  detailedMessage: null,
  responseMessages: [],
  metadata: null,
});

const IDENTIFIER = /^[a-zA-Z_][0-9a-zA-Z_]{0,127}$/;

interface Route {
  readonly method: string;
  readonly kind: Kind;
  readonly op: 'create' | 'update' | 'read';
  /** Identifier from the path, when the path has one. */
  readonly id?: string;
  /** Query parameters: required ones and optional ones; anything else is a violation. */
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly contentType?: string;
  /** `/pipelines/v2`: Git parameters accepted, data `{ identifier, governanceMetadata }`. */
  readonly v2?: boolean;
}

/** The spec's REST endpoints (and the update/read ones of DESIGN.md, and the Git ones of the facts), relative to /gateway. */
export function matchRoute(method: string, path: string): Route | undefined {
  const account = ['accountIdentifier'];
  const pipelineQuery = ['accountIdentifier', 'orgIdentifier', 'projectIdentifier'];
  let m: RegExpMatchArray | null;
  if (path === '/ng/api/projects' && method === 'POST')
    return { method, kind: 'project', op: 'create', required: [...account, 'orgIdentifier'], optional: [], contentType: 'application/yaml' };
  if ((m = path.match(/^\/ng\/api\/projects\/([^/]+)$/)) && (method === 'PUT' || method === 'GET'))
    return { method, kind: 'project', op: method === 'PUT' ? 'update' : 'read', id: decodeURIComponent(m[1]!), required: [...account, 'orgIdentifier'], optional: [], ...(method === 'PUT' ? { contentType: 'application/yaml' } : {}) };
  if (path === '/ng/api/connectors' && (method === 'POST' || method === 'PUT'))
    return { method, kind: 'connector', op: method === 'POST' ? 'create' : 'update', required: account, optional: [], contentType: 'text/yaml' };
  if ((m = path.match(/^\/ng\/api\/connectors\/([^/]+)$/)) && method === 'GET')
    return { method, kind: 'connector', op: 'read', id: decodeURIComponent(m[1]!), required: account, optional: ['orgIdentifier', 'projectIdentifier'] };
  if (path === '/pipeline/api/pipelines' && method === 'POST')
    return { method, kind: 'pipeline', op: 'create', required: pipelineQuery, optional: [], contentType: 'application/yaml' };
  if (path === '/pipeline/api/pipelines/v2' && method === 'POST')
    return { method, kind: 'pipeline', op: 'create', v2: true, required: pipelineQuery, optional: CREATE_GIT_PARAMS, contentType: 'application/yaml' };
  if ((m = path.match(/^\/pipeline\/api\/pipelines\/v2\/([^/]+)$/)) && method === 'PUT')
    return { method, kind: 'pipeline', op: 'update', v2: true, id: decodeURIComponent(m[1]!), required: pipelineQuery, optional: UPDATE_GIT_PARAMS, contentType: 'application/yaml' };
  if ((m = path.match(/^\/pipeline\/api\/pipelines\/([^/]+)$/)) && (method === 'PUT' || method === 'GET'))
    return {
      method,
      kind: 'pipeline',
      op: method === 'PUT' ? 'update' : 'read',
      id: decodeURIComponent(m[1]!),
      required: pipelineQuery,
      optional: method === 'GET' ? ['branch', 'loadFromFallbackBranch'] : [],
      ...(method === 'PUT' ? { contentType: 'application/yaml' } : {}),
    };
  return undefined;
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export interface RestRequest {
  readonly route: Route;
  readonly query: URLSearchParams;
  readonly contentType: string | undefined;
  readonly body: string;
  readonly accountId: string;
  readonly canWrite: boolean;
  readonly correlationId: string;
  /** The `If-Match` header (projects check it against their version). */
  readonly ifMatch?: string;
  readonly behaviour: Behaviour;
}

/** Validates and executes one REST call against the store. */
export function handleRest(store: Store, req: RestRequest): Answer {
  const { route, query, correlationId } = req;
  const bad = (message: string): Answer => ({ status: 400, body: errorBody('INVALID_REQUEST', message, correlationId), violation: message });
  for (const name of query.keys())
    if (!route.required.includes(name) && !route.optional.includes(name)) return bad(`unexpected query parameter ${name}`);
  for (const name of route.required) if (!query.get(name)) return bad(`query parameter ${name} is required`);
  if (query.getAll('accountIdentifier').length !== 1) return bad('accountIdentifier given more than once');
  if (query.get('accountIdentifier') !== req.accountId)
    return { status: 401, body: errorBody('INVALID_CREDENTIAL', 'The API key does not belong to this account', correlationId) };
  if (route.op === 'read') return read(store, route, query, correlationId, req.behaviour);
  if (!req.canWrite)
    return { status: 403, body: errorBody('NG_ACCESS_DENIED', `Missing permission core_${route.kind}_edit on ${route.kind}`, correlationId) };
  const mime = req.contentType?.split(';')[0]!.trim().toLowerCase();
  if (mime !== route.contentType)
    return { status: 415, body: errorBody('UNSUPPORTED_MEDIA_TYPE', `Content-Type ${req.contentType ?? '(none)'} is not supported; use ${route.contentType}`, correlationId), violation: `content type ${req.contentType} on ${route.method} ${route.kind}` };
  let doc: unknown;
  try {
    doc = parse(req.body, { uniqueKeys: true });
  } catch (error) {
    return bad(`Invalid yaml: ${(error as Error).message.split('\n')[0]}`);
  }
  const root = asRecord(doc);
  if (!root || Object.keys(root).length !== 1 || !asRecord(root[route.kind])) return bad(`the body must be a YAML document with the single root key ${route.kind}`);
  const body = root[route.kind] as Record<string, unknown>;
  const identifier = str(body.identifier);
  if (!identifier || !IDENTIFIER.test(identifier)) return bad(`${route.kind} identifier ${JSON.stringify(body.identifier)} is not valid`);
  if (!str(body.name)) return bad(`${route.kind} name is required`);
  if (route.id !== undefined && route.id !== identifier) return bad(`identifier ${identifier} in the body differs from ${route.id} in the path`);
  const org = str(body.orgIdentifier);
  const project = route.kind === 'project' ? undefined : str(body.projectIdentifier);
  if (route.kind !== 'connector' && !org) return bad(`${route.kind} orgIdentifier is required`);
  if (route.kind === 'pipeline' && !project) return bad('pipeline projectIdentifier is required');
  if (project && !org) return bad('a connector with projectIdentifier needs orgIdentifier');
  if (query.has('orgIdentifier') && query.get('orgIdentifier') !== org) return bad(`orgIdentifier ${query.get('orgIdentifier')} in the query differs from ${org} in the body`);
  if (query.has('projectIdentifier') && query.get('projectIdentifier') !== project) return bad(`projectIdentifier ${query.get('projectIdentifier')} in the query differs from ${project} in the body`);
  if (route.kind === 'connector' && (!str(body.type) || !asRecord(body.spec))) return bad('connector type and spec are required');
  if (route.kind === 'pipeline' && !Array.isArray(body.stages)) return bad('pipeline stages are required');
  // Semantic checks, not contract violations: the platform refuses documents whose scope does not exist.
  if (org && !store.orgs.has(org))
    return { status: 400, body: errorBody('INVALID_REQUEST', `Organization [${org}] does not exist`, correlationId) };
  if (project && !store.hasProject(org!, project))
    return { status: 400, body: errorBody('INVALID_REQUEST', `Project [${project}] in Organization [${org}] does not exist`, correlationId) };

  const existing = store.get(route.kind, org, project, identifier);
  if (route.op === 'create' && existing) {
    // The services word "exists" differently; pipewright must understand both.
    return route.kind === 'pipeline'
      ? { status: 400, body: errorBody('INVALID_REQUEST', `Pipeline [${identifier}] under Project[${project}], Organization [${org}] already exists`, correlationId) }
      : { status: 400, body: errorBody('DUPLICATE_FIELD', `${route.kind === 'project' ? 'A project' : 'A connector'} with identifier [${identifier}] is already present`, correlationId) };
  }
  // Updates of a missing id: each service words it its own way, all 400 INVALID_REQUEST (platform-facts-2.md §4.1).
  if (route.op === 'update' && !existing) {
    const message = {
      project: `Project with identifier [${identifier}] and orgIdentifier [${org}] not found`,
      connector: `No connector exists with the  Identifier ${identifier}`,
      pipeline: `Error while updating pipeline [${identifier}]: Pipeline [${identifier}] under Project[${project}], Organization [${org}] couldn't be updated or doesn't exist.`,
    }[route.kind];
    return { status: 400, body: errorBody('INVALID_REQUEST', message, correlationId) };
  }
  const { behaviour } = req;
  const limit = behaviour.limits[route.kind];
  if (route.op === 'create' && limit !== undefined && store.count(route.kind) >= limit)
    return {
      status: 400,
      body: errorBody('INVALID_REQUEST', `Maximum limit has reached for ${route.kind === 'connector' ? 'MULTIPLE_CONNECTORS' : route.kind.toUpperCase()}: the plan allows ${limit}`, correlationId),
    };
  if (route.kind === 'project' && route.op === 'update' && req.ifMatch !== undefined) {
    const asked = req.ifMatch.replace(/^W\//, '').replace(/^"|"$/g, '');
    if (asked !== String(existing!.version))
      return {
        status: 400,
        body: { status: 'FAILURE', code: 'OPTIMISTIC_LOCKING_EXCEPTION', message: 'Request failed as you have an older version of entity, please reload the page and try again.', correlationId, errors: null },
      };
  }
  const git = gitWrite(route, query, existing, req.body, correlationId);
  if ('answer' in git) return git.answer;
  // Governance runs on save: a denial answers 200 SUCCESS and stores nothing.
  const deny = behaviour.deny.find((d) => d.kind === route.kind && d.identifier === identifier);
  if (deny) {
    const governanceMetadata = denialMetadata(deny, req.accountId);
    const data = route.kind === 'pipeline' ? { governanceMetadata } : { [route.kind]: null, governanceMetadata };
    return { status: 200, body: { status: 'SUCCESS', data, metaData: null, correlationId } };
  }
  if (behaviour.withoutEntity.includes(identifier)) return { status: 200, body: { status: 'SUCCESS', data: null, metaData: null, correlationId } };
  const stored = store.put(
    {
      kind: route.kind,
      identifier,
      body,
      raw: req.body,
      ...(org ? { org } : {}),
      ...(project ? { project } : {}),
      ...(git.file ? { git: git.file } : {}),
    },
    route.op,
  );
  if (git.file) behaviour.commits.push({ repoName: git.file.repoName, branch: git.file.branch, filePath: git.file.filePath, message: query.get('commitMsg') ?? '', objectId: git.file.objectId });
  const data =
    route.kind === 'project'
      ? projectData(stored)
      : route.kind === 'connector'
        ? connectorData(stored)
        : route.v2
          ? { identifier, governanceMetadata: { deny: false, status: 'pass', details: [] } }
          : identifier;
  return { status: 200, body: { status: 'SUCCESS', data, metaData: null, correlationId }, wrote: true };
}

/**
 * The Git side of a pipeline write: a remote create names its file and commit message; an update of a remote
 * pipeline must go to /v2 with the blob it replaces, and a stale blob is a 409. Inline writes pass through.
 */
function gitWrite(route: Route, query: URLSearchParams, existing: StoredResource | undefined, content: string, correlationId: string): { answer: Answer } | { file?: StoredResource['git'] } {
  const violation = (message: string): { answer: Answer } => ({ answer: { status: 400, body: errorBody('INVALID_REQUEST', message, correlationId), violation: message } });
  if (route.kind !== 'pipeline') return {};
  if (route.op === 'create') {
    if (query.get('storeType') !== 'REMOTE') return {};
    const missing = ['connectorRef', 'repoName', 'branch', 'filePath', 'commitMsg'].filter((name) => !query.get(name));
    if (missing.length) return violation(`a remote create needs ${missing.join(', ')}`);
    return { file: newFile({ connectorRef: query.get('connectorRef')!, repoName: query.get('repoName')!, branch: query.get('branch')!, filePath: query.get('filePath')! }, content) };
  }
  if (!existing!.git) {
    if (query.get('lastObjectId')) return violation('lastObjectId sent for an inline pipeline');
    return {};
  }
  if (!route.v2) return violation('a remote pipeline updated without the Git parameters (PUT /pipelines/{id} instead of /v2)');
  const lastObjectId = query.get('lastObjectId');
  if (!lastObjectId) return violation('a remote update without lastObjectId overwrites the file blindly');
  if (!query.get('commitMsg')) return violation('a remote update without commitMsg');
  if (query.get('filePath') && query.get('filePath') !== existing!.git.filePath) return violation(`filePath ${query.get('filePath')} differs from the file ${existing!.git.filePath}`);
  if (existing!.git.missing) return { answer: { status: 400, body: missingFile(existing!.git, correlationId) } };
  if (lastObjectId !== existing!.git.objectId) return { answer: { status: 409, body: staleBlob(existing!.git, correlationId) } };
  return { file: commitTo(existing!, content) };
}

/** "Not there" in the form configured for the kind, with the platform's wording. */
export function notFoundAnswer(form: NotFoundForm, kind: Kind, identifier: string, scope: { org?: string; project?: string }, correlationId: string): Answer {
  const [status, code] = form.split(' ') as [string, string];
  const message =
    kind === 'project'
      ? `Project with orgIdentifier [${scope.org}] and identifier [${identifier}] not found`
      : kind === 'connector'
        ? `Connector with identifier [${identifier}] not found in project [${scope.project}] and org [${scope.org}].`
        : code === 'INVALID_REQUEST'
          ? `Pipeline with the given ID: ${identifier} does not exist or has been deleted`
          : `Pipeline [${identifier}] under Project[${scope.project}], Organization [${scope.org}] doesn't exist or has been deleted.`;
  // NotFoundExceptionMapper answers the FailureDTO shape; WingsExceptionMapperV2 the ErrorDTO one.
  const body = code === 'RESOURCE_NOT_FOUND_EXCEPTION' ? { status: 'FAILURE', code, message, correlationId, errors: null } : errorBody(code, message, correlationId);
  return { status: Number(status), body };
}

function read(store: Store, route: Route, query: URLSearchParams, correlationId: string, behaviour: Behaviour): Answer {
  const org = query.get('orgIdentifier') ?? undefined;
  const project = query.get('projectIdentifier') ?? undefined;
  if (project && !org)
    return { status: 400, body: errorBody('INVALID_REQUEST', 'projectIdentifier needs orgIdentifier', correlationId), violation: 'projectIdentifier without orgIdentifier' };
  const found = store.get(route.kind, org, route.kind === 'project' ? undefined : project, route.id!);
  if (!found) return notFoundAnswer(behaviour.notFound[route.kind], route.kind, route.id!, { ...(org ? { org } : {}), ...(project ? { project } : {}) }, correlationId);
  if (found.git) {
    const branch = query.get('branch');
    if (branch && branch !== found.git.branch) return { status: 400, body: missingFile({ ...found.git, branch }, correlationId) };
    if (found.git.missing) return { status: 400, body: missingFile(found.git, correlationId) };
  }
  const data = route.kind === 'project' ? projectData(found) : route.kind === 'connector' ? connectorData(found) : pipelineData(found);
  return {
    status: 200,
    body: { status: 'SUCCESS', data, metaData: null, correlationId },
    // ng-manager's EtagFilter: projects carry their version.
    ...(route.kind === 'project' ? { headers: { etag: `W/"${found.version}"` } } : {}),
  };
}

/** `governanceMetadata` of a denied write, in the platform's JSON form of the OPA evaluation. */
export function denialMetadata(deny: PolicyDeny, accountId: string) {
  return {
    id: `gov_${deny.identifier}`,
    deny: true,
    message: `Pipeline ${deny.identifier} could not be saved due to policy violations`,
    status: 'error',
    accountId,
    entity: deny.identifier,
    type: deny.kind,
    action: 'onsave',
    details: [
      {
        policySetId: `ps_${(deny.policySet ?? 'set').replace(/\W+/g, '_')}`,
        ...(deny.policySet ? { policySetName: deny.policySet } : {}),
        deny: true,
        status: 'error',
        policyMetadata: [{ policyId: 'p1', policyName: 'required-approval', severity: 'error', denyMessages: [deny.message], status: 'error' }],
      },
    ],
  };
}
