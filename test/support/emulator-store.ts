import { stringify } from 'yaml';

export type Kind =
  | 'project'
  | 'connector'
  | 'pipeline'
  | 'service'
  | 'environment'
  | 'infrastructure'
  | 'template'
  | 'inputSet'
  | 'overlayInputSet'
  | 'trigger';

/**
 * Where a resource hangs below its scope, when that is part of its identity: an infrastructure's environment, an
 * input set's or trigger's pipeline (`parent`), and a template's version.
 */
export interface Placement {
  readonly parent?: string;
  readonly versionLabel?: string;
}

export interface StoredResource {
  readonly kind: Kind;
  readonly org?: string;
  readonly project?: string;
  readonly identifier: string;
  readonly parent?: string;
  readonly versionLabel?: string;
  /** Templates: the stable version, the one a GET without versionLabel (and a reference without one) gets. */
  stable?: boolean;
  /** The document's body (what is under its root key), as the last write sent it. */
  body: Record<string, unknown>;
  /** The document's YAML text as the last write sent it (the request body, or its `yaml` field for JSON bodies). */
  raw: string;
  readonly createdAt: number;
  lastModifiedAt: number;
  /** Bumped by every write; projects send it as their ETag and check `If-Match` against it. */
  version: number;
  /** Git-stored pipelines: where the file is, and the blob and commit of its current content. */
  git?: GitFile;
  /** A stored pipeline whose YAML no longer validates: GET answers 200 with `entityValidityDetails.valid: false`. */
  invalid?: boolean;
  /**
   * Git-stored services, environments and infrastructures: the YAML the platform saved at its last write, which their
   * list serves, when a push to the file has moved on from it (ServiceRepositoryCustomImpl.java L245-269).
   */
  listedYaml?: string;
  /** Pipelines in the v1 (simplified) syntax: `'1'`; served as stored, and so listed (`yamlVersion`). */
  yamlVersion?: string;
  /** Pipelines made public (PipelineResourceImpl's `markPipelinePublic`): every GET says so. */
  public?: boolean;
  /** Triggers: the flag given at create, reused by every update (NGTriggerResourceImpl.java L168-169). */
  withServiceV2?: boolean;
  /** Triggers: the last validation (NGTriggerServiceImpl.validateTrigger), shown by `/details`. */
  validation?: { readonly statusResult: 'SUCCESS' | 'FAILED'; readonly detailedMessage?: string };
}

export interface GitFile {
  readonly connectorRef: string;
  readonly repoName: string;
  readonly branch: string;
  readonly filePath: string;
  objectId: string;
  commitId: string;
  /** The file was deleted in Git (or its branch): GET answers 400 HINT. */
  missing?: boolean;
}

export interface WriteCount {
  creates: number;
  updates: number;
}

export const resourceKey = (
  kind: Kind,
  org: string | undefined,
  project: string | undefined,
  identifier: string,
  at: Placement = {},
): string =>
  `${kind}:${org ?? '_'}/${project ?? '_'}/${at.parent ? `${at.parent}/` : ''}${identifier}${at.versionLabel ? `@${at.versionLabel}` : ''}`;

/** The emulator's state: resources by scope, and how often each was written. */
export class Store {
  readonly resources = new Map<string, StoredResource>();
  readonly writes = new Map<string, WriteCount>();
  /** What DELETEs removed, in order (`kind:org/project/[parent/]id[@version]`; not what went with it). */
  readonly deletes: string[] = [];
  readonly orgs: Set<string>;

  constructor(orgs: readonly string[]) {
    this.orgs = new Set(orgs);
  }

  #lastStamp = 0;
  /** The time of a write: later than every write before it, also within one millisecond (lists order by it). */
  stamp(): number {
    this.#lastStamp = Math.max(Date.now(), this.#lastStamp + 1);
    return this.#lastStamp;
  }

  get(
    kind: Kind,
    org: string | undefined,
    project: string | undefined,
    identifier: string,
    at: Placement = {},
  ): StoredResource | undefined {
    return this.resources.get(resourceKey(kind, org, project, identifier, at));
  }

  /** Every version of a template. */
  versions(org: string | undefined, project: string | undefined, identifier: string): StoredResource[] {
    return [...this.resources.values()].filter(
      (r) => r.kind === 'template' && r.org === org && r.project === project && r.identifier === identifier,
    );
  }

  hasProject(org: string, project: string): boolean {
    return this.resources.has(resourceKey('project', org, undefined, project));
  }

  put(
    resource: Omit<StoredResource, 'createdAt' | 'lastModifiedAt' | 'version'>,
    op: 'create' | 'update',
  ): StoredResource {
    const key = resourceKey(resource.kind, resource.org, resource.project, resource.identifier, resource);
    const now = this.stamp();
    const existing = this.resources.get(key);
    const stored: StoredResource = {
      ...resource,
      createdAt: existing?.createdAt ?? now,
      lastModifiedAt: now,
      version: (existing?.version ?? 0) + 1,
    };
    this.resources.set(key, stored);
    const count = this.writes.get(key) ?? { creates: 0, updates: 0 };
    if (op === 'create') count.creates++;
    else count.updates++;
    this.writes.set(key, count);
    return stored;
  }

  count(kind: Kind): number {
    let n = 0;
    for (const r of this.resources.values()) if (r.kind === kind) n++;
    return n;
  }

  totalWrites(): number {
    let n = 0;
    for (const c of this.writes.values()) n += c.creates + c.updates;
    return n;
  }
}

/** What the platform fills in for a project whose modules list is empty. */
export const DEFAULT_MODULES = ['CD', 'CI', 'CV', 'CF', 'CE', 'CORE', 'PMS', 'TEMPLATESERVICE'];

/**
 * `data` of a project response: the project with what ProjectMapper.toProject fills in (harness-core
 * 950-ng-project-n-orgs/.../remote/ProjectMapper.java L38-42: `description` "", `color` HARNESS_BLUE, the modules),
 * and timestamps.
 */
export function projectData(r: StoredResource) {
  const modules = Array.isArray(r.body.modules) && r.body.modules.length > 0 ? r.body.modules : DEFAULT_MODULES;
  const filled = { description: '', color: '#0063F7', ...r.body };
  return { project: { ...filled, modules }, createdAt: r.createdAt, lastModifiedAt: r.lastModifiedAt };
}

/**
 * What a connector's spec class sets when a field is absent (`@Builder.Default` in harness-core
 * 954-connector-beans/.../connector/docker/DockerConnectorDTO.java L56-57 and its siblings).
 */
const CONNECTOR_SPEC_DEFAULTS: Readonly<Record<string, Record<string, unknown>>> = {
  DockerRegistry: { executeOnDelegate: true, proxy: false },
  Artifactory: { executeOnDelegate: true },
  Aws: { executeOnDelegate: true, proxy: false },
  Azure: { executeOnDelegate: true },
  Gcp: { executeOnDelegate: true, proxy: false },
  Spot: { executeOnDelegate: true },
  Tas: { executeOnDelegate: true },
  TerraformCloud: { executeOnDelegate: true },
};

/** `data` of a connector response: the echo plus spec.delegateSelectors, and the fields the spec lists. */
export function connectorData(r: StoredResource) {
  const spec = (r.body.spec ?? {}) as Record<string, unknown>;
  return {
    connector: {
      ...r.body,
      spec: {
        ...CONNECTOR_SPEC_DEFAULTS[String(r.body.type)],
        ...spec,
        delegateSelectors: spec.delegateSelectors ?? [],
      },
    },
    createdAt: r.createdAt,
    lastModifiedAt: r.lastModifiedAt,
    status: null,
    activityDetails: { lastActivityTime: r.lastModifiedAt },
    platformManaged: false,
    gitDetails: { objectId: null, branch: null, repoIdentifier: null, rootFolder: null, filePath: null },
    entityValidityDetails: { valid: true, invalidYaml: null },
  };
}

/**
 * `storeType`, `gitDetails` and `cacheResponse` of a GET (EntityGitDetails, CacheResponseMetadataDTO), and
 * `connectorRef` where the answer has it (input sets; a pipeline GET has none: PMSPipelineResponseDTO.java L36-51).
 */
function gitFields(r: StoredResource, withConnector: boolean) {
  return {
    storeType: r.git ? 'REMOTE' : 'INLINE',
    ...(r.git
      ? {
          ...(withConnector ? { connectorRef: r.git.connectorRef } : {}),
          gitDetails: {
            objectId: r.git.objectId,
            branch: r.git.branch,
            repoIdentifier: null,
            rootFolder: null,
            filePath: r.git.filePath,
            repoName: r.git.repoName,
            commitId: r.git.commitId,
            fileUrl: `https://git.example.test/${r.git.repoName}/blob/${r.git.branch}/${r.git.filePath}`,
            repoUrl: `https://git.example.test/${r.git.repoName}`,
            parentEntityConnectorRef: null,
            parentEntityRepoName: null,
            isHarnessCodeRepo: false,
          },
          cacheResponse: {
            cacheState: 'VALID_CACHE',
            ttlLeft: 0,
            lastUpdatedAt: r.lastModifiedAt,
            isSyncEnabled: false,
          },
        }
      : {}),
  };
}

/**
 * `data` of a pipeline GET: the YAML as the platform stores it. Re-serialised with another indentation, so a
 * client comparing text instead of meaning would see a change that is not there.
 */
export function pipelineData(r: StoredResource) {
  const yamlPipeline = r.invalid || r.yamlVersion === '1' ? r.raw : stringify({ pipeline: r.body }, { indent: 4 });
  return {
    yamlPipeline,
    createdAt: r.createdAt,
    lastUpdatedAt: r.lastModifiedAt,
    entityValidityDetails: r.invalid ? { valid: false, invalidYaml: r.raw } : { valid: true, invalidYaml: null },
    ...(r.invalid
      ? { yamlSchemaErrorWrapper: { schemaErrors: [{ message: 'stages is required', fqn: '$.pipeline' }] } }
      : {}),
    ...gitFields(r, false),
    // PipelineResourceImpl.java L311: every GET says whether the pipeline is public (Lombok's isPublic, as "public").
    publicAccessResponse: { public: r.public === true, errorMessage: null },
  };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** The fields every NG entity answer carries beside its YAML. */
const entityFields = (r: StoredResource) => ({
  identifier: r.identifier,
  orgIdentifier: r.org,
  projectIdentifier: r.project,
  name: text(r.body.name),
  description: text(r.body.description) ?? '',
  tags: r.body.tags ?? {},
});

/**
 * Where a Git-stored service, environment or infrastructure lives, as its answers say (ServiceResponseDTO.java
 * L49-53 and its siblings; ServiceElementMapper.java L152-155, L165-173): `storeType`, `connectorRef`, the branch it
 * was created on as `fallbackBranch`, and `entityGitDetails`. A list reads no file, so its `entityGitDetails` has only
 * the entity's repository and file (GitAwareContextHelper.java L145-147); a GET reads the file and adds its branch,
 * blob and commit (L108-135).
 */
function remoteEntityFields(r: StoredResource, answer: 'get' | 'list') {
  if (!r.git) return {};
  const where = { repoName: r.git.repoName, filePath: r.git.filePath };
  return {
    storeType: 'REMOTE',
    connectorRef: r.git.connectorRef,
    fallbackBranch: r.git.branch,
    entityGitDetails:
      answer === 'list'
        ? where
        : {
            ...where,
            objectId: r.git.objectId,
            branch: r.git.branch,
            commitId: r.git.commitId,
            fileUrl: `https://git.example.test/${r.git.repoName}/blob/${r.git.branch}/${r.git.filePath}`,
          },
  };
}

/**
 * `data` of a service, environment or infrastructure answer: the entity's fields, and the YAML text as it was
 * sent in the request's `yaml` field (platform-facts-2.md §2: stored as given), under `data.<entity>`; a list item
 * (`answer: 'list'`) has the same shape.
 */
export function yamlEntityData(r: StoredResource, answer: 'get' | 'list' = 'get') {
  const git = remoteEntityFields(r, answer);
  const yaml = answer === 'list' ? (r.listedYaml ?? r.raw) : r.raw;
  const entity =
    r.kind === 'service'
      ? { ...entityFields(r), deleted: false, yaml, ...git }
      : r.kind === 'environment'
        ? { ...entityFields(r), color: text(r.body.color), type: text(r.body.type), deleted: false, yaml, ...git }
        : {
            ...entityFields(r),
            environmentRef: r.parent,
            type: text(r.body.type),
            deploymentType: text(r.body.deploymentType),
            yaml,
            storeType: 'INLINE',
            ...git,
          };
  return { [r.kind]: entity, createdAt: r.createdAt, lastModifiedAt: r.lastModifiedAt };
}

/** `data` of a template GET (TemplateResponseDTO): the YAML as sent, its version, whether it is the stable one, and its Git file. */
export function templateData(r: StoredResource) {
  return {
    ...entityFields(r),
    yaml: r.raw,
    versionLabel: r.versionLabel,
    templateEntityType: text(r.body.type),
    templateScope: r.project ? 'project' : r.org ? 'org' : 'account',
    stableTemplate: r.stable ?? false,
    lastUpdatedAt: r.lastModifiedAt,
    ...gitFields(r, true),
  };
}

/** `data` of an input set, overlay input set or trigger answer: the YAML as sent, in the kind's own field. */
export function pipelineChildData(r: StoredResource) {
  if (r.kind === 'trigger') {
    const source = (r.body.source ?? {}) as Record<string, unknown>;
    return {
      ...entityFields(r),
      type: text(source.type),
      targetIdentifier: r.parent,
      yaml: r.raw,
      enabled: r.body.enabled !== false,
      errorResponse: false,
    };
  }
  const common = {
    ...entityFields(r),
    pipelineIdentifier: r.parent,
    isOutdated: false,
    entityValidityDetails: { valid: true, invalidYaml: null },
    ...gitFields(r, true),
  };
  return r.kind === 'overlayInputSet'
    ? { ...common, overlayInputSetYaml: r.raw, inputSetReferences: r.body.inputSetReferences ?? [] }
    : { ...common, inputSetYaml: r.raw };
}
