import { readPlatformYaml, type PublishKind, type ResourceId } from './document.js';

/** One kind's REST endpoints, as the spec and DESIGN.md "Publish rules" name them. */
export interface Endpoint {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly contentType?: string;
}

const id = encodeURIComponent;

/** Query parameters naming the scope; the account is always there. */
function scopeQuery(kind: PublishKind, res: ResourceId, account: string): Record<string, string | undefined> {
  switch (kind) {
    case 'project':
      return { accountIdentifier: account, orgIdentifier: res.org };
    case 'connector':
      return { accountIdentifier: account };
    case 'pipeline':
      return { accountIdentifier: account, orgIdentifier: res.org, projectIdentifier: res.project };
  }
}

/** Content types differ by service: connectors are `text/yaml`, the others `application/yaml`. */
const CONTENT_TYPE: Readonly<Record<PublishKind, string>> = {
  project: 'application/yaml',
  connector: 'text/yaml',
  pipeline: 'application/yaml',
};

export function createEndpoint(res: ResourceId, account: string): Endpoint {
  const path = { project: '/gateway/ng/api/projects', connector: '/gateway/ng/api/connectors', pipeline: '/gateway/pipeline/api/pipelines' }[res.kind];
  return { method: 'POST', path, query: scopeQuery(res.kind, res, account), contentType: CONTENT_TYPE[res.kind] };
}

export function updateEndpoint(res: ResourceId, account: string): Endpoint {
  const path = {
    project: `/gateway/ng/api/projects/${id(res.identifier)}`,
    // The connector service takes the identifier from the body.
    connector: '/gateway/ng/api/connectors',
    pipeline: `/gateway/pipeline/api/pipelines/${id(res.identifier)}`,
  }[res.kind];
  return { method: 'PUT', path, query: scopeQuery(res.kind, res, account), contentType: CONTENT_TYPE[res.kind] };
}

export function readEndpoint(res: ResourceId, account: string): Endpoint {
  const path = {
    project: `/gateway/ng/api/projects/${id(res.identifier)}`,
    connector: `/gateway/ng/api/connectors/${id(res.identifier)}`,
    pipeline: `/gateway/pipeline/api/pipelines/${id(res.identifier)}`,
  }[res.kind];
  // A connector is found by its scope: org and project go in the query when it has them.
  const query =
    res.kind === 'connector'
      ? { accountIdentifier: account, orgIdentifier: res.org, projectIdentifier: res.project }
      : scopeQuery(res.kind, res, account);
  return { method: 'GET', path, query };
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/**
 * The document a GET returned, in the request's shape `{ <kind>: {...} }`: projects and connectors come as
 * objects under `data.<kind>`, pipelines as YAML text in `data.yamlPipeline`.
 */
export function remoteDocument(kind: PublishKind, data: unknown): Record<string, unknown> {
  const record = asRecord(data);
  if (kind === 'pipeline') {
    const yamlText = record?.yamlPipeline;
    if (typeof yamlText !== 'string') throw new Error('the pipeline GET response has no data.yamlPipeline text');
    const parsed = asRecord(readPlatformYaml(yamlText));
    if (!parsed || !asRecord(parsed.pipeline)) throw new Error('data.yamlPipeline is not a pipeline document');
    return { pipeline: parsed.pipeline };
  }
  const body = asRecord(record?.[kind]);
  if (!body) throw new Error(`the ${kind} GET response has no data.${kind}`);
  return { [kind]: body };
}
