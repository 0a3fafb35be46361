import { kindOfDocument } from '../catalog/kinds.js';
import { isRecord } from '../core/is-record.js';
import { withServerDefaults } from './server-defaults.js';

/**
 * Compares a local document with what the platform returns for it, by meaning rather than by text: key order,
 * YAML formatting, timestamps and what the server fills in on its own (the table in server-defaults.ts: project
 * `color` and `modules`, connector `spec.delegateSelectors`, ...) do not count as changes.
 */

export interface Change {
  /** Dotted path, e.g. `pipeline.stages[0].stage.name`. */
  readonly path: string;
  /** `added`: only in the local document; `removed`: only on the platform; `changed`: both, different. */
  readonly op: 'added' | 'removed' | 'changed';
  readonly local?: unknown;
  readonly remote?: unknown;
}

type Json = Record<string, unknown>;

/** Empty values mean "not set" to the platform: `description: ""`, `tags: {}` and a missing key are the same. */
const isEmpty = (value: unknown): boolean =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0) || (isRecord(value) && Object.keys(value).length === 0);

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

const keyPath = (path: string, key: string) => (path ? `${path}.${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}` : key);

function walk(local: unknown, remote: unknown, path: string, out: Change[]): void {
  if (isRecord(local) && isRecord(remote)) {
    const keys = [...new Set([...Object.keys(local), ...Object.keys(remote)])].sort();
    for (const key of keys) {
      const a = local[key];
      const b = remote[key];
      if (isEmpty(a) && isEmpty(b)) continue;
      if (isEmpty(b)) out.push({ path: keyPath(path, key), op: 'added', local: a });
      else if (isEmpty(a)) out.push({ path: keyPath(path, key), op: 'removed', remote: b });
      else walk(a, b, keyPath(path, key), out);
    }
    return;
  }
  if (Array.isArray(local) && Array.isArray(remote)) {
    for (let i = 0; i < Math.max(local.length, remote.length); i++) {
      if (i >= remote.length) out.push({ path: `${path}[${i}]`, op: 'added', local: local[i] });
      else if (i >= local.length) out.push({ path: `${path}[${i}]`, op: 'removed', remote: remote[i] });
      else walk(local[i], remote[i], `${path}[${i}]`, out);
    }
    return;
  }
  if (!Object.is(local, remote)) out.push({ path, op: 'changed', local, remote });
}

/** What publishing `local` would change on the platform, which holds `remote`; empty when nothing. */
export function semanticDiff(local: Json, remote: Json): Change[] {
  const out: Change[] = [];
  const both = normalise(local, remote);
  walk(both.local, both.remote, '', out);
  return out;
}

const show = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

/** One line per change: `~ path: remote -> local`, `+ path: local`, `- path: remote`. */
export function formatChanges(changes: readonly Change[], indent = '    '): string[] {
  return changes.map((c) =>
    c.op === 'changed'
      ? `${indent}~ ${c.path}: ${show(c.remote)} -> ${show(c.local)}`
      : c.op === 'added'
        ? `${indent}+ ${c.path}: ${show(c.local)}`
        : `${indent}- ${c.path}: ${show(c.remote)}`,
  );
}
