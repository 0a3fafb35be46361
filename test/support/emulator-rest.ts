import { parse } from 'yaml';
import { connectorData, pipelineData, projectData, type Kind, type Store } from './emulator-store.js';

/** An answer of the emulator: status and JSON body (the envelope, or the platform's error shape). */
export interface Answer {
  readonly status: number;
  readonly body?: unknown;
  /** Set when the request broke the API contract (wrong path, query, content type, body): tests assert none. */
  readonly violation?: string;
  /** A write that was applied. */
  readonly wrote?: boolean;
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
}

/** The spec's REST endpoints (and the update/read ones of DESIGN.md), relative to /gateway. */
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
  if ((m = path.match(/^\/pipeline\/api\/pipelines\/([^/]+)$/)) && (method === 'PUT' || method === 'GET'))
    return { method, kind: 'pipeline', op: method === 'PUT' ? 'update' : 'read', id: decodeURIComponent(m[1]!), required: pipelineQuery, optional: [], ...(method === 'PUT' ? { contentType: 'application/yaml' } : {}) };
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
  if (route.op === 'read') return read(store, route, query, correlationId);
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
  if (route.op === 'update' && !existing)
    return { status: 404, body: errorBody('ENTITY_NOT_FOUND', `${route.kind} [${identifier}] not found`, correlationId) };
  const stored = store.put(
    { kind: route.kind, identifier, body, raw: req.body, ...(org ? { org } : {}), ...(project ? { project } : {}) },
    route.op,
  );
  const data = route.kind === 'project' ? projectData(stored) : route.kind === 'connector' ? connectorData(stored) : identifier;
  return { status: 200, body: { status: 'SUCCESS', data, metaData: null, correlationId }, wrote: true };
}

function read(store: Store, route: Route, query: URLSearchParams, correlationId: string): Answer {
  const org = query.get('orgIdentifier') ?? undefined;
  const project = query.get('projectIdentifier') ?? undefined;
  if (project && !org)
    return { status: 400, body: errorBody('INVALID_REQUEST', 'projectIdentifier needs orgIdentifier', correlationId), violation: 'projectIdentifier without orgIdentifier' };
  const found = store.get(route.kind, org, route.kind === 'project' ? undefined : project, route.id!);
  if (!found)
    // Connectors answer "not there" with a 400, the other services with a 404.
    return route.kind === 'connector'
      ? { status: 400, body: errorBody('RESOURCE_NOT_FOUND_EXCEPTION', `Connector with identifier [${route.id}] in project [${project}], org [${org}] not found`, correlationId) }
      : { status: 404, body: errorBody('ENTITY_NOT_FOUND', `${route.kind === 'project' ? 'Project' : 'Pipeline'} with identifier [${route.id}] not found`, correlationId) };
  const data = route.kind === 'project' ? projectData(found) : route.kind === 'connector' ? connectorData(found) : pipelineData(found);
  return { status: 200, body: { status: 'SUCCESS', data, metaData: null, correlationId } };
}
