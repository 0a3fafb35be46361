import { readPlatformYaml, type PublishKind, type ResourceId } from './document.js';

/** One kind's REST endpoints, as the spec and DESIGN.md "Publish rules" name them. */
export interface Endpoint {
  readonly method: 'GET' | 'POST' | 'PUT';
  readonly path: string;
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Where a Git-stored ("remote") pipeline lives, and the commit that writes it (platform-facts-2.md §5). */
export interface GitTarget {
  readonly connectorRef: string;
  readonly repoName: string;
  readonly branch: string;
  readonly filePath: string;
  readonly commitMsg: string;
}

/** What the GET of a remote pipeline said about its file: an update must name the blob and commit it replaces. */
export interface GitVersion {
  readonly objectId?: string;
  readonly commitId?: string;
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

/** POST `/pipeline/api/pipelines/v2` with the Git query parameters: the platform commits the file, then records it. */
export function createRemotePipelineEndpoint(res: ResourceId, account: string, git: GitTarget): Endpoint {
  return {
    method: 'POST',
    path: '/gateway/pipeline/api/pipelines/v2',
    query: {
      ...scopeQuery('pipeline', res, account),
      storeType: 'REMOTE',
      connectorRef: git.connectorRef,
      repoName: git.repoName,
      branch: git.branch,
      filePath: git.filePath,
      commitMsg: git.commitMsg,
      isNewBranch: 'false',
    },
    contentType: CONTENT_TYPE.pipeline,
  };
}

/**
 * PUT `/pipeline/api/pipelines/v2/{id}` for a remote pipeline: `lastObjectId` (and `lastCommitId`, which Bitbucket
 * needs) say which version of the file this replaces, so a file changed in Git meanwhile answers 409 instead of
 * being overwritten.
 */
export function updateRemotePipelineEndpoint(res: ResourceId, account: string, git: GitTarget, version: GitVersion): Endpoint {
  return {
    method: 'PUT',
    path: `/gateway/pipeline/api/pipelines/v2/${id(res.identifier)}`,
    query: {
      ...scopeQuery('pipeline', res, account),
      connectorRef: git.connectorRef,
      branch: git.branch,
      filePath: git.filePath,
      commitMsg: git.commitMsg,
      isNewBranch: 'false',
      lastObjectId: version.objectId,
      lastCommitId: version.commitId,
    },
    contentType: CONTENT_TYPE.pipeline,
  };
}

/** `If-Match` for a project update: the version the GET's ETag carried (ng-manager strips the `W/`). */
export function withIfMatch(endpoint: Endpoint, etag: string | undefined): Endpoint {
  if (!etag) return endpoint;
  return { ...endpoint, headers: { ...endpoint.headers, 'if-match': etag.replace(/^W\//, '').replace(/^"|"$/g, '') } };
}

/** A pipeline read on a branch, from Git rather than the platform's cache (the object id must be current). */
export function readRemotePipelineEndpoint(res: ResourceId, account: string, branch: string): Endpoint {
  const endpoint = readEndpoint(res, account);
  return { ...endpoint, query: { ...endpoint.query, branch }, headers: { 'load-from-cache': 'false' } };
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

/** How the platform keeps a pipeline, from its GET: in its own database, or as a file in Git. */
export interface Storage {
  readonly store: 'inline' | 'remote';
  readonly repoName?: string;
  readonly filePath?: string;
  readonly branch?: string;
  readonly connectorRef?: string;
  readonly version?: GitVersion;
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** `data.storeType` and `data.gitDetails` of a pipeline GET; INLINE when absent (older answers have neither). */
export function storageOf(data: unknown): Storage {
  const record = asRecord(data);
  const git = asRecord(record?.gitDetails);
  if (record?.storeType !== 'REMOTE') return { store: 'inline' };
  const objectId = textOf(git?.objectId);
  const commitId = textOf(git?.commitId);
  const repoName = textOf(git?.repoName);
  const filePath = textOf(git?.filePath);
  const branch = textOf(git?.branch);
  const connectorRef = textOf(record.connectorRef) ?? textOf(git?.parentEntityConnectorRef);
  return {
    store: 'remote',
    ...(repoName ? { repoName } : {}),
    ...(filePath ? { filePath } : {}),
    ...(branch ? { branch } : {}),
    ...(connectorRef ? { connectorRef } : {}),
    version: { ...(objectId ? { objectId } : {}), ...(commitId ? { commitId } : {}) },
  };
}

/**
 * The document a GET returned, in the request's shape `{ <kind>: {...} }`: projects and connectors come as
 * objects under `data.<kind>`, pipelines as YAML text in `data.yamlPipeline`.
 */
export function remoteDocument(kind: PublishKind, data: unknown): Record<string, unknown> {
  const record = asRecord(data);
  if (kind === 'pipeline') {
    const yamlText = record?.yamlPipeline;
    if (typeof yamlText !== 'string') throw new Error('the pipeline GET response has no data.yamlPipeline text');
    let parsed: Record<string, unknown> | undefined;
    try {
      parsed = asRecord(readPlatformYaml(yamlText));
    } catch {
      // An invalid stored pipeline (entityValidityDetails.valid false) still exists: it is updated, not created.
      return { pipeline: {} };
    }
    if (!parsed || !asRecord(parsed.pipeline)) {
      if (asRecord(record?.entityValidityDetails)?.valid === false) return { pipeline: {} };
      throw new Error('data.yamlPipeline is not a pipeline document');
    }
    return { pipeline: parsed.pipeline };
  }
  const body = asRecord(record?.[kind]);
  if (!body) throw new Error(`the ${kind} GET response has no data.${kind}`);
  return { [kind]: body };
}
