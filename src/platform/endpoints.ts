import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { readPlatformYaml, type PublishDocument } from './document.js';
import { dottedPath, valueAt } from '../core/document-path.js';
import { asRecord, asText } from './answers.js';
import type { ResourceKey } from '../catalog/resource-key.js';

/** One kind's REST endpoints, as the spec and DESIGN.md "Publish rules" name them. */
export interface Endpoint {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  /** A list of values is sent as the parameter repeated (`sort=a,ASC&sort=b,ASC`). */
  readonly query: Readonly<Record<string, string | readonly string[] | undefined>>;
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

type Call = 'create' | 'update' | 'read' | 'delete';

/**
 * How one kind is written and read: plain data, one row per kind (the spec's endpoints, DESIGN.md "Publish
 * rules", platform-facts-2.md §6). Paths are relative to `/gateway` and may hold `{id}` and `{version}`.
 */
export interface KindApi {
  readonly create: string;
  readonly update: string;
  readonly read: string;
  /** DELETE, with the read's query (scope, parent). */
  readonly delete: string;
  /** The list of a scope (and parent), a page at a time (platform-facts-3.md §3). */
  readonly list: ListApi;
  /** The content type of writes. */
  readonly contentType: string;
  /**
   * How a write carries the document: its YAML text as the body, or JSON naming the entity with these fields of
   * the document (copied as they are) and the YAML text in `yaml`.
   */
  readonly body: 'yaml' | { readonly json: readonly string[] };
  /** Whether writes name the scope in the query (`orgIdentifier`, `projectIdentifier`) or leave it to the body. */
  readonly writeScope: 'query' | 'body';
  /** The query parameter naming the parent (an input set's pipeline), and the calls that need it. */
  readonly parentQuery?: { readonly name: string; readonly on: readonly Call[] };
  /** The query parameter naming the version on a read (templates: the stable one without it). */
  readonly versionQuery?: string;
  /** Where a GET's `data` holds the document: an object under a key, or YAML text at a dotted path. */
  readonly answer: { readonly object: string } | { readonly yaml: string };
  /**
   * Where a write's `data` holds what was stored (dotted paths, `''` for `data` itself): an object, or the
   * identifier as text. A 200 without it stored nothing (platform-facts-2.md §4.2).
   */
  readonly written: readonly string[];
  /**
   * A field through which documents of this kind use each other (a stage template's `templateRef` to a step
   * template): those referred to are sent first, as the platform refuses a reference to something missing.
   */
  readonly refersToOwnKind?: string;
  /** The call that makes a version the stable one (templates: it is not in the YAML). */
  readonly stable?: string;
  /**
   * Query parameters every create of the kind carries. `storeType=INLINE`: without it the platform applies the
   * scope's "Default Store Type For Entities" (a Remote default makes an inline create fail with "No file path
   * provided."), as TF and harness-migrate know (platform-facts-3.md §2 D1). `withServiceV2=true`: a trigger keeps
   * the flag it was created with, and without it artifact and manifest triggers of service-v2 pipelines are saved
   * disabled (§2 D3).
   */
  readonly createQuery?: Readonly<Record<string, string>>;
  /**
   * Kinds the platform can keep as files in Git (Git Experience), with the platform's own layout for a new file
   * (`{org}`, `{project}`, `{parent}`, `{identifier}`; docs/platform/git-experience/autocreation-of-entities.md).
   */
  readonly gitFile?: string;
  /**
   * Kinds the platform can keep in Git whose answers hold the storage under the entity (`data.service.storeType`,
   * `.entityGitDetails`, `.connectorRef`, `.fallbackBranch`): the key of the entity. pipewright updates those that
   * live in Git there (with a `gitFiles` entry) and creates new ones inline.
   */
  readonly gitEntity?: string;
  /**
   * Templates: the platform keeps a version in Git when it was made so, with its storage at `data.storeType` and
   * `data.gitDetails` as pipelines have it. pipewright updates such a version in its file (the update takes
   * GitEntityUpdateInfoDTO as a pipeline's does: NGTemplateResource.java L219-252) and creates new ones inline.
   */
  readonly updatedInGit?: true;
}

/**
 * A kind's list call. Page parameters differ by service (`page`/`size` or `pageIndex`/`pageSize`), and so does the
 * page: NG's `{content, totalPages, pageIndex}` or Spring's `{content, last, number}`; both are read.
 */
interface ListApi {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly pageQuery: readonly [index: string, size: string];
  /** Fixed query parameters (`templateListType=All`, `inputSetType=INPUT_SET`). */
  readonly query?: Readonly<Record<string, string>>;
  /** The JSON body of a POST list (its filter). */
  readonly body?: string;
  /** Where an item of `content` holds the entity: under a key (`service`), or the item itself (`''`). */
  readonly entity: string;
  /** Whether the entity holds the document as the GET does (its YAML, or the object): then no GET is needed. */
  readonly complete: boolean;
  /**
   * A stable order, for lists that take Spring's `sort`: the pipeline list sorts by `lastUpdatedAt DESC` by default
   * (PipelineResourceImpl.java L415), so an edit during paging would move an item across pages and a reader would
   * miss it (platform-facts-3.md §3, "Use a stable sort"). The NG lists paged by `pageIndex` take no `sort`.
   * Each key is a `sort` parameter of its own, in order (`PageUtils.getPageRequest` makes one order of each); the
   * keys together must name one item, or items that tie may change places between pages.
   */
  readonly sort?: readonly string[];
}

const INLINE = { storeType: 'INLINE' } as const;
const PAGE = ['page', 'size'] as const;
const PAGE_INDEX = ['pageIndex', 'pageSize'] as const;
const BY_IDENTIFIER = ['identifier,ASC'] as const;
/**
 * The versions of a template share its identifier: by identifier alone they tie, and Mongo returns ties in no
 * fixed order. The version label breaks the tie (docs/publishing.md, "Reading an account").
 */
const BY_IDENTIFIER_AND_VERSION = ['identifier,ASC', 'versionLabel,ASC'] as const;

const ENDPOINTS: Readonly<Record<ResourceKind, KindApi>> = {
  project: {
    create: '/ng/api/projects',
    update: '/ng/api/projects/{id}',
    read: '/ng/api/projects/{id}',
    delete: '/ng/api/projects/{id}',
    list: { method: 'GET', path: '/ng/api/projects', pageQuery: PAGE_INDEX, entity: 'project', complete: true },
    contentType: 'application/yaml',
    body: 'yaml',
    writeScope: 'query',
    answer: { object: 'project' },
    written: ['project'],
  },
  connector: {
    create: '/ng/api/connectors',
    // The connector service takes the identifier from the body.
    update: '/ng/api/connectors',
    read: '/ng/api/connectors/{id}',
    delete: '/ng/api/connectors/{id}',
    list: {
      method: 'POST',
      path: '/ng/api/connectors/listV2',
      pageQuery: PAGE_INDEX,
      body: '{"filterType":"Connector"}',
      entity: 'connector',
      complete: true,
    },
    contentType: 'text/yaml',
    body: 'yaml',
    writeScope: 'body',
    answer: { object: 'connector' },
    written: ['connector'],
  },
  service: {
    create: '/ng/api/servicesV2',
    // The identifier travels in the body, as for connectors.
    update: '/ng/api/servicesV2',
    read: '/ng/api/servicesV2/{id}',
    delete: '/ng/api/servicesV2/{id}',
    list: {
      method: 'GET',
      path: '/ng/api/servicesV2',
      pageQuery: PAGE,
      sort: BY_IDENTIFIER,
      entity: 'service',
      complete: true,
    },
    contentType: 'application/json',
    body: { json: ['identifier', 'orgIdentifier', 'projectIdentifier', 'name', 'description', 'tags'] },
    writeScope: 'body',
    answer: { yaml: 'service.yaml' },
    written: ['service'],
    gitEntity: 'service',
    createQuery: INLINE,
  },
  environment: {
    create: '/ng/api/environmentsV2',
    update: '/ng/api/environmentsV2',
    read: '/ng/api/environmentsV2/{id}',
    delete: '/ng/api/environmentsV2/{id}',
    list: {
      method: 'GET',
      path: '/ng/api/environmentsV2',
      pageQuery: PAGE,
      sort: BY_IDENTIFIER,
      entity: 'environment',
      complete: true,
    },
    contentType: 'application/json',
    body: {
      json: ['identifier', 'orgIdentifier', 'projectIdentifier', 'name', 'description', 'color', 'type', 'tags'],
    },
    writeScope: 'body',
    answer: { yaml: 'environment.yaml' },
    written: ['environment'],
    gitEntity: 'environment',
    createQuery: INLINE,
  },
  infrastructure: {
    create: '/ng/api/infrastructures',
    update: '/ng/api/infrastructures',
    read: '/ng/api/infrastructures/{id}',
    delete: '/ng/api/infrastructures/{id}',
    list: {
      method: 'GET',
      path: '/ng/api/infrastructures',
      pageQuery: PAGE,
      sort: BY_IDENTIFIER,
      entity: 'infrastructure',
      complete: true,
    },
    contentType: 'application/json',
    body: {
      json: [
        'identifier',
        'orgIdentifier',
        'projectIdentifier',
        'environmentRef',
        'name',
        'description',
        'tags',
        'type',
      ],
    },
    writeScope: 'body',
    // Writes name the environment in the body; the GET needs it in the query. No Git settings apply to its
    // creates (GitXSettingsHelper is not called for infrastructures), so no storeType either.
    parentQuery: { name: 'environmentIdentifier', on: ['read'] },
    answer: { yaml: 'infrastructure.yaml' },
    written: ['infrastructure'],
    gitEntity: 'infrastructure',
  },
  template: {
    create: '/template/api/templates',
    update: '/template/api/templates/update/{id}/{version}',
    read: '/template/api/templates/{id}',
    delete: '/template/api/templates/{id}/{version}',
    list: {
      method: 'POST',
      path: '/template/api/templates/list-metadata',
      pageQuery: PAGE,
      sort: BY_IDENTIFIER_AND_VERSION,
      query: { templateListType: 'All' },
      body: '{"filterType":"Template"}',
      entity: '',
      complete: false,
    },
    contentType: 'application/yaml',
    body: 'yaml',
    writeScope: 'query',
    // Without it, the GET answers the stable version, which may be another one.
    versionQuery: 'versionLabel',
    answer: { yaml: 'yaml' },
    // Create and update answer a TemplateWrapperResponse around the entity.
    written: ['templateResponseDTO'],
    refersToOwnKind: 'templateRef',
    stable: '/template/api/templates/updateStableTemplate/{id}/{version}',
    updatedInGit: true,
    createQuery: INLINE,
  },
  pipeline: {
    // The v2 calls, as every current official client and the UI use: the unversioned ones are @Deprecated and
    // answer a policy denial as a bare 400 (platform-facts-3.md §2 D5, D2).
    create: '/pipeline/api/pipelines/v2',
    update: '/pipeline/api/pipelines/v2/{id}',
    read: '/pipeline/api/pipelines/{id}',
    delete: '/pipeline/api/pipelines/{id}',
    list: {
      method: 'POST',
      path: '/pipeline/api/pipelines/list',
      pageQuery: PAGE,
      sort: BY_IDENTIFIER,
      body: '{"filterType":"PipelineSetup"}',
      entity: '',
      complete: false,
    },
    contentType: 'application/yaml',
    body: 'yaml',
    writeScope: 'query',
    answer: { yaml: 'yamlPipeline' },
    // `{ identifier, governanceMetadata, publicAccessResponse }`.
    written: ['identifier'],
    createQuery: INLINE,
    gitFile: '.harness/orgs/{org}/projects/{project}/pipelines/{identifier}.yaml',
  },
  inputSet: {
    create: '/pipeline/api/inputSets',
    update: '/pipeline/api/inputSets/{id}',
    read: '/pipeline/api/inputSets/{id}',
    delete: '/pipeline/api/inputSets/{id}',
    list: {
      method: 'GET',
      path: '/pipeline/api/inputSets',
      pageQuery: PAGE_INDEX,
      query: { inputSetType: 'INPUT_SET' },
      entity: '',
      complete: false,
    },
    contentType: 'application/yaml',
    body: 'yaml',
    writeScope: 'query',
    parentQuery: { name: 'pipelineIdentifier', on: ['create', 'update', 'read'] },
    answer: { yaml: 'inputSetYaml' },
    written: ['identifier'],
    createQuery: INLINE,
    // An input set is stored where its pipeline is: the platform refuses any other store type (D6).
    gitFile: '.harness/orgs/{org}/projects/{project}/pipelines/{parent}/input_sets/{identifier}.yaml',
  },
  overlayInputSet: {
    create: '/pipeline/api/inputSets/overlay',
    update: '/pipeline/api/inputSets/overlay/{id}',
    read: '/pipeline/api/inputSets/overlay/{id}',
    delete: '/pipeline/api/inputSets/{id}',
    list: {
      method: 'GET',
      path: '/pipeline/api/inputSets',
      pageQuery: PAGE_INDEX,
      query: { inputSetType: 'OVERLAY_INPUT_SET' },
      entity: '',
      complete: false,
    },
    contentType: 'application/yaml',
    body: 'yaml',
    writeScope: 'query',
    parentQuery: { name: 'pipelineIdentifier', on: ['create', 'update', 'read'] },
    answer: { yaml: 'overlayInputSetYaml' },
    written: ['identifier'],
    createQuery: INLINE,
    gitFile: '.harness/orgs/{org}/projects/{project}/pipelines/{parent}/input_sets/{identifier}.yaml',
  },
  trigger: {
    create: '/pipeline/api/triggers',
    update: '/pipeline/api/triggers/{id}',
    read: '/pipeline/api/triggers/{id}',
    delete: '/pipeline/api/triggers/{id}',
    list: {
      method: 'GET',
      path: '/pipeline/api/triggers',
      pageQuery: PAGE,
      sort: BY_IDENTIFIER,
      entity: '',
      complete: true,
    },
    contentType: 'application/yaml',
    body: 'yaml',
    writeScope: 'query',
    // The trigger's pipeline is its "target".
    parentQuery: { name: 'targetIdentifier', on: ['create', 'update', 'read'] },
    answer: { yaml: 'yaml' },
    written: ['identifier'],
    createQuery: { withServiceV2: 'true' },
  },
};

export const kindApi = (kind: ResourceKind): KindApi => ENDPOINTS[kind];

/**
 * The literal sub-paths beside `{id}` in a kind's read path, across the whole table: an identifier equal to one
 * reaches that route, not the resource (catalog/api-paths.ts keeps the list check uses; a test compares them).
 */
export function literalSiblings(kind: ResourceKind): string[] {
  const paths: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string' && value.startsWith('/')) paths.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(ENDPOINTS);
  const read = ENDPOINTS[kind].read;
  const base = `${read.slice(0, read.indexOf('/{id}'))}/`;
  const siblings = new Set<string>();
  for (const path of paths) {
    const segment = path.startsWith(base) ? path.slice(base.length).split('/')[0]! : '';
    if (/^[a-zA-Z_][0-9a-zA-Z_]*$/.test(segment)) siblings.add(segment);
  }
  return [...siblings].sort();
}

/** The query of a call: the account always, the scope when the call takes it there, the parent and version when needed. */
function queryOf(call: Call, res: ResourceKey, account: string): Record<string, string | undefined> {
  const api = ENDPOINTS[res.kind];
  const scoped = call === 'read' || call === 'delete' || api.writeScope === 'query';
  return {
    accountIdentifier: account,
    ...(scoped ? { orgIdentifier: res.org, projectIdentifier: res.project } : {}),
    ...(api.parentQuery?.on.includes(call === 'delete' ? 'read' : call) ? { [api.parentQuery.name]: res.parent } : {}),
    ...(call === 'read' && api.versionQuery ? { [api.versionQuery]: res.version } : {}),
    ...(call === 'create' ? api.createQuery : {}),
  };
}

const pathOf = (template: string, res: ResourceKey): string =>
  `/gateway${template.replace('{id}', id(res.identifier)).replace('{version}', id(res.version ?? ''))}`;

function endpoint(call: Call, res: ResourceKey, account: string): Endpoint {
  const api = ENDPOINTS[res.kind];
  const method = call === 'create' ? 'POST' : call === 'update' ? 'PUT' : call === 'delete' ? 'DELETE' : 'GET';
  const writes = call === 'create' || call === 'update';
  return {
    method,
    path: pathOf(api[call], res),
    query: queryOf(call, res, account),
    ...(writes ? { contentType: api.contentType } : {}),
  };
}

export const createEndpoint = (res: ResourceKey, account: string): Endpoint => endpoint('create', res, account);
export const updateEndpoint = (res: ResourceKey, account: string): Endpoint => endpoint('update', res, account);
export const readEndpoint = (res: ResourceKey, account: string): Endpoint => endpoint('read', res, account);
export const deleteEndpoint = (res: ResourceKey, account: string): Endpoint => endpoint('delete', res, account);

/** Where a list looks: a scope, and for kinds that belong to something (input sets, triggers, infrastructures) the parent. */
export interface ListScope {
  readonly kind: ResourceKind;
  readonly org?: string;
  readonly project?: string;
  readonly parent?: string;
  /** Query parameters over the list's own (pull lists both kinds of input set at once: `inputSetType=ALL`). */
  readonly query?: Readonly<Record<string, string>>;
}

/** One page of a kind's list in a scope (`index` from 0, `size` items). */
export function listEndpoint(
  scope: ListScope,
  account: string,
  index: number,
  size: number,
): Endpoint & { body?: string } {
  const api = ENDPOINTS[scope.kind];
  const { list } = api;
  return {
    method: list.method,
    path: `/gateway${list.path}`,
    query: {
      accountIdentifier: account,
      orgIdentifier: scope.org,
      projectIdentifier: scope.kind === 'project' ? undefined : scope.project,
      ...(api.parentQuery && scope.parent !== undefined ? { [api.parentQuery.name]: scope.parent } : {}),
      ...list.query,
      ...scope.query,
      [list.pageQuery[0]]: String(index),
      [list.pageQuery[1]]: String(size),
      ...(list.sort ? { sort: list.sort } : {}),
    },
    ...(list.body ? { contentType: 'application/json', body: list.body } : {}),
  };
}

/**
 * PUT that makes `res.version` the stable version (platform-facts-2.md §6, `updateStableTemplate`); no body. A version
 * kept in Git names its `branch`: without it the platform answers "No branch provided for modifying the file"
 * (platform-facts-3.md §1 #15; terraform-provider-harness issue #1244).
 */
export function stableEndpoint(res: ResourceKey, account: string, branch?: string): Endpoint {
  const path = ENDPOINTS[res.kind].stable;
  if (!path) throw new TypeError(`${res.kind} has no stable version`);
  return {
    method: 'PUT',
    path: pathOf(path, res),
    query: {
      accountIdentifier: account,
      orgIdentifier: res.org,
      projectIdentifier: res.project,
      ...(branch ? { branch } : {}),
    },
  };
}

/** The body of a write: the YAML text, or JSON with the entity's fields and the YAML text in `yaml`. */
export function requestBody(document: PublishDocument): string {
  const { body } = ENDPOINTS[document.id.kind];
  if (body === 'yaml') return document.yaml;
  const fields = asRecord(document.value[kindRow(document.id.kind).rootKey]) ?? {};
  const named = body.json.filter((field) => fields[field] !== undefined).map((field) => [field, fields[field]]);
  return JSON.stringify({ ...Object.fromEntries(named), yaml: document.yaml });
}

/** Whether the platform can keep documents of this kind in Git. */
export const storableInGit = (kind: ResourceKind): boolean => ENDPOINTS[kind].gitFile !== undefined;

/**
 * Whether a document of this kind that lives in Git can be read and updated there: the kinds pipewright also creates
 * in Git, and services, environments and infrastructure definitions (updated in Git, created inline).
 */
export const updatableInGit = (kind: ResourceKind): boolean =>
  storableInGit(kind) || ENDPOINTS[kind].gitEntity !== undefined || ENDPOINTS[kind].updatedInGit === true;

/** The platform's own place for a new file of this resource in Git. */
export function defaultGitFile(res: ResourceKey): string {
  const template = ENDPOINTS[res.kind].gitFile;
  if (!template) throw new TypeError(`${res.kind} cannot be stored in Git`);
  const parts: Record<string, string | undefined> = {
    org: res.org,
    project: res.project,
    parent: res.parent,
    identifier: res.identifier,
  };
  return template.replace(/\{(org|project|parent|identifier)\}/g, (_, name: string) => parts[name] ?? '_');
}

/**
 * A create with the Git query parameters (GitEntityCreateInfoDTO): `storeType=REMOTE` instead of INLINE, and where the
 * platform commits the file.
 */
export function createRemoteEndpoint(res: ResourceKey, account: string, git: GitTarget): Endpoint {
  const plain = endpoint('create', res, account);
  return {
    ...plain,
    query: {
      ...plain.query,
      storeType: 'REMOTE',
      connectorRef: git.connectorRef,
      repoName: git.repoName,
      branch: git.branch,
      filePath: git.filePath,
      commitMsg: git.commitMsg,
      isNewBranch: 'false',
    },
  };
}

/**
 * An update of a Git-stored resource (GitEntityUpdateInfoDTO): `lastObjectId` (and `lastCommitId`, which Bitbucket
 * needs) say which version of the file this replaces, so a file changed in Git meanwhile answers 409 instead of
 * being overwritten. No `repoName`: the platform takes the repository from the stored entity. Services, environments
 * and infrastructure definitions write the file only when the update says `storeType=REMOTE`, and take the
 * connector and file from the stored entity too (ServiceRepositoryCustomImpl.java L117-123 and its siblings,
 * docs/publishing.md "Services, environments and infrastructure definitions in Git").
 */
export function updateRemoteEndpoint(res: ResourceKey, account: string, git: GitTarget, version: GitVersion): Endpoint {
  const plain = endpoint('update', res, account);
  const where = ENDPOINTS[res.kind].gitEntity
    ? { storeType: 'REMOTE' }
    : { connectorRef: git.connectorRef, filePath: git.filePath, isNewBranch: 'false' };
  return {
    ...plain,
    query: {
      ...plain.query,
      ...where,
      branch: git.branch,
      commitMsg: git.commitMsg,
      lastObjectId: version.objectId,
      lastCommitId: version.commitId,
    },
  };
}

/**
 * `public=true` on a pipeline update: the v2 update makes a pipeline private unless told otherwise (`public` defaults
 * to false, PipelineResourceImpl.java L164-176, L384), so a pipeline someone made public stays public.
 */
export function withPublic(endpoint: Endpoint, isPublic: boolean | undefined): Endpoint {
  return isPublic ? { ...endpoint, query: { ...endpoint.query, public: 'true' } } : endpoint;
}

/** `If-Match` for a project update: the version the GET's ETag carried (ng-manager strips the `W/`). */
export function withIfMatch(endpoint: Endpoint, etag: string | undefined): Endpoint {
  if (!etag) return endpoint;
  return { ...endpoint, headers: { ...endpoint.headers, 'if-match': etag.replace(/^W\//, '').replace(/^"|"$/g, '') } };
}

/**
 * A read on a Git branch. `Load-From-Cache` is not sent: it already defaults to false (PipelineResource.java L264).
 */
export function readRemoteEndpoint(res: ResourceKey, account: string, branch: string): Endpoint {
  const plain = readEndpoint(res, account);
  return { ...plain, query: { ...plain.query, branch } };
}

/**
 * One page of the account's organizations: `GET /ng/api/organizations?accountIdentifier&pageIndex&pageSize`, an NG
 * page of `{organization: {...}}` (OrganizationResource.java L171-200; harness-go-sdk api_organization.go
 * GetOrganizationList).
 */
export function organizationListEndpoint(account: string, index: number, size: number): Endpoint {
  return {
    method: 'GET',
    path: '/gateway/ng/api/organizations',
    query: { accountIdentifier: account, pageIndex: String(index), pageSize: String(size) },
  };
}

/** GET `/ng/api/organizations/{id}` (OrganizationResource.java L146-168; a missing one is 400 RESOURCE_NOT_FOUND_EXCEPTION). */
export function organizationEndpoint(identifier: string, account: string): Endpoint {
  return {
    method: 'GET',
    path: `/gateway/ng/api/organizations/${id(identifier)}`,
    query: { accountIdentifier: account },
  };
}

/**
 * The policy type of each kind the platform evaluates on save, and the key its evaluation input holds the
 * document under (harness-core 950-opa-client/.../OpaConstants.java; the inputs: GovernanceServiceHelper.java
 * L129-134 `{pipeline, date}`, L150-155 `{template, date}`, OpaConnectorServiceImpl.java L38 `{entity}`).
 */
const POLICY_TYPES: Partial<Record<ResourceKind, { readonly type: string; readonly inputKey: string }>> = {
  pipeline: { type: 'pipeline', inputKey: 'pipeline' },
  template: { type: 'template', inputKey: 'template' },
  connector: { type: 'connector', inputKey: 'entity' },
};

/** Whether the platform evaluates policies on saving documents of this kind. */
export const hasPolicyType = (kind: ResourceKind): boolean => POLICY_TYPES[kind] !== undefined;

/**
 * POST `/pm/api/v1/evaluate-by-type`: the scope's enabled policy sets of the kind's type for the `onsave` action,
 * evaluated against the document as the platform would on a save (harness-go-sdk harness/policymgmt/api_evaluate.go
 * L463-491; the body is the evaluation input, as OpaServiceClient.java L25-30 sends it). The answer is the policy
 * service's own JSON, not the NG envelope.
 */
export function policyEvaluationEndpoint(
  document: PublishDocument,
  account: string,
  now: Date,
): Endpoint & { body: string } {
  const { id } = document;
  const policy = POLICY_TYPES[id.kind];
  if (!policy) throw new TypeError(`${id.kind} has no policy type`);
  const body = asRecord(document.value[kindRow(id.kind).rootKey]) ?? {};
  const name = typeof body.name === 'string' ? body.name : id.identifier;
  // As the platform names the entity (GovernanceServiceHelper.java L46-52 for pipelines; the identifier otherwise).
  const entity =
    id.kind === 'pipeline'
      ? `accountIdentifier:${account}/orgIdentifier:${id.org}/projectIdentifier:${id.project}/pipelineIdentifier:${id.identifier}`
      : id.identifier;
  return {
    method: 'POST',
    path: '/gateway/pm/api/v1/evaluate-by-type',
    query: {
      accountIdentifier: account,
      orgIdentifier: id.org,
      projectIdentifier: id.project,
      type: policy.type,
      action: 'onsave',
      entity,
      entityMetadata: JSON.stringify(
        id.kind === 'pipeline' ? { pipelineIdentifier: id.identifier, entityName: name } : { entityName: name },
      ),
    },
    contentType: 'application/json',
    body: JSON.stringify({
      [policy.inputKey]: body,
      ...(policy.inputKey === 'entity' ? {} : { date: now.toISOString() }),
    }),
  };
}

/** GET `/pipeline/api/triggers/{id}/details`: the trigger with `triggerStatus` (why the platform disabled it). */
export function triggerDetailsEndpoint(res: ResourceKey, account: string): Endpoint {
  const plain = readEndpoint(res, account);
  return { ...plain, path: `${plain.path}/details` };
}

/** How the platform keeps a document that may live in Git, from its GET: in its own database, or as a file in Git. */
export interface Storage {
  readonly store: 'inline' | 'remote';
  readonly repoName?: string;
  readonly filePath?: string;
  readonly branch?: string;
  readonly connectorRef?: string;
  readonly version?: GitVersion;
}

/**
 * How a GET says the resource is kept: `data.storeType` and `data.gitDetails` (pipelines, input sets), or the same
 * under the entity as `storeType`, `entityGitDetails` and `fallbackBranch` (services, environments, infrastructure
 * definitions: ServiceElementMapper.java L140-173); INLINE when absent (older answers have neither).
 */
export function storageOf(kind: ResourceKind, data: unknown): Storage {
  const entityKey = ENDPOINTS[kind].gitEntity;
  const record = entityKey ? asRecord(valueAt(data, dottedPath(entityKey))) : asRecord(data);
  const git = asRecord(entityKey ? record?.entityGitDetails : record?.gitDetails);
  if (record?.storeType !== 'REMOTE') return { store: 'inline' };
  const objectId = asText(git?.objectId);
  const commitId = asText(git?.commitId);
  const repoName = asText(git?.repoName);
  const filePath = asText(git?.filePath);
  const branch = asText(git?.branch) ?? (entityKey ? asText(record.fallbackBranch) : undefined);
  const connectorRef = asText(record.connectorRef) ?? asText(git?.parentEntityConnectorRef);
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
 * Whether a pipeline GET says the pipeline is public: `data.publicAccessResponse.public` (Lombok's `isPublic` as
 * Jackson names it; `isPublic` read too). PipelineResourceImpl.java L311 sets it on every GET.
 */
export function isPublicIn(data: unknown): boolean {
  const access = asRecord(asRecord(data)?.publicAccessResponse);
  return access?.public === true || access?.isPublic === true;
}

/**
 * The document a GET returned, in the request's shape `{ <root key>: {...} }`: projects and connectors come as
 * objects under `data.<kind>`, the others as YAML text (`data.yamlPipeline`, `data.service.yaml`, `data.yaml`, ...).
 */
export function remoteDocument(kind: ResourceKind, data: unknown): Record<string, unknown> {
  const { rootKey } = kindRow(kind);
  const { answer } = ENDPOINTS[kind];
  if ('object' in answer) {
    const body = asRecord(valueAt(data, dottedPath(answer.object)));
    if (!body) throw new Error(`the ${kind} GET response has no data.${answer.object}`);
    return { [rootKey]: body };
  }
  const yamlText = valueAt(data, dottedPath(answer.yaml));
  if (typeof yamlText !== 'string') throw new Error(`the ${kind} GET response has no data.${answer.yaml} text`);
  // A stored document that no longer parses or validates (entityValidityDetails.valid false) still exists: it is
  // updated, not created.
  const invalid = { [rootKey]: {} };
  let parsed: Record<string, unknown> | undefined;
  try {
    parsed = asRecord(readPlatformYaml(yamlText));
  } catch {
    return invalid;
  }
  if (!parsed || !asRecord(parsed[rootKey])) {
    if (valueAt(data, dottedPath('entityValidityDetails.valid')) === false) return invalid;
    throw new Error(`data.${answer.yaml} is not a ${kindRow(kind).label} document`);
  }
  return { [rootKey]: parsed[rootKey] };
}
