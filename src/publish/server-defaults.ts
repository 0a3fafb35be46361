import { isRecord } from '../core/is-record.js';
import type { ResourceKind } from '../catalog/kinds.js';

/**
 * What the platform fills in when a document leaves a field out: the one table the semantic diff reads, and so
 * what "unchanged" (a re-publish writes nothing) and "drift" (changed by someone else) mean. A field here that a
 * document leaves out counts as its default on both sides: the platform holding the default is no change, and the
 * platform holding something else is a change back to the default (publishing the document would set it).
 * Sources are harness-core (the fork vigneswara-propelo/harness-core at 1dcec145), path and line per entry.
 */

type Json = Record<string, unknown>;

export interface ServerDefault {
  readonly kind: ResourceKind;
  /** Keys inside the document's root object, e.g. `['spec', 'executeOnDelegate']`. */
  readonly path: readonly string[];
  /**
   * `value`: the platform stores this when the field is absent. `superset`: the platform stores a list that
   * contains whatever was asked for (and more): a local list it contains is satisfied.
   */
  readonly fill: { readonly value: unknown; readonly caseInsensitive?: boolean } | 'superset';
  /** Only for documents of these `type`s (connectors: the field exists on some connector types only). */
  readonly types?: readonly string[];
  /** Where the platform does it. */
  readonly source: string;
}

const CONNECTOR_BEANS = '954-connector-beans/src/main/java/io/harness/delegate/beans/connector';

export const SERVER_DEFAULTS: readonly ServerDefault[] = [
  {
    kind: 'project',
    path: ['color'],
    // Colours are hex: `#0063f7` (as the UI shows it) is the same colour.
    fill: { value: '#0063F7', caseInsensitive: true },
    source:
      '950-ng-project-n-orgs/src/main/java/io/harness/ng/core/remote/ProjectMapper.java L39 (NGConstants.HARNESS_BLUE)',
  },
  { kind: 'project', path: ['description'], fill: { value: '' }, source: 'ProjectMapper.java L38' },
  {
    kind: 'project',
    path: ['modules'],
    // Every onboarded module, whatever was sent (platform-facts-2.md §2).
    fill: 'superset',
    source: 'ProjectMapper.java L42 (ModuleType.getModules())',
  },
  {
    kind: 'connector',
    path: ['spec', 'delegateSelectors'],
    fill: { value: [] },
    source: `${CONNECTOR_BEANS}/docker/DockerConnectorDTO.java L55 and siblings (an empty set)`,
  },
  {
    kind: 'connector',
    path: ['spec', 'executeOnDelegate'],
    fill: { value: true },
    types: ['DockerRegistry', 'Artifactory', 'Aws', 'Azure', 'Gcp', 'Spot', 'Tas', 'TerraformCloud'],
    source: `${CONNECTOR_BEANS}/docker/DockerConnectorDTO.java L56, artifactoryconnector/ArtifactoryConnectorDTO.java L52, awsconnector/AwsConnectorDTO.java L54, azureconnector/AzureConnectorDTO.java L52, gcpconnector/GcpConnectorDTO.java L54, spotconnector/SpotConnectorDTO.java L42, tasconnector/TasConnectorDTO.java L44, terraformcloudconnector/TerraformCloudConnectorDTO.java L43 (@Builder.Default)`,
  },
  {
    kind: 'connector',
    path: ['spec', 'proxy'],
    fill: { value: false },
    types: ['DockerRegistry', 'Aws', 'Gcp'],
    source: `${CONNECTOR_BEANS}/docker/DockerConnectorDTO.java L57, awsconnector/AwsConnectorDTO.java L55, gcpconnector/GcpConnectorDTO.java L55 (@Builder.Default)`,
  },
];

const isAbsent = (value: unknown): boolean =>
  value === null ||
  value === undefined ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (isRecord(value) && Object.keys(value).length === 0);

const getIn = (body: Json, path: readonly string[]): unknown =>
  path.reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), body);

/** `body` with `value` at `path` (copies on the way down; absent `value` removes the key). */
function setIn(body: Json, path: readonly string[], value: unknown): Json {
  const [key, ...rest] = path;
  if (key === undefined) return body;
  const copy: Json = { ...body };
  if (rest.length === 0) {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
    return copy;
  }
  copy[key] = setIn(isRecord(body[key]) ? body[key] : {}, rest, value);
  return copy;
}

function same(a: unknown, b: unknown, caseInsensitive: boolean): boolean {
  if (caseInsensitive && typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  return JSON.stringify(a) === JSON.stringify(b) || (isAbsent(a) && isAbsent(b));
}

/**
 * The two bodies of one document with the table applied: where the platform's value is what it would fill in for
 * the local one, the remote side takes the local value (no change); where a local field is absent and the platform
 * holds something else, the local side takes the default (a change back to it).
 */
export function withServerDefaults(kind: ResourceKind, local: Json, remote: Json): { local: Json; remote: Json } {
  let mine = local;
  let theirs = remote;
  const type = typeof local.type === 'string' ? local.type : undefined;
  for (const entry of SERVER_DEFAULTS) {
    if (entry.kind !== kind || (entry.types && (!type || !entry.types.includes(type)))) continue;
    const ours = getIn(mine, entry.path);
    const platform = getIn(theirs, entry.path);
    if (entry.fill === 'superset') {
      const wanted = Array.isArray(ours) ? ours : [];
      if (Array.isArray(platform) && wanted.every((item) => platform.some((p) => same(p, item, false))))
        theirs = setIn(theirs, entry.path, ours);
      continue;
    }
    const { value, caseInsensitive = false } = entry.fill;
    const ourValue = isAbsent(ours) ? value : ours;
    const platformValue = isAbsent(platform) ? value : platform;
    if (same(ourValue, platformValue, caseInsensitive)) theirs = setIn(theirs, entry.path, ours);
    else if (isAbsent(ours)) mine = setIn(mine, entry.path, value);
  }
  return { local: mine, remote: theirs };
}
