import { errorBody, type Answer } from './emulator-rest.js';
import {
  connectorData,
  pipelineChildData,
  projectData,
  yamlEntityData,
  type Kind,
  type Store,
  type StoredResource,
} from './emulator-store.js';

/**
 * The list calls of platform-facts-3.md §3, each with its own page parameters and page shape: NG's PageResponse
 * `{content, totalPages, totalItems, pageIndex, pageSize, empty}` or a Spring page `{content, totalElements,
 * totalPages, number, size, first, last}`. Kept apart from pipewright's table on purpose (the emulator checks it).
 */

interface ListRoute {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  /** Which stored kinds it lists. */
  readonly kinds: readonly Kind[];
  readonly required: readonly string[];
  readonly optional: readonly string[];
  readonly page: readonly [index: string, size: string];
  readonly shape: 'ng' | 'spring';
  /** The POST body's filterType. */
  readonly filterType?: string;
  /** The query parameter naming the parent, and the kinds it applies to. */
  readonly parent?: string;
  /** Fields its `sort` parameters may name (Spring lists; each `sort` is one key, PageUtils.java L34-52). */
  readonly sortable?: readonly SortField[];
  /** Its order without `sort`: the last update first (pipelines, templates), else by identity. */
  readonly unsorted?: 'last-update-first';
  readonly item: (r: StoredResource) => unknown;
}

type SortField = 'identifier' | 'versionLabel' | 'name' | 'lastUpdatedAt';
const SORT_VALUE: Readonly<Record<SortField, (r: StoredResource) => string | number>> = {
  identifier: (r) => r.identifier,
  versionLabel: (r) => r.versionLabel ?? '',
  name: (r) => String(r.body.name ?? ''),
  lastUpdatedAt: (r) => r.lastModifiedAt,
};
const NG_SORTABLE: readonly SortField[] = ['identifier', 'name', 'lastUpdatedAt'];

const ACCOUNT = ['accountIdentifier'];
const SCOPE = ['orgIdentifier', 'projectIdentifier'];
const SPRING = ['page', 'size', 'sort', 'searchTerm'];

const templateSummary = (r: StoredResource) => ({
  identifier: r.identifier,
  name: r.body.name,
  versionLabel: r.versionLabel,
  stableTemplate: r.stable ?? false,
  templateEntityType: r.body.type,
  storeType: r.git ? 'REMOTE' : 'INLINE',
  ...(r.git
    ? {
        connectorRef: r.git.connectorRef,
        gitDetails: { repoName: r.git.repoName, filePath: r.git.filePath, branch: r.git.branch },
      }
    : {}),
  orgIdentifier: r.org,
  projectIdentifier: r.project,
});

const pipelineSummary = (r: StoredResource) => ({
  identifier: r.identifier,
  name: r.body.name,
  orgIdentifier: r.org,
  projectIdentifier: r.project,
  storeType: r.git ? 'REMOTE' : 'INLINE',
  ...(r.git
    ? {
        connectorRef: r.git.connectorRef,
        gitDetails: { repoName: r.git.repoName, filePath: r.git.filePath, branch: r.git.branch },
      }
    : {}),
  yamlVersion: r.yamlVersion ?? '0',
  version: r.version,
  lastUpdatedAt: r.lastModifiedAt,
});

/** NGTriggerDetailsResponseDTO: the YAML, `enabled` and the status in every item (NGTriggerResource.java L238-258). */
const triggerDetails = (r: StoredResource) => ({
  ...(pipelineChildData(r) as Record<string, unknown>),
  triggerStatus: {
    validationStatus: r.validation ?? { statusResult: 'SUCCESS' },
    status: r.validation?.statusResult === 'FAILED' ? 'FAILED' : 'SUCCESS',
  },
});

const ROUTES: readonly ListRoute[] = [
  {
    method: 'GET',
    path: '/ng/api/projects',
    kinds: ['project'],
    required: ACCOUNT,
    optional: ['orgIdentifier', 'pageIndex', 'pageSize', 'searchTerm', 'hasModule', 'moduleType'],
    page: ['pageIndex', 'pageSize'],
    shape: 'ng',
    item: projectData,
  },
  {
    method: 'POST',
    path: '/ng/api/connectors/listV2',
    kinds: ['connector'],
    required: ACCOUNT,
    optional: [...SCOPE, 'pageIndex', 'pageSize', 'searchTerm'],
    page: ['pageIndex', 'pageSize'],
    shape: 'ng',
    filterType: 'Connector',
    item: connectorData,
  },
  {
    method: 'GET',
    path: '/ng/api/servicesV2',
    kinds: ['service'],
    required: ACCOUNT,
    optional: [...SCOPE, ...SPRING],
    page: ['page', 'size'],
    shape: 'ng',
    sortable: NG_SORTABLE,
    item: (r) => yamlEntityData(r, 'list'),
  },
  {
    method: 'GET',
    path: '/ng/api/environmentsV2',
    kinds: ['environment'],
    required: ACCOUNT,
    optional: [...SCOPE, ...SPRING],
    page: ['page', 'size'],
    shape: 'ng',
    sortable: NG_SORTABLE,
    item: (r) => yamlEntityData(r, 'list'),
  },
  {
    method: 'GET',
    path: '/ng/api/infrastructures',
    kinds: ['infrastructure'],
    required: [...ACCOUNT, 'environmentIdentifier'],
    optional: [...SCOPE, ...SPRING],
    page: ['page', 'size'],
    shape: 'ng',
    parent: 'environmentIdentifier',
    sortable: NG_SORTABLE,
    item: (r) => yamlEntityData(r, 'list'),
  },
  {
    method: 'POST',
    path: '/template/api/templates/list-metadata',
    kinds: ['template'],
    required: [...ACCOUNT, 'templateListType'],
    optional: [...SCOPE, ...SPRING],
    page: ['page', 'size'],
    shape: 'spring',
    filterType: 'Template',
    sortable: [...NG_SORTABLE, 'versionLabel'],
    unsorted: 'last-update-first',
    item: templateSummary,
  },
  {
    method: 'POST',
    path: '/pipeline/api/pipelines/list',
    kinds: ['pipeline'],
    required: [...ACCOUNT, ...SCOPE],
    optional: [...SPRING, 'module', 'filterIdentifier'],
    page: ['page', 'size'],
    shape: 'spring',
    filterType: 'PipelineSetup',
    sortable: NG_SORTABLE,
    unsorted: 'last-update-first',
    item: pipelineSummary,
  },
  {
    method: 'GET',
    path: '/pipeline/api/inputSets',
    kinds: ['inputSet', 'overlayInputSet'],
    required: [...ACCOUNT, ...SCOPE, 'pipelineIdentifier'],
    // pageIndex/pageSize, not page/size (NGResourceFilterConstants.java L27-29): the latter are not the server's.
    optional: ['pageIndex', 'pageSize', 'inputSetType', 'searchTerm'],
    page: ['pageIndex', 'pageSize'],
    shape: 'ng',
    parent: 'pipelineIdentifier',
    item: (r) => ({
      identifier: r.identifier,
      name: r.body.name,
      pipelineIdentifier: r.parent,
      inputSetType: r.kind === 'overlayInputSet' ? 'OVERLAY_INPUT_SET' : 'INPUT_SET',
      isOutdated: false,
    }),
  },
  {
    method: 'GET',
    path: '/pipeline/api/triggers',
    kinds: ['trigger'],
    required: [...ACCOUNT, ...SCOPE, 'targetIdentifier'],
    optional: [...SPRING, 'filter'],
    page: ['page', 'size'],
    shape: 'ng',
    parent: 'targetIdentifier',
    sortable: NG_SORTABLE,
    item: triggerDetails,
  },
];

/** The answer to a list call, or undefined when the request is not one. */
export function listAnswer(
  store: Store,
  method: string,
  path: string,
  query: URLSearchParams,
  body: string,
  accountId: string,
  correlationId: string,
  onPage?: (kind: Kind, index: number) => void,
): Answer | undefined {
  const route = ROUTES.find((r) => r.method === method && r.path === path);
  if (!route) return undefined;
  const bad = (message: string): Answer => ({
    status: 400,
    body: errorBody('INVALID_REQUEST', message, correlationId),
    violation: message,
  });
  for (const name of query.keys())
    if (!route.required.includes(name) && !route.optional.includes(name))
      return bad(`unexpected query parameter ${name} on the ${route.kinds[0]} list`);
  for (const name of route.required) if (!query.get(name)) return bad(`query parameter ${name} is required`);
  if (query.get('accountIdentifier') !== accountId)
    return {
      status: 401,
      body: errorBody('INVALID_CREDENTIAL', 'The API key does not belong to this account', correlationId),
    };
  if (route.filterType) {
    let filter: { filterType?: unknown } | undefined;
    try {
      filter = JSON.parse(body) as { filterType?: unknown };
    } catch {
      filter = undefined;
    }
    if (filter?.filterType !== route.filterType)
      return bad(`the ${route.kinds[0]} list takes a JSON body {"filterType":"${route.filterType}"}`);
  }
  const org = query.get('orgIdentifier') ?? undefined;
  const project = route.kinds[0] === 'project' ? undefined : (query.get('projectIdentifier') ?? undefined);
  const parent = route.parent ? query.get(route.parent) : undefined;
  const type = query.get('inputSetType');
  const kinds = type === 'INPUT_SET' ? ['inputSet'] : type === 'OVERLAY_INPUT_SET' ? ['overlayInputSet'] : route.kinds;
  const byIdentifier = (a: StoredResource, b: StoredResource) =>
    a.identifier < b.identifier
      ? -1
      : a.identifier > b.identifier
        ? 1
        : (a.versionLabel ?? '') < (b.versionLabel ?? '')
          ? -1
          : 1;
  const lastUpdateFirst = (a: StoredResource, b: StoredResource) => b.lastModifiedAt - a.lastModifiedAt;
  const all = [...store.resources.values()]
    .filter(
      (r) =>
        kinds.includes(r.kind) &&
        r.org === org &&
        r.project === project &&
        (parent === undefined || parent === null || r.parent === parent),
    )
    .sort(byIdentifier);
  // The pipeline and template lists' own order is the last update first (PipelineResourceImpl.java L415,
  // NGTemplateServiceImpl.java L818-820): an edit while a client pages through moves the item to the first page.
  // Each `sort` parameter is one key, in order (PageUtils.java L34-52). Mongo returns items that tie under the keys in
  // no fixed order; here the last updated first, which an edit changes: keys that do not name one item (a
  // template's identifier, shared by its versions) lose and repeat items across pages, as on the platform.
  const keys: Array<{ value: (r: StoredResource) => string | number; sign: number }> = [];
  for (const sort of query.getAll('sort')) {
    const [field, direction = 'ASC', ...rest] = sort.split(',');
    if (!route.sortable?.includes(field as SortField) || !/^(ASC|DESC)$/i.test(direction) || rest.length > 0)
      return bad(`sort=${sort} is not a field and direction this emulator sorts the ${route.kinds[0]} list by`);
    keys.push({ value: SORT_VALUE[field as SortField], sign: /^DESC$/i.test(direction) ? -1 : 1 });
  }
  if (keys.length > 0) {
    const byKeys = (a: StoredResource, b: StoredResource) => {
      for (const { value, sign } of keys) {
        const [x, y] = [value(a), value(b)];
        if (x !== y) return (x < y ? -1 : 1) * sign;
      }
      return 0;
    };
    // Array sort is stable: ties stay in the order of the first sort.
    all.sort(lastUpdateFirst).sort(byKeys);
  } else if (route.unsorted === 'last-update-first') all.sort(lastUpdateFirst);
  const index = Number(query.get(route.page[0]) ?? 0);
  onPage?.(route.kinds[0]!, index);
  const size = Number(query.get(route.page[1]) ?? (route.page[0] === 'pageIndex' ? 100 : 25));
  if (!Number.isInteger(index) || index < 0 || !Number.isInteger(size) || size < 1 || size > 100)
    return bad(`${route.page[0]}=${index} ${route.page[1]}=${size} is not a page (size 1 to 100)`);
  const content = all.slice(index * size, index * size + size).map(route.item);
  const totalPages = Math.ceil(all.length / size);
  const data =
    route.shape === 'ng'
      ? {
          totalPages,
          totalItems: all.length,
          pageItemCount: content.length,
          pageSize: size,
          content,
          pageIndex: index,
          empty: content.length === 0,
        }
      : {
          content,
          totalElements: all.length,
          totalPages,
          number: index,
          size,
          numberOfElements: content.length,
          first: index === 0,
          last: index + 1 >= totalPages,
          empty: content.length === 0,
        };
  return { status: 200, body: { status: 'SUCCESS', data, metaData: null, correlationId } };
}

/**
 * GET `/ng/api/organizations`: the account's organizations, an NG page of `{organization}` (OrganizationResource.java
 * L171-200).
 */
export function organizationListAnswer(
  orgs: ReadonlySet<string>,
  query: URLSearchParams,
  accountId: string,
  correlationId: string,
): Answer {
  for (const name of query.keys())
    if (!['accountIdentifier', 'pageIndex', 'pageSize', 'searchTerm'].includes(name))
      return {
        status: 400,
        body: errorBody('INVALID_REQUEST', `unexpected query parameter ${name}`, correlationId),
        violation: `organization list with ${name}`,
      };
  if (query.get('accountIdentifier') !== accountId)
    return {
      status: 401,
      body: errorBody('INVALID_CREDENTIAL', 'The API key does not belong to this account', correlationId),
    };
  const all = [...orgs].sort();
  const index = Number(query.get('pageIndex') ?? 0);
  const size = Number(query.get('pageSize') ?? 50);
  const content = all.slice(index * size, index * size + size).map((identifier) => ({
    organization: { identifier, name: identifier, description: '', tags: {} },
    harnessManaged: identifier === 'default',
  }));
  const data = {
    totalPages: Math.ceil(all.length / size),
    totalItems: all.length,
    pageItemCount: content.length,
    pageSize: size,
    content,
    pageIndex: index,
    empty: content.length === 0,
  };
  return { status: 200, body: { status: 'SUCCESS', data, metaData: null, correlationId } };
}
