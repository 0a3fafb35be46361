import { parse } from 'yaml';
import { commitTo, missingFile, newFile, staleBlob, type Commit } from './emulator-git.js';
import { createStoreType, type GitSettingsTable } from './emulator-gitx.js';
import {
  DEFAULT_NOT_FOUND,
  KIND_FACTS,
  matchRoute,
  type KindFacts,
  type NotFoundForm,
  type Route,
} from './emulator-kinds.js';
import { fieldAt, findTemplate, missingReference } from './emulator-references.js';
import { resourceKey, type Kind, type Placement, type Store, type StoredResource } from './emulator-store.js';
import { evaluate, type PolicySet } from './emulator-policies.js';
import {
  afterValidation,
  missingBranch,
  triggerDetailsData,
  validationFailure,
  webhookRepo,
  type WebhookRegistrar,
} from './emulator-triggers.js';

export { DEFAULT_NOT_FOUND, matchRoute, type NotFoundForm };

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

/** A governance (OPA) policy set that denies writes of one resource. */
export interface PolicyDeny {
  readonly kind: Kind;
  readonly identifier: string;
  readonly policySet?: string;
  readonly message: string;
  /**
   * How the denial is answered (platform-facts-3.md §2 D2): `governance-200` (the default: 200 SUCCESS with
   * `governanceMetadata.deny`), or `policy-evaluation-failure` (400 `POLICY_EVALUATION_FAILURE` with the metadata, as
   * newer servers answer pipeline writes: harness-core PR #56683). The deprecated pipeline calls always answer 400
   * `INVALID_REQUEST` "Pipeline does not follow the Policies in these Policy Sets: [...]".
   */
  readonly form?: 'governance-200' | 'policy-evaluation-failure';
}

/** How the emulator answers beyond the contract: configured per test. */
export interface Behaviour {
  readonly notFound: Readonly<Record<Kind, NotFoundForm>>;
  readonly deny: readonly PolicyDeny[];
  /** Identifiers whose writes answer 200 SUCCESS with no entity and no governance metadata (and store nothing). */
  readonly withoutEntity: readonly string[];
  /** Licence limits: creates beyond this many resources of a kind answer 400 INVALID_REQUEST. */
  readonly limits: Partial<Record<Kind, number>>;
  /** Git commits made by remote writes, in order. */
  readonly commits: Commit[];
  /** Git Experience settings by scope. */
  readonly gitSettings: GitSettingsTable;
  /** Resource keys of deleted resources the platform still holds (soft deletes). */
  readonly softDeleted: ReadonlySet<string>;
  /** Trigger identifiers whose writes answer 200 with `errorResponse: true` and store nothing. */
  readonly triggerErrors: readonly string[];
  readonly webhooks: WebhookRegistrar;
  /** Policy sets that run on saves of their type, as on the platform. */
  readonly policySets: readonly PolicySet[];
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
/** A template's versionLabel (platform-facts-2.md §6). */
const VERSION_LABEL = /^[0-9a-zA-Z][^\s/&]{0,127}$/;

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  value === '' ||
  (asRecord(value) !== undefined && Object.keys(asRecord(value)!).length === 0);

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

/** The document a write carries: its body (under the root key) and its YAML text, or what is wrong with it. */
type Decoded = { readonly body: Record<string, unknown>; readonly yaml: string } | { readonly problem: string };

/**
 * The document of a write: the YAML body itself, or (services, environments, infrastructures) the `yaml` field of
 * a JSON body whose other fields must say the same as the YAML (the platform keeps the body's name, description
 * and tags when they are set: platform-facts-2.md §6).
 */
function decode(facts: KindFacts, text: string): Decoded {
  let yaml = text;
  let json: Record<string, unknown> | undefined;
  if (facts.body === 'json') {
    try {
      json = asRecord(JSON.parse(text));
    } catch {
      return { problem: `the ${facts.label} body must be JSON with the YAML in its yaml field` };
    }
    if (!json || typeof json.yaml !== 'string') return { problem: `the ${facts.label} body has no yaml field` };
    yaml = json.yaml;
  }
  let doc: unknown;
  try {
    doc = parse(yaml, { uniqueKeys: true });
  } catch (error) {
    return { problem: `Invalid yaml: ${(error as Error).message.split('\n')[0]}` };
  }
  const root = asRecord(doc);
  const body = asRecord(root?.[facts.rootKey]);
  if (!root || Object.keys(root).length !== 1 || !body)
    return {
      problem: `the ${facts.body === 'json' ? 'yaml field' : 'body'} must be a YAML document with the single root key ${facts.rootKey}`,
    };
  for (const field of facts.jsonFields ?? []) {
    const inJson = json![field];
    const inYaml = body[field];
    if (isEmpty(inJson) && isEmpty(inYaml)) continue;
    if (JSON.stringify(inJson) !== JSON.stringify(inYaml))
      return {
        problem: `${field} in the JSON body (${JSON.stringify(inJson)}) differs from the YAML's (${JSON.stringify(inYaml)})`,
      };
  }
  return { body, yaml };
}

/** Validates and executes one REST call against the store. */
export function handleRest(store: Store, req: RestRequest): Answer {
  const answer = answerRest(store, req);
  // The deprecated pipeline calls still work on the platform, but a client that uses them misses D2 and D5.
  return req.route.deprecated && !answer.violation
    ? {
        ...answer,
        violation: `${req.route.method} on the deprecated pipeline endpoint: use /pipeline/api/pipelines/v2`,
      }
    : answer;
}

function answerRest(store: Store, req: RestRequest): Answer {
  const { route, query, correlationId } = req;
  const facts = KIND_FACTS[route.kind];
  const bad = (message: string): Answer => ({
    status: 400,
    body: errorBody('INVALID_REQUEST', message, correlationId),
    violation: message,
  });
  const refused = (message: string): Answer => ({
    status: 400,
    body: errorBody('INVALID_REQUEST', message, correlationId),
  });
  for (const name of query.keys())
    if (!route.required.includes(name) && !route.optional.includes(name))
      return bad(`unexpected query parameter ${name}`);
  for (const name of route.required) if (!query.get(name)) return bad(`query parameter ${name} is required`);
  if (query.getAll('accountIdentifier').length !== 1) return bad('accountIdentifier given more than once');
  if (query.get('accountIdentifier') !== req.accountId)
    return {
      status: 401,
      body: errorBody('INVALID_CREDENTIAL', 'The API key does not belong to this account', correlationId),
    };
  if (route.op === 'read') return read(store, route, query, correlationId, req.behaviour);
  if (route.op === 'details') return details(store, route, query, correlationId, req.behaviour);
  if (route.op === 'delete')
    return req.canWrite
      ? remove(store, route, query, correlationId, req.behaviour)
      : {
          status: 403,
          body: errorBody(
            'NG_ACCESS_DENIED',
            `Missing permission core_${route.kind}_delete on ${route.kind}`,
            correlationId,
          ),
        };
  if (!req.canWrite)
    return {
      status: 403,
      body: errorBody('NG_ACCESS_DENIED', `Missing permission core_${route.kind}_edit on ${route.kind}`, correlationId),
    };
  if (route.op === 'stable') return makeStable(store, route, query, correlationId);
  const mime = req.contentType?.split(';')[0]!.trim().toLowerCase();
  if (mime !== route.contentType)
    return {
      status: 415,
      body: errorBody(
        'UNSUPPORTED_MEDIA_TYPE',
        `Content-Type ${req.contentType ?? '(none)'} is not supported; use ${route.contentType}`,
        correlationId,
      ),
      violation: `content type ${req.contentType} on ${route.method} ${route.kind}`,
    };
  const decoded = decode(facts, req.body);
  if ('problem' in decoded) return bad(decoded.problem);
  const { body, yaml } = decoded;
  const identifier = str(body.identifier);
  if (!identifier || !IDENTIFIER.test(identifier))
    return bad(`${route.kind} identifier ${JSON.stringify(body.identifier)} is not valid`);
  if (!str(body.name)) return bad(`${route.kind} name is required`);
  if (route.id !== undefined && route.id !== identifier)
    return bad(`identifier ${identifier} in the body differs from ${route.id} in the path`);
  const versionLabel = facts.versioned ? str(body.versionLabel) : undefined;
  if (facts.versioned && (!versionLabel || !VERSION_LABEL.test(versionLabel)))
    return bad(`${route.kind} versionLabel ${JSON.stringify(body.versionLabel)} is not valid`);
  if (route.versionLabel !== undefined && route.versionLabel !== versionLabel)
    return bad(`versionLabel ${versionLabel} in the body differs from ${route.versionLabel} in the path`);
  const org = str(body.orgIdentifier);
  const project = route.kind === 'project' ? undefined : str(body.projectIdentifier);
  if (facts.needs.org && !org) return bad(`${route.kind} orgIdentifier is required`);
  if (facts.needs.project && !project) return bad(`${route.kind} projectIdentifier is required`);
  if (project && !org) return bad(`a ${facts.label} with projectIdentifier needs orgIdentifier`);
  for (const [name, value] of [
    ['orgIdentifier', org],
    ['projectIdentifier', project],
  ] as const) {
    // Where the service takes the scope from the query, the query and the document must say the same.
    const inQuery = query.get(name) ?? undefined;
    if (
      inQuery !== undefined
        ? inQuery !== value
        : facts.scopeFrom === 'query' && value !== undefined && route.kind !== 'project'
    )
      return bad(`${name} ${inQuery ?? '(none)'} in the query differs from ${value ?? '(none)'} in the body`);
  }
  const parent = facts.parent ? fieldAt(body, facts.parent.field) : undefined;
  if (facts.parent && !parent) return bad(`${facts.label} ${facts.parent.field} is required`);
  if (facts.parent?.on.includes(route.op) && query.get(facts.parent.query) !== parent)
    return bad(
      `${facts.parent.query} ${query.get(facts.parent.query)} in the query differs from ${facts.parent.field} ${parent} in the body`,
    );
  if (route.kind === 'connector' && (!str(body.type) || !asRecord(body.spec)))
    return bad('connector type and spec are required');
  if (route.kind === 'pipeline' && !Array.isArray(body.stages) && !asRecord(body.template))
    return bad('pipeline stages are required');
  if (route.kind === 'template' && !str(body.type)) return bad('template type is required');
  if (
    route.kind === 'overlayInputSet' &&
    !(Array.isArray(body.inputSetReferences) && body.inputSetReferences.length > 0)
  )
    return refused("Input Set References can't be empty");
  // Semantic checks, not contract violations: the platform refuses documents whose scope does not exist.
  if (org && !store.orgs.has(org))
    return { status: 400, body: errorBody('INVALID_REQUEST', `Organization [${org}] does not exist`, correlationId) };
  if (project && !store.hasProject(org!, project))
    return {
      status: 400,
      body: errorBody('INVALID_REQUEST', `Project [${project}] in Organization [${org}] does not exist`, correlationId),
    };
  const at: Placement = { ...(parent ? { parent } : {}), ...(versionLabel ? { versionLabel } : {}) };
  const scope = { ...(org ? { org } : {}), ...(project ? { project } : {}) };
  const { behaviour } = req;
  let storeType: 'INLINE' | 'REMOTE' | undefined;
  if (route.op === 'create') {
    const chosen = createStoreType(
      route.kind,
      query,
      behaviour.gitSettings,
      { ...scope, account: req.accountId },
      correlationId,
    );
    if ('answer' in chosen) return chosen.answer;
    storeType = chosen.storeType;
  }
  // A soft-deleted identifier still holds its place: "exists" on create, "not there" on read and update.
  const softDeleted = behaviour.softDeleted.has(resourceKey(route.kind, org, project, identifier, at));
  const existing = softDeleted ? undefined : store.get(route.kind, org, project, identifier, at);
  if (route.op === 'create' && (existing || softDeleted)) {
    const { code, message } = facts.exists(identifier, scope, versionLabel);
    return { status: 400, body: errorBody(code, message, correlationId) };
  }
  // Updates of a missing id: each service words it its own way, all 400 INVALID_REQUEST (platform-facts-2.md §4.1).
  if (route.op === 'update' && !existing) return refused(facts.updateMissing(identifier, scope));
  const missing = missingReference(store, route.kind, facts, body, scope, parent);
  if (missing) return refused(missing);
  if (route.kind === 'inputSet' || route.kind === 'overlayInputSet') {
    // InputSetValidationHelper.java L55-62: an input set is stored where its pipeline is.
    const pipeline = store.get('pipeline', org, project, parent!);
    const remote = route.op === 'create' ? storeType === 'REMOTE' : Boolean(existing!.git);
    if (pipeline && remote !== Boolean(pipeline.git))
      return refused('Input Set should have the same Store Type as the Pipeline it is for');
  }
  if (route.kind === 'trigger') {
    const why = missingBranch(store, body, scope);
    if (why)
      return refused(
        `${route.op === 'create' ? 'Failed while Saving Trigger' : 'Failed while updating Trigger'}: ${why}`,
      );
  }
  const limit = behaviour.limits[route.kind];
  if (route.op === 'create' && limit !== undefined && store.count(route.kind) >= limit)
    return refused(
      `Maximum limit has reached for ${route.kind === 'connector' ? 'MULTIPLE_CONNECTORS' : route.kind.toUpperCase()}: the plan allows ${limit}`,
    );
  if (route.kind === 'project' && route.op === 'update' && req.ifMatch !== undefined) {
    const asked = req.ifMatch.replace(/^W\//, '').replace(/^"|"$/g, '');
    if (asked !== String(existing!.version))
      return {
        status: 400,
        body: {
          status: 'FAILURE',
          code: 'OPTIMISTIC_LOCKING_EXCEPTION',
          message: 'Request failed as you have an older version of entity, please reload the page and try again.',
          correlationId,
          errors: null,
        },
      };
  }
  const git = gitWrite(route, query, existing, yaml, correlationId, storeType);
  if ('answer' in git) return git.answer;
  // Governance runs on save: a denial stores nothing, in one of three forms.
  const deny =
    behaviour.deny.find((d) => d.kind === route.kind && d.identifier === identifier) ??
    policySetDenial(behaviour.policySets, route.kind, identifier, body, req.accountId);
  if (deny) return denialAnswer(deny, route, facts, req.accountId, correlationId);
  if (behaviour.withoutEntity.includes(identifier))
    return { status: 200, body: { status: 'SUCCESS', data: null, metaData: null, correlationId } };
  if (route.kind === 'trigger' && behaviour.triggerErrors.includes(identifier)) {
    // InvalidTriggerYamlException: 200, the trigger echoed with `errorResponse: true` and its errors; nothing stored.
    const data = {
      identifier,
      name: str(body.name),
      orgIdentifier: org,
      projectIdentifier: project,
      targetIdentifier: parent,
      yaml,
      enabled: body.enabled !== false,
      errorResponse: true,
      errors: { 'trigger.source': { type: 'Invalid trigger source for this pipeline' } },
    };
    return { status: 200, body: { status: 'SUCCESS', data, metaData: null, correlationId } };
  }
  // Triggers: the flag of the create is kept; validation runs after the save and may turn the trigger off.
  const withServiceV2 =
    route.kind === 'trigger'
      ? route.op === 'create'
        ? query.get('withServiceV2') === 'true'
        : (existing!.withServiceV2 ?? false)
      : undefined;
  const validated =
    route.kind === 'trigger'
      ? afterValidation(body, yaml, validationFailure(store, body, scope, withServiceV2!))
      : undefined;
  // A template's first version is its stable one (the emulator's reading: the facts file names only
  // setDefaultTemplate and updateStableTemplate); `setDefaultTemplate=true` makes a new version the stable one.
  const stable =
    route.kind === 'template'
      ? (existing?.stable ??
        (query.get('setDefaultTemplate') === 'true' || store.versions(org, project, identifier).length === 0))
      : undefined;
  if (stable && route.op === 'create')
    for (const other of store.versions(org, project, identifier)) other.stable = false;
  // A pipeline is public after a v2 write only when the write says so (`public`, default false).
  const isPublic =
    route.kind === 'pipeline' ? (route.v2 ? query.get('public') === 'true' : (existing?.public ?? false)) : undefined;
  const stored = store.put(
    {
      kind: route.kind,
      identifier,
      body: validated?.body ?? body,
      raw: validated?.yaml ?? yaml,
      ...(org ? { org } : {}),
      ...(project ? { project } : {}),
      ...at,
      ...(stable !== undefined ? { stable } : {}),
      ...(git.file ? { git: git.file } : {}),
      // A Git-stored service, environment or infrastructure: the list serves the platform's copy (see gitEntityWrite).
      ...(git.listedYaml !== undefined ? { listedYaml: git.listedYaml } : {}),
      ...(git.copyOnly ? { body: existing!.body, raw: existing!.raw } : {}),
      ...(isPublic !== undefined ? { public: isPublic } : {}),
      ...(withServiceV2 !== undefined ? { withServiceV2 } : {}),
      ...(validated ? { validation: validated.validation } : {}),
    },
    route.op,
  );
  if (git.file && !git.copyOnly)
    behaviour.commits.push({
      repoName: git.file.repoName,
      branch: git.file.branch,
      filePath: git.file.filePath,
      message: query.get('commitMsg') ?? '',
      objectId: git.file.objectId,
    });
  const repo = route.kind === 'trigger' && route.op === 'create' ? webhookRepo(body) : undefined;
  if (repo) behaviour.webhooks.register(repo);
  const data =
    route.kind === 'pipeline'
      ? route.v2
        ? {
            identifier,
            governanceMetadata: { deny: false, status: 'pass', details: [] },
            publicAccessResponse: { public: isPublic, errorMessage: null },
          }
        : identifier
      : (facts.written ?? facts.data)(stored);
  return { status: 200, body: { status: 'SUCCESS', data, metaData: null, correlationId }, wrote: true };
}

/** PUT `updateStableTemplate/{id}/{versionLabel}`: that version becomes the one used without a label. */
function makeStable(store: Store, route: Route, query: URLSearchParams, correlationId: string): Answer {
  const org = query.get('orgIdentifier') ?? undefined;
  const project = query.get('projectIdentifier') ?? undefined;
  const target = store.get('template', org, project, route.id!, { versionLabel: route.versionLabel! });
  if (!target) {
    const message = KIND_FACTS.template.notFoundMessage(
      route.id!,
      { ...(org ? { org } : {}), ...(project ? { project } : {}) },
      route.versionLabel,
    );
    return {
      status: 400,
      body: { status: 'FAILURE', code: 'RESOURCE_NOT_FOUND_EXCEPTION', message, correlationId, errors: null },
    };
  }
  // TF issue #1244: a version kept in Git is made stable on a branch.
  if (target.git && !query.get('branch'))
    return {
      status: 400,
      body: errorBody('INVALID_REQUEST', 'No branch provided for modifying the file.', correlationId),
    };
  for (const version of store.versions(org, project, route.id!)) version.stable = version === target;
  return {
    status: 200,
    body: { status: 'SUCCESS', data: route.versionLabel, metaData: null, correlationId },
    wrote: true,
  };
}

/**
 * The Git side of a write of a kind the platform can keep in Git (pipelines, input sets, templates): a remote create names its
 * file and commit message; an update of a Git-stored one must name the blob it replaces (a stale one is a 409), and
 * a pipeline's must go to /v2. Inline writes pass through.
 */
function gitWrite(
  route: Route,
  query: URLSearchParams,
  existing: StoredResource | undefined,
  content: string,
  correlationId: string,
  storeType: 'INLINE' | 'REMOTE' | undefined,
): { answer: Answer } | GitWritten {
  const violation = (message: string): { answer: Answer } => ({
    answer: { status: 400, body: errorBody('INVALID_REQUEST', message, correlationId), violation: message },
  });
  if (GIT_ENTITY_KINDS.has(route.kind) && route.op === 'update' && existing!.git)
    return gitEntityWrite(query, existing!, content, correlationId, violation);
  if (!GIT_KINDS.has(route.kind)) return {};
  if (route.op === 'create') {
    if (storeType !== 'REMOTE') return {};
    const missing = ['connectorRef', 'repoName', 'branch', 'filePath', 'commitMsg'].filter((name) => !query.get(name));
    if (missing.length) return violation(`a remote create needs ${missing.join(', ')}`);
    return {
      file: newFile(
        {
          connectorRef: query.get('connectorRef')!,
          repoName: query.get('repoName')!,
          branch: query.get('branch')!,
          filePath: query.get('filePath')!,
        },
        content,
      ),
    };
  }
  if (!existing!.git) {
    if (query.get('lastObjectId')) return violation(`lastObjectId sent for an inline ${route.kind}`);
    return {};
  }
  if (route.kind === 'pipeline' && !route.v2)
    return violation('a remote pipeline updated without the Git parameters (PUT /pipelines/{id} instead of /v2)');
  const lastObjectId = query.get('lastObjectId');
  if (!lastObjectId) return violation('a remote update without lastObjectId overwrites the file blindly');
  if (!query.get('commitMsg')) return violation('a remote update without commitMsg');
  if (query.get('filePath') && query.get('filePath') !== existing!.git.filePath)
    return violation(`filePath ${query.get('filePath')} differs from the file ${existing!.git.filePath}`);
  if (existing!.git.missing) return { answer: { status: 400, body: missingFile(existing!.git, correlationId) } };
  if (lastObjectId !== existing!.git.objectId)
    return { answer: { status: 409, body: staleBlob(existing!.git, correlationId) } };
  return { file: commitTo(existing!, content) };
}

/** Kinds the emulator keeps in Git on request. */
const GIT_KINDS: ReadonlySet<Kind> = new Set(['pipeline', 'inputSet', 'overlayInputSet', 'template']);
/** Kinds kept in Git when seeded so, whose updates reach the file only when they say `storeType=REMOTE`. */
const GIT_ENTITY_KINDS: ReadonlySet<Kind> = new Set(['service', 'environment', 'infrastructure']);

/** What a write does to a Git-stored document: its new file; for Git-stored services and the like, the list's copy. */
interface GitWritten {
  readonly file?: StoredResource['git'];
  /** The YAML the list serves from now on (the platform's copy). */
  readonly listedYaml?: string;
  /** An update without storeType=REMOTE: only the platform's copy changed; the file (and its GET) stays. */
  readonly copyOnly?: boolean;
}

/**
 * An update of a Git-stored service, environment or infrastructure (ServiceRepositoryCustomImpl.java L110-145 and
 * its siblings; GitAwareEntityHelper.java L190-231): without `storeType=REMOTE` the platform's copy changes and the
 * file stays; with it the file is committed on `branch` (required: "No branch provided for updating the file."),
 * naming the blob it replaces, and the list keeps serving its old copy.
 */
function gitEntityWrite(
  query: URLSearchParams,
  existing: StoredResource,
  content: string,
  correlationId: string,
  violation: (message: string) => { answer: Answer },
): { answer: Answer } | GitWritten {
  const git = existing.git!;
  if (query.get('storeType') !== 'REMOTE') return { copyOnly: true, listedYaml: content, file: git };
  const branch = query.get('branch');
  if (!branch)
    return {
      answer: {
        status: 400,
        body: errorBody('INVALID_REQUEST', 'No branch provided for updating the file.', correlationId),
      },
    };
  const lastObjectId = query.get('lastObjectId');
  if (!lastObjectId) return violation('a remote update without lastObjectId overwrites the file blindly');
  if (!query.get('commitMsg')) return violation('a remote update without commitMsg');
  if (branch !== git.branch || git.missing)
    return { answer: { status: 400, body: missingFile({ ...git, branch }, correlationId) } };
  if (lastObjectId !== git.objectId) return { answer: { status: 409, body: staleBlob(git, correlationId) } };
  return { file: commitTo(existing, content), listedYaml: existing.listedYaml ?? existing.raw };
}

/** The first policy set of the kind's type that denies `body` on save, as a denial. */
function policySetDenial(
  sets: readonly PolicySet[],
  kind: Kind,
  identifier: string,
  body: Record<string, unknown>,
  accountId: string,
): PolicyDeny | undefined {
  if (kind !== 'pipeline' && kind !== 'template' && kind !== 'connector') return undefined;
  const evaluation = evaluate(sets, kind, body, { account: accountId, action: 'onsave' });
  const denied = evaluation.details.find((set) => set.status === 'error');
  const message = denied?.details.find((policy) => policy.status === 'error')?.deny_messages[0];
  return denied && message ? { kind, identifier, policySet: denied.name, message } : undefined;
}

/** A denial in the form the call and the configuration ask for (platform-facts-3.md §2 D2). */
function denialAnswer(
  deny: PolicyDeny,
  route: Route,
  facts: KindFacts,
  accountId: string,
  correlationId: string,
): Answer {
  const governanceMetadata = denialMetadata(deny, accountId);
  const setIds = governanceMetadata.details.map((d) => d.policySetId);
  const message = `Pipeline does not follow the Policies in these Policy Sets: [${setIds.join(', ')}]`;
  if (route.deprecated) return { status: 400, body: errorBody('INVALID_REQUEST', message, correlationId) };
  if (deny.form === 'policy-evaluation-failure')
    return {
      status: 400,
      body: {
        ...errorBody('POLICY_EVALUATION_FAILURE', message, correlationId),
        responseMessages: [
          { code: 'POLICY_EVALUATION_FAILURE', level: 'ERROR', message, exception: null, failureTypes: [] },
        ],
        metadata: { type: 'GovernanceMetadataErrorDTO', governanceMetadata },
      },
    };
  const data = facts.entityKey ? { [facts.entityKey]: null, governanceMetadata } : { governanceMetadata };
  return { status: 200, body: { status: 'SUCCESS', data, metaData: null, correlationId } };
}

/**
 * A DELETE: the resource goes, and what belongs to it with it, as the platform's observers do (a pipeline's input
 * sets and triggers: InputSetPipelineObserver, the entity-CRUD event the trigger service consumes; an environment's
 * infrastructures: EnvironmentServiceImpl.java L454; everything in a project).
 */
function remove(
  store: Store,
  route: Route,
  query: URLSearchParams,
  correlationId: string,
  behaviour: Behaviour,
): Answer {
  const { org, project, at } = readTarget(route, query);
  const scope = { ...(org ? { org } : {}), ...(project ? { project } : {}) };
  const versionLabel = route.kind === 'template' ? route.versionLabel : undefined;
  const place = { ...at, ...(versionLabel ? { versionLabel } : {}) };
  // The input set path deletes overlays too.
  const kind: Kind =
    route.kind === 'inputSet' &&
    !store.get('inputSet', org, project, route.id!, place) &&
    store.get('overlayInputSet', org, project, route.id!, place)
      ? 'overlayInputSet'
      : route.kind;
  const found = store.get(kind, org, project, route.id!, place);
  if (!found)
    return notFoundAnswer(behaviour.notFound[route.kind], route.kind, route.id!, scope, correlationId, versionLabel);
  const gone = (r: StoredResource) =>
    r === found ||
    (kind === 'pipeline' &&
      (r.kind === 'inputSet' || r.kind === 'overlayInputSet' || r.kind === 'trigger') &&
      r.org === org &&
      r.project === project &&
      r.parent === found.identifier) ||
    (kind === 'environment' &&
      r.kind === 'infrastructure' &&
      r.org === org &&
      r.project === project &&
      r.parent === found.identifier) ||
    (kind === 'project' && r.org === found.org && r.project === found.identifier);
  for (const [key, r] of [...store.resources]) if (gone(r)) store.resources.delete(key);
  store.deletes.push(
    `${kind}:${org ?? '_'}/${project ?? '_'}/${found.parent ? `${found.parent}/` : ''}${found.identifier}${versionLabel ? `@${versionLabel}` : ''}`,
  );
  return { status: 200, body: { status: 'SUCCESS', data: true, metaData: null, correlationId }, wrote: true };
}

/** GET `/triggers/{id}/details`. */
function details(
  store: Store,
  route: Route,
  query: URLSearchParams,
  correlationId: string,
  behaviour: Behaviour,
): Answer {
  const { org, project } = readTarget(route, query);
  const found = store.get('trigger', org, project, route.id!, { parent: query.get('targetIdentifier')! });
  if (!found)
    return notFoundAnswer(
      behaviour.notFound.trigger,
      'trigger',
      route.id!,
      { ...(org ? { org } : {}), ...(project ? { project } : {}) },
      correlationId,
    );
  return { status: 200, body: { status: 'SUCCESS', data: triggerDetailsData(found), metaData: null, correlationId } };
}

/** "Not there" in the form configured for the kind, with the platform's wording for it. */
export function notFoundAnswer(
  form: NotFoundForm,
  kind: Kind,
  identifier: string,
  scope: { org?: string; project?: string },
  correlationId: string,
  versionLabel?: string,
): Answer {
  const [status, code] = form.split(' ') as [string, string];
  const message = KIND_FACTS[kind].notFoundMessage(identifier, scope, versionLabel);
  // NotFoundExceptionMapper answers the FailureDTO shape; WingsExceptionMapperV2 the ErrorDTO one.
  const body =
    code === 'RESOURCE_NOT_FOUND_EXCEPTION'
      ? { status: 'FAILURE', code, message, correlationId, errors: null }
      : errorBody(code, message, correlationId);
  return { status: Number(status), body };
}

/** Where a GET looks: the scope and placement (parent, template version) its query names. */
export function readTarget(route: Route, query: URLSearchParams): { org?: string; project?: string; at: Placement } {
  const facts = KIND_FACTS[route.kind];
  const org = query.get('orgIdentifier') ?? undefined;
  const project = route.kind === 'project' ? undefined : (query.get('projectIdentifier') ?? undefined);
  const parent = facts.parent ? (query.get(facts.parent.query) ?? undefined) : undefined;
  const versionLabel = facts.versioned ? (query.get('versionLabel') ?? undefined) : undefined;
  return {
    ...(org ? { org } : {}),
    ...(project ? { project } : {}),
    at: { ...(parent ? { parent } : {}), ...(versionLabel ? { versionLabel } : {}) },
  };
}

function read(store: Store, route: Route, query: URLSearchParams, correlationId: string, behaviour: Behaviour): Answer {
  const { org, project, at } = readTarget(route, query);
  if (project && !org)
    return {
      status: 400,
      body: errorBody('INVALID_REQUEST', 'projectIdentifier needs orgIdentifier', correlationId),
      violation: 'projectIdentifier without orgIdentifier',
    };
  const scope = { ...(org ? { org } : {}), ...(project ? { project } : {}) };
  // A template GET without versionLabel answers the stable version.
  const found =
    route.kind === 'template' && !at.versionLabel
      ? findTemplate(store, scope, route.id!, undefined)
      : store.get(route.kind, org, project, route.id!, at);
  if (!found)
    return notFoundAnswer(behaviour.notFound[route.kind], route.kind, route.id!, scope, correlationId, at.versionLabel);
  if (found.git) {
    const branch = query.get('branch');
    if (branch && branch !== found.git.branch)
      return { status: 400, body: missingFile({ ...found.git, branch }, correlationId) };
    if (found.git.missing) return { status: 400, body: missingFile(found.git, correlationId) };
  }
  return {
    status: 200,
    body: { status: 'SUCCESS', data: KIND_FACTS[route.kind].data(found), metaData: null, correlationId },
    // ng-manager's EtagFilter: projects carry their version.
    ...(route.kind === 'project' ? { headers: { etag: `W/"${found.version}"` } } : {}),
  };
}

/** `governanceMetadata` of a denied write, in the platform's JSON form of the OPA evaluation. */
export function denialMetadata(deny: PolicyDeny, accountId: string) {
  return {
    id: `gov_${deny.identifier}`,
    deny: true,
    message: `${KIND_FACTS[deny.kind].label[0]!.toUpperCase()}${KIND_FACTS[deny.kind].label.slice(1)} ${deny.identifier} could not be saved due to policy violations`,
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
        policyMetadata: [
          {
            policyId: 'p1',
            policyName: 'required-approval',
            severity: 'error',
            denyMessages: [deny.message],
            status: 'error',
          },
        ],
      },
    ],
  };
}
