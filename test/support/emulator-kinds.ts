import { CREATE_GIT_PARAMS, UPDATE_GIT_PARAMS } from './emulator-git.js';
import {
  connectorData,
  pipelineChildData,
  pipelineData,
  projectData,
  templateData,
  yamlEntityData,
  type Kind,
  type StoredResource,
} from './emulator-store.js';

/**
 * What differs by kind on the platform, as the emulator answers it: its endpoints, how a write carries the
 * document, where its scope and parent come from, and how it says "exists" and "not there"
 * (spec/delivery-platform-api.md, DESIGN.md "Publish rules", platform-facts-2.md §3, §4 and §6). Kept apart from
 * pipewright's own table on purpose: the emulator checks pipewright, so it must not share its answers.
 */

export type Op = 'create' | 'update' | 'read' | 'stable' | 'details' | 'delete';

/** The forms "not there" takes on the platform (platform-facts-2.md §3). */
export type NotFoundForm =
  | '404 ENTITY_NOT_FOUND'
  | '404 RESOURCE_NOT_FOUND'
  | '404 RESOURCE_NOT_FOUND_EXCEPTION'
  | '400 RESOURCE_NOT_FOUND_EXCEPTION'
  | '400 INVALID_REQUEST';

interface Scope {
  readonly org?: string;
  readonly project?: string;
}
const inProject = ({ org, project }: Scope) => `Project[${project}], Organization [${org}]`;

export interface KindFacts {
  readonly rootKey: string;
  readonly label: string;
  /**
   * How writes carry the document: the YAML text as the body, or JSON whose `yaml` field holds it, beside copies of
   * some of its fields (services, environments, infrastructures: platform-facts-2.md §6).
   */
  readonly body: 'yaml' | 'json';
  /** Fields of a JSON body that repeat the YAML's; they must agree with it. */
  readonly jsonFields?: readonly string[];
  /** `query`: the scope is in the query and must equal the document's; `body`: only the document says it. */
  readonly scopeFrom: 'query' | 'body';
  /** Which scopes a document may have. */
  readonly needs: { readonly org: boolean; readonly project: boolean };
  /** The field naming the parent (dotted), and the query parameter repeating it on the operations listed. */
  readonly parent?: { readonly field: string; readonly query: string; readonly on: readonly Op[]; readonly kind: Kind };
  /** Templates: `versionLabel` is part of the identity. */
  readonly versioned?: boolean;
  /** The kind's default answer to a GET of something missing (§3), and its words. */
  readonly notFound: NotFoundForm;
  readonly notFoundMessage: (identifier: string, scope: Scope, versionLabel?: string) => string;
  /** The answer to a create of something that exists (§4.3). */
  readonly exists: (
    identifier: string,
    scope: Scope,
    versionLabel?: string,
  ) => { readonly code: string; readonly message: string };
  /** The 400 INVALID_REQUEST message of an update of something missing (§4.1). */
  readonly updateMissing: (identifier: string, scope: Scope) => string;
  /** `data` of a GET, and of a write (when different). */
  readonly data: (stored: StoredResource) => unknown;
  readonly written?: (stored: StoredResource) => unknown;
  /** The key of `data` that a denied write leaves null (§4.2); none: `data` holds only the governance metadata. */
  readonly entityKey?: string;
}

const pipelineChild = (label: string, rootKey: string, field: string): Omit<KindFacts, 'kind'> => ({
  rootKey,
  label,
  body: 'yaml',
  scopeFrom: 'query',
  needs: { org: true, project: true },
  parent: { field, query: 'pipelineIdentifier', on: ['create', 'update', 'read'], kind: 'pipeline' },
  notFound: '400 INVALID_REQUEST',
  notFoundMessage: (id) => `InputSet with the given ID: ${id} does not exist or has been deleted`,
  exists: (id, scope) => ({
    code: 'DUPLICATE_FIELD',
    message: `Input set [${id}] under ${inProject(scope)} already exists`,
  }),
  updateMissing: (id, scope) => `Input set [${id}] under ${inProject(scope)} couldn't be updated or doesn't exist.`,
  data: pipelineChildData,
});

const ngEntity = (
  kind: 'service' | 'environment' | 'infrastructure',
  label: string,
  rootKey: string,
  jsonFields: readonly string[],
): Omit<KindFacts, 'kind'> => ({
  rootKey,
  label,
  body: 'json',
  jsonFields,
  scopeFrom: 'body',
  needs: { org: false, project: false },
  notFound: '400 RESOURCE_NOT_FOUND_EXCEPTION',
  notFoundMessage: (id, { org, project }) =>
    `${label[0]!.toUpperCase()}${label.slice(1)} with identifier [${id}] in project [${project}], org [${org}] not found`,
  exists: (id, scope) => ({
    code: 'DUPLICATE_FIELD',
    message: `${label[0]!.toUpperCase()}${label.slice(1)} [${id}] under ${inProject(scope)} already exists`,
  }),
  updateMissing: (id, { org, project }) =>
    `${label[0]!.toUpperCase()}${label.slice(1)} [${id}] under Project[${project}], Organization [${org}] doesn't exist.`,
  data: (r) => yamlEntityData(r),
  entityKey: kind,
});

export const KIND_FACTS: Readonly<Record<Kind, KindFacts>> = {
  project: {
    rootKey: 'project',
    label: 'project',
    body: 'yaml',
    scopeFrom: 'query',
    needs: { org: true, project: false },
    notFound: '404 ENTITY_NOT_FOUND',
    notFoundMessage: (id, { org }) => `Project with orgIdentifier [${org}] and identifier [${id}] not found`,
    exists: (id) => ({ code: 'DUPLICATE_FIELD', message: `A project with identifier [${id}] is already present` }),
    updateMissing: (id, { org }) => `Project with identifier [${id}] and orgIdentifier [${org}] not found`,
    data: projectData,
    entityKey: 'project',
  },
  connector: {
    rootKey: 'connector',
    label: 'connector',
    body: 'yaml',
    scopeFrom: 'body',
    needs: { org: false, project: false },
    notFound: '400 RESOURCE_NOT_FOUND_EXCEPTION',
    notFoundMessage: (id, { org, project }) =>
      `Connector with identifier [${id}] not found in project [${project}] and org [${org}].`,
    exists: (id) => ({ code: 'DUPLICATE_FIELD', message: `A connector with identifier [${id}] is already present` }),
    updateMissing: (id) => `No connector exists with the  Identifier ${id}`,
    data: connectorData,
    entityKey: 'connector',
  },
  pipeline: {
    rootKey: 'pipeline',
    label: 'pipeline',
    body: 'yaml',
    scopeFrom: 'query',
    needs: { org: true, project: true },
    notFound: '404 ENTITY_NOT_FOUND',
    notFoundMessage: (id, scope) => `Pipeline [${id}] under ${inProject(scope)} doesn't exist or has been deleted.`,
    // PMSPipelineServiceImpl.java L184-185 (DuplicateFieldException).
    exists: (id, scope) => ({
      code: 'DUPLICATE_FIELD',
      message: `Pipeline [${id}] under ${inProject(scope)} already exists or has been deleted.`,
    }),
    updateMissing: (id, scope) =>
      `Error while updating pipeline [${id}]: Pipeline [${id}] under ${inProject(scope)} couldn't be updated or doesn't exist.`,
    data: pipelineData,
  },
  service: ngEntity('service', 'service', 'service', [
    'identifier',
    'orgIdentifier',
    'projectIdentifier',
    'name',
    'description',
    'tags',
  ]),
  environment: ngEntity('environment', 'environment', 'environment', [
    'identifier',
    'orgIdentifier',
    'projectIdentifier',
    'name',
    'description',
    'tags',
    'color',
    'type',
  ]),
  infrastructure: {
    ...ngEntity('infrastructure', 'infrastructure', 'infrastructureDefinition', [
      'identifier',
      'orgIdentifier',
      'projectIdentifier',
      'environmentRef',
      'name',
      'description',
      'tags',
      'type',
    ]),
    // The GET needs the environment (platform-facts-2.md §6); writes take it from the body.
    parent: { field: 'environmentRef', query: 'environmentIdentifier', on: ['read'], kind: 'environment' },
    exists: (id, scope) => ({
      code: 'DUPLICATE_FIELD',
      message: `Infrastructure [${id}] under ${inProject(scope)} already exists`,
    }),
  },
  template: {
    rootKey: 'template',
    label: 'template',
    body: 'yaml',
    scopeFrom: 'query',
    needs: { org: false, project: false },
    versioned: true,
    notFound: '400 RESOURCE_NOT_FOUND_EXCEPTION',
    notFoundMessage: (id, _scope, versionLabel) =>
      versionLabel
        ? `Template with the given Identifier: ${id} and versionLabel: ${versionLabel} does not exist or has been deleted`
        : `Template with the given Identifier: ${id} and stable versionLabel does not exist or has been deleted`,
    exists: (id, scope, versionLabel) => ({
      code: 'DUPLICATE_FIELD',
      message: `Template [${id}] of versionLabel [${versionLabel}] under ${inProject(scope)} already exists`,
    }),
    updateMissing: (id, scope) => `Template with identifier [${id}] under ${inProject(scope)} doesn't exist.`,
    data: templateData,
    // Create and update answer a TemplateWrapperResponse around the entity.
    written: (stored) => ({
      isValid: true,
      templateResponseDTO: templateData(stored),
      governanceMetadata: { deny: false, status: 'pass', details: [] },
    }),
    entityKey: 'templateResponseDTO',
  },
  inputSet: pipelineChild('input set', 'inputSet', 'pipeline.identifier'),
  overlayInputSet: pipelineChild('overlay input set', 'overlayInputSet', 'pipelineIdentifier'),
  trigger: {
    rootKey: 'trigger',
    label: 'trigger',
    body: 'yaml',
    scopeFrom: 'query',
    needs: { org: true, project: true },
    parent: {
      field: 'pipelineIdentifier',
      query: 'targetIdentifier',
      on: ['create', 'update', 'read'],
      kind: 'pipeline',
    },
    notFound: '404 ENTITY_NOT_FOUND',
    notFoundMessage: (id) => `Trigger ${id} does not exist`,
    // NGTriggerServiceImpl.java L203, wrapped by NGTriggerResourceImpl.java L132-133.
    exists: (id) => ({
      code: 'INVALID_REQUEST',
      message: `Failed while Saving Trigger: Trigger [${id}] already exists or is soft deleted`,
    }),
    updateMissing: (id) => `Trigger [${id}] doesn't exist or has been deleted`,
    data: pipelineChildData,
  },
};

/** What each kind answers today for "not there" (platform-facts-2.md §3). */
export const DEFAULT_NOT_FOUND = Object.fromEntries(
  Object.entries(KIND_FACTS).map(([kind, facts]) => [kind, facts.notFound]),
) as Readonly<Record<Kind, NotFoundForm>>;

export interface Route {
  readonly method: string;
  readonly kind: Kind;
  readonly op: Op;
  /** Identifier from the path, when the path has one. */
  readonly id?: string;
  /** Templates: the version from the path of an update. */
  readonly versionLabel?: string;
  /** Query parameters: required ones and optional ones; anything else is a violation. */
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly contentType?: string;
  /** `/pipelines/v2`: Git parameters accepted, data `{ identifier, governanceMetadata, publicAccessResponse }`. */
  readonly v2?: boolean;
  /**
   * The unversioned pipeline create and update: `@Deprecated` on the platform (PipelineResource.java L118, L279);
   * every current official client uses /v2, and so must pipewright (platform-facts-3.md §2 D5).
   */
  readonly deprecated?: boolean;
}

type RouteSpec = Omit<Route, 'id' | 'versionLabel'> & { readonly path: RegExp };

const ACCOUNT = ['accountIdentifier'];
const SCOPE = ['orgIdentifier', 'projectIdentifier'];
const FULL = [...ACCOUNT, ...SCOPE];
const GIT_READ = ['branch', 'repoName', 'loadFromFallbackBranch'];
const YAML = 'application/yaml';
const JSON_TYPE = 'application/json';
const ID = '([^/]+)';

/** A kind's create, update and read routes, at `base` and `base/{id}` (or the update at `base` itself). */
function crud(
  kind: Kind,
  base: string,
  o: {
    write: readonly string[];
    read: readonly string[];
    readOptional?: readonly string[];
    writeOptional?: readonly string[];
    createOptional?: readonly string[];
    type: string;
    updateAtBase?: boolean;
  },
): RouteSpec[] {
  const at = new RegExp(`^${base}$`);
  const withId = new RegExp(`^${base}/${ID}$`);
  const writeOptional = o.writeOptional ?? [];
  return [
    {
      method: 'POST',
      path: at,
      kind,
      op: 'create',
      required: o.write,
      optional: o.createOptional ?? writeOptional,
      contentType: o.type,
    },
    {
      method: 'PUT',
      path: o.updateAtBase ? at : withId,
      kind,
      op: 'update',
      required: o.write,
      optional: writeOptional,
      contentType: o.type,
    },
    { method: 'GET', path: withId, kind, op: 'read', required: o.read, optional: o.readOptional ?? [] },
  ];
}

/** The endpoints of every kind, relative to /gateway; the first match wins (`inputSets/overlay` before `inputSets/{id}`). */
const ROUTES: readonly RouteSpec[] = [
  {
    method: 'POST',
    path: /^\/ng\/api\/projects$/,
    kind: 'project',
    op: 'create',
    required: [...ACCOUNT, 'orgIdentifier'],
    optional: [],
    contentType: YAML,
  },
  {
    method: 'PUT',
    path: /^\/ng\/api\/projects\/([^/]+)$/,
    kind: 'project',
    op: 'update',
    required: [...ACCOUNT, 'orgIdentifier'],
    optional: [],
    contentType: YAML,
  },
  {
    method: 'GET',
    path: /^\/ng\/api\/projects\/([^/]+)$/,
    kind: 'project',
    op: 'read',
    required: [...ACCOUNT, 'orgIdentifier'],
    optional: [],
  },
  ...crud('connector', '/ng/api/connectors', {
    write: ACCOUNT,
    read: ACCOUNT,
    readOptional: SCOPE,
    type: 'text/yaml',
    updateAtBase: true,
  }),
  {
    method: 'POST',
    path: /^\/pipeline\/api\/pipelines\/v2$/,
    kind: 'pipeline',
    op: 'create',
    v2: true,
    required: FULL,
    optional: [...CREATE_GIT_PARAMS, 'public'],
    contentType: YAML,
  },
  {
    method: 'PUT',
    path: /^\/pipeline\/api\/pipelines\/v2\/([^/]+)$/,
    kind: 'pipeline',
    op: 'update',
    v2: true,
    required: FULL,
    optional: [...UPDATE_GIT_PARAMS, 'public'],
    contentType: YAML,
  },
  ...crud('pipeline', '/pipeline/api/pipelines', {
    write: FULL,
    read: FULL,
    readOptional: ['branch', 'loadFromFallbackBranch'],
    writeOptional: CREATE_GIT_PARAMS,
    type: YAML,
  }).map((route) => (route.op === 'read' ? route : { ...route, deprecated: true })),
  // Services, environments and infrastructures: JSON with the YAML in `yaml`; the scope is in the body.
  // Their creates take GitEntityCreateInfoDTO (storeType among it), their updates GitEntityUpdateInfoDTO.
  // An update goes to the file only with storeType=REMOTE (ServiceRepositoryCustomImpl.java L117-123 and siblings).
  ...crud('service', '/ng/api/servicesV2', {
    write: ACCOUNT,
    read: ACCOUNT,
    readOptional: [...SCOPE, 'deleted', 'fetchResolvedYaml', ...GIT_READ],
    createOptional: CREATE_GIT_PARAMS,
    writeOptional: [...UPDATE_GIT_PARAMS, 'storeType'],
    type: JSON_TYPE,
    updateAtBase: true,
  }),
  ...crud('environment', '/ng/api/environmentsV2', {
    write: ACCOUNT,
    read: ACCOUNT,
    readOptional: [...SCOPE, ...GIT_READ],
    createOptional: CREATE_GIT_PARAMS,
    writeOptional: [...UPDATE_GIT_PARAMS, 'storeType'],
    type: JSON_TYPE,
    updateAtBase: true,
  }),
  ...crud('infrastructure', '/ng/api/infrastructures', {
    write: ACCOUNT,
    read: [...ACCOUNT, 'environmentIdentifier'],
    readOptional: [...SCOPE, ...GIT_READ],
    createOptional: [],
    writeOptional: [...UPDATE_GIT_PARAMS, 'storeType'],
    type: JSON_TYPE,
    updateAtBase: true,
  }),
  // Templates: raw YAML; an update and the stable-version call name the version in the path.
  {
    method: 'POST',
    path: /^\/template\/api\/templates$/,
    kind: 'template',
    op: 'create',
    required: ACCOUNT,
    optional: [...SCOPE, 'setDefaultTemplate', 'comments', 'isNewTemplate', ...CREATE_GIT_PARAMS],
    contentType: YAML,
  },
  // A version kept in Git: its update takes GitEntityUpdateInfoDTO, its GET and stable call the branch (NGTemplateResource.java L193-252).
  {
    method: 'PUT',
    path: /^\/template\/api\/templates\/update\/([^/]+)\/([^/]+)$/,
    kind: 'template',
    op: 'update',
    required: ACCOUNT,
    optional: [...SCOPE, 'comments', ...UPDATE_GIT_PARAMS],
    contentType: YAML,
  },
  {
    method: 'PUT',
    path: /^\/template\/api\/templates\/updateStableTemplate\/([^/]+)\/([^/]+)$/,
    kind: 'template',
    op: 'stable',
    required: ACCOUNT,
    optional: [...SCOPE, 'comments', 'branch'],
  },
  {
    method: 'GET',
    path: /^\/template\/api\/templates\/([^/]+)$/,
    kind: 'template',
    op: 'read',
    required: ACCOUNT,
    optional: [...SCOPE, 'versionLabel', ...GIT_READ],
  },
  // Input sets and triggers: raw YAML, with their pipeline in the query.
  // Input sets may be Git files too (GitEntityCreateInfoDTO / UpdateInfoDTO / FindInfoDTO, InputSetResourcePMS.java).
  ...crud('overlayInputSet', '/pipeline/api/inputSets/overlay', {
    write: [...FULL, 'pipelineIdentifier'],
    read: [...FULL, 'pipelineIdentifier'],
    readOptional: ['pipelineBranch', 'pipelineRepoID', ...GIT_READ],
    createOptional: CREATE_GIT_PARAMS,
    writeOptional: ['pipelineBranch', 'pipelineRepoID', ...UPDATE_GIT_PARAMS],
    type: YAML,
  }),
  ...crud('inputSet', '/pipeline/api/inputSets', {
    write: [...FULL, 'pipelineIdentifier'],
    read: [...FULL, 'pipelineIdentifier'],
    readOptional: ['pipelineBranch', 'pipelineRepoID', ...GIT_READ],
    createOptional: ['pipelineBranch', 'pipelineRepoID', ...CREATE_GIT_PARAMS],
    writeOptional: ['pipelineBranch', 'pipelineRepoID', ...UPDATE_GIT_PARAMS],
    type: YAML,
  }),
  // withServiceV2 exists on create only: an update keeps the flag the trigger was created with (NGTriggerResource.java L107-177).
  {
    method: 'GET',
    path: /^\/pipeline\/api\/triggers\/([^/]+)\/details$/,
    kind: 'trigger',
    op: 'details',
    required: [...FULL, 'targetIdentifier'],
    optional: [],
  },
  ...crud('trigger', '/pipeline/api/triggers', {
    write: [...FULL, 'targetIdentifier'],
    read: [...FULL, 'targetIdentifier'],
    createOptional: ['ignoreError', 'withServiceV2'],
    writeOptional: ['ignoreError'],
    type: YAML,
  }),
  // Deletes (the resources' @DELETE methods in harness-core): the read's query; Git parameters where the kind can
  // be a Git file; an overlay input set is deleted at the input set path (InputSetResourcePMS.java L314-340).
  {
    method: 'DELETE',
    path: /^\/ng\/api\/projects\/([^/]+)$/,
    kind: 'project',
    op: 'delete',
    required: [...ACCOUNT, 'orgIdentifier'],
    optional: [],
  },
  {
    method: 'DELETE',
    path: /^\/ng\/api\/connectors\/([^/]+)$/,
    kind: 'connector',
    op: 'delete',
    required: ACCOUNT,
    optional: [...SCOPE, 'forceDelete'],
  },
  {
    method: 'DELETE',
    path: /^\/ng\/api\/servicesV2\/([^/]+)$/,
    kind: 'service',
    op: 'delete',
    required: ACCOUNT,
    optional: [...SCOPE, 'forceDelete'],
  },
  {
    method: 'DELETE',
    path: /^\/ng\/api\/environmentsV2\/([^/]+)$/,
    kind: 'environment',
    op: 'delete',
    required: ACCOUNT,
    optional: [...SCOPE, 'forceDelete'],
  },
  {
    method: 'DELETE',
    path: /^\/ng\/api\/infrastructures\/([^/]+)$/,
    kind: 'infrastructure',
    op: 'delete',
    required: [...ACCOUNT, 'environmentIdentifier'],
    optional: [...SCOPE, 'forceDelete'],
  },
  {
    method: 'DELETE',
    path: /^\/template\/api\/templates\/([^/]+)\/([^/]+)$/,
    kind: 'template',
    op: 'delete',
    required: ACCOUNT,
    optional: [...SCOPE, 'comments', 'forceDelete'],
  },
  {
    method: 'DELETE',
    path: /^\/pipeline\/api\/pipelines\/([^/]+)$/,
    kind: 'pipeline',
    op: 'delete',
    required: FULL,
    optional: ['branch', 'filePath', 'commitMsg', 'lastObjectId'],
  },
  {
    method: 'DELETE',
    path: /^\/pipeline\/api\/inputSets\/([^/]+)$/,
    kind: 'inputSet',
    op: 'delete',
    required: [...FULL, 'pipelineIdentifier'],
    optional: ['branch', 'filePath', 'commitMsg', 'lastObjectId'],
  },
  {
    method: 'DELETE',
    path: /^\/pipeline\/api\/triggers\/([^/]+)$/,
    kind: 'trigger',
    op: 'delete',
    required: [...FULL, 'targetIdentifier'],
    optional: [],
  },
];

export function matchRoute(method: string, path: string): Route | undefined {
  for (const spec of ROUTES) {
    if (spec.method !== method) continue;
    const m = path.match(spec.path);
    if (!m) continue;
    // `/pipeline/api/pipelines/v2` is not a pipeline called v2, and `inputSets/overlay` not an input set.
    if (
      m[1] !== undefined &&
      ((spec.kind === 'pipeline' && m[1] === 'v2') || (spec.kind === 'inputSet' && m[1] === 'overlay'))
    )
      continue;
    const { path: _path, ...route } = spec;
    return {
      ...route,
      ...(m[1] !== undefined ? { id: decodeURIComponent(m[1]) } : {}),
      ...(m[2] !== undefined ? { versionLabel: decodeURIComponent(m[2]) } : {}),
    };
  }
  return undefined;
}
