import { kindOfDocument } from '../catalog/kinds.js';
import { describePath, type DocPath } from '../core/document-path.js';
import { isRecord } from '../core/is-record.js';
import { withServerDefaults } from './server-defaults.js';

/**
 * Compares a local document with what the platform returns for it, by meaning rather than by text: key order,
 * YAML formatting, timestamps and what the server fills in on its own (the table in server-defaults.ts: project
 * `color` and `modules`, connector `spec.delegateSelectors`, ...) do not count as changes.
 */

export interface Change {
  /** Dotted path, e.g. `pipeline.stages[0].stage.name` (list indexes of the local document, or the platform's for a removal). */
  readonly path: string;
  /**
   * The same place as compile names it, by the identifiers of the stages and steps on the way (core's
   * describePath) without the document itself: `stage "deploy" > step "echo" > spec.source.spec.script`, or
   * `color` at the top. Absent for places outside the document (`stable version`).
   */
  readonly place?: string;
  /** `added`: only in the local document; `removed`: only on the platform; `changed`: both, different. */
  readonly op: 'added' | 'removed' | 'changed';
  readonly local?: unknown;
  readonly remote?: unknown;
}

type Json = Record<string, unknown>;

/** Empty values mean "not set" to the platform: `description: ""`, `tags: {}` and a missing key are the same. */
const isEmpty = (value: unknown): boolean =>
  value === null ||
  value === undefined ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (isRecord(value) && Object.keys(value).length === 0);

/** Keys the server adds to a resource body; ignored unless the local document sets them. */
const SERVER_KEYS = ['createdAt', 'lastModifiedAt', 'lastUpdatedAt', 'version', 'gitDetails', 'entityValidityDetails'];

/** Both documents with what the server adds or fills in (server-defaults.ts) taken out of the comparison. */
function normalise(local: Json, remote: Json): { local: Json; remote: Json } {
  const [root] = Object.keys(local);
  const kind = root === undefined ? undefined : kindOfDocument(local);
  if (!root || !kind || !isRecord(local[root]) || !isRecord(remote[root])) return { local, remote };
  const mine = local[root];
  const theirs: Json = { ...remote[root] };
  for (const key of SERVER_KEYS) if (!(key in mine)) delete theirs[key];
  const filled = withServerDefaults(kind, mine, theirs);
  return { local: { ...local, [root]: filled.local }, remote: { ...remote, [root]: filled.remote } };
}

const keyPath = (path: string, key: string) =>
  path ? `${path}.${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}` : key;

/** Wrapper keys of list items a person names by identifier (`- stage: {identifier: ...}`). */
const WRAPPERS = ['stage', 'step', 'stepGroup'];

/** `stage:deploy`, `:k8s` (an item with its own identifier), or undefined for an item without one. */
function identityOf(item: unknown): string | undefined {
  if (!isRecord(item)) return undefined;
  const keys = Object.keys(item);
  const wrapper = keys.length === 1 && WRAPPERS.includes(keys[0]!) && isRecord(item[keys[0]!]) ? keys[0]! : undefined;
  const body = wrapper ? (item[wrapper] as Json) : item;
  return typeof body.identifier === 'string' && body.identifier !== ''
    ? `${wrapper ?? ''}:${body.identifier}`
    : undefined;
}

/** The item's wrapper key (`step` of `- step: {...}`), so a whole added or removed item is named by its identifier. */
const wrapperOf = (item: unknown): string[] => {
  const keys = isRecord(item) ? Object.keys(item) : [];
  return keys.length === 1 && WRAPPERS.includes(keys[0]!) ? [keys[0]!] : [];
};

/** The identities of a list's items, when every item has one and no two share it. */
function identities(list: readonly unknown[]): string[] | undefined {
  const ids = list.map(identityOf);
  if (ids.some((id) => id === undefined) || new Set(ids).size !== ids.length) return undefined;
  return ids as string[];
}

interface Walk {
  readonly local: Json;
  readonly remote: Json;
  readonly out: Change[];
  /**
   * A connector: the platform reads it with Jackson and no schema check, so a number or boolean sent into a text
   * field is stored as its text (docs/fidelity.md), and `8080` sent is `"8080"` read back.
   */
  readonly storesText: boolean;
}

const sameScalar = (walk: Walk, local: unknown, remote: unknown): boolean =>
  Object.is(local, remote) ||
  (walk.storesText &&
    typeof remote === 'string' &&
    (typeof local === 'number' || typeof local === 'boolean') &&
    String(local) === remote);

/** A change at `at` (a path in the local document, or the platform's for a removal), named both ways. */
function record(walk: Walk, at: DocPath, text: string, change: Omit<Change, 'path' | 'place'>): void {
  // Described inside the document's root: its own label (`pipeline "deploy"`) is on the report line already.
  const document = change.op === 'removed' ? walk.remote : walk.local;
  const [root, ...inside] = at;
  const { subject, field } = root === undefined ? { subject: '', field: '' } : describePath(document[root], inside);
  const place = [...(subject ? [subject] : []), ...(field ? [field] : [])].join(' > ');
  walk.out.push({ path: text, ...(place ? { place } : {}), ...change });
}

function walkValues(
  walk: Walk,
  local: unknown,
  remote: unknown,
  localAt: DocPath,
  remoteAt: DocPath,
  text: string,
): void {
  if (isRecord(local) && isRecord(remote)) {
    const keys = [...new Set([...Object.keys(local), ...Object.keys(remote)])].sort();
    for (const key of keys) {
      const a = local[key];
      const b = remote[key];
      if (isEmpty(a) && isEmpty(b)) continue;
      const next = keyPath(text, key);
      if (isEmpty(b)) record(walk, [...localAt, key], next, { op: 'added', local: a });
      else if (isEmpty(a)) record(walk, [...remoteAt, key], next, { op: 'removed', remote: b });
      else walkValues(walk, a, b, [...localAt, key], [...remoteAt, key], next);
    }
    return;
  }
  if (Array.isArray(local) && Array.isArray(remote)) return walkList(walk, local, remote, localAt, remoteAt, text);
  if (!sameScalar(walk, local, remote)) record(walk, localAt, text, { op: 'changed', local, remote });
}

/**
 * Lists of stages, steps and other items with identifiers are compared item by item by identifier, so a step
 * inserted in the middle is one addition, not a change of every step after it; a new order is one change. Other
 * lists are compared by position.
 */
function walkList(
  walk: Walk,
  local: readonly unknown[],
  remote: readonly unknown[],
  localAt: DocPath,
  remoteAt: DocPath,
  text: string,
): void {
  const mine = identities(local);
  const theirs = identities(remote);
  if (mine && theirs) {
    const remoteIndex = new Map(theirs.map((id, i) => [id, i]));
    mine.forEach((id, i) => {
      const j = remoteIndex.get(id);
      if (j === undefined)
        record(walk, [...localAt, i, ...wrapperOf(local[i])], `${text}[${i}]`, { op: 'added', local: local[i] });
      else walkValues(walk, local[i], remote[j], [...localAt, i], [...remoteAt, j], `${text}[${i}]`);
    });
    const localIds = new Set(mine);
    theirs.forEach((id, j) => {
      if (!localIds.has(id))
        record(walk, [...remoteAt, j, ...wrapperOf(remote[j])], `${text}[${j}]`, { op: 'removed', remote: remote[j] });
    });
    const common = (ids: readonly string[], other: ReadonlySet<string>) => ids.filter((id) => other.has(id));
    const ours = common(mine, new Set(theirs));
    const platform = common(theirs, localIds);
    const name = (id: string) => id.slice(id.indexOf(':') + 1);
    if (ours.join('\n') !== platform.join('\n'))
      record(walk, localAt, text, { op: 'changed', local: ours.map(name), remote: platform.map(name) });
    return;
  }
  for (let i = 0; i < Math.max(local.length, remote.length); i++) {
    if (i >= remote.length) record(walk, [...localAt, i], `${text}[${i}]`, { op: 'added', local: local[i] });
    else if (i >= local.length) record(walk, [...remoteAt, i], `${text}[${i}]`, { op: 'removed', remote: remote[i] });
    else walkValues(walk, local[i], remote[i], [...localAt, i], [...remoteAt, i], `${text}[${i}]`);
  }
}

/** What publishing `local` would change on the platform, which holds `remote`; empty when nothing. */
export function semanticDiff(local: Json, remote: Json): Change[] {
  const both = normalise(local, remote);
  const storesText = kindOfDocument(local) === 'connector';
  const walk: Walk = { local: both.local, remote: both.remote, out: [], storesText };
  walkValues(walk, both.local, both.remote, [], [], '');
  return walk.out;
}

const show = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/** One line per change, named by identifier: `~ place: remote -> local`, `+ place: local`, `- place: remote`. */
export function formatChanges(changes: readonly Change[], indent = '    '): string[] {
  return changes.map((c) => {
    const where = c.place ?? c.path;
    return c.op === 'changed'
      ? `${indent}~ ${where}: ${show(c.remote)} -> ${show(c.local)}`
      : c.op === 'added'
        ? `${indent}+ ${where}: ${show(c.local)}`
        : `${indent}- ${where}: ${show(c.remote)}`;
  });
}
