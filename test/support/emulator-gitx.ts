import type { Answer } from './emulator-rest.js';
import type { Kind } from './emulator-store.js';

/**
 * A scope's Git Experience settings as the platform applies them to a create (platform-facts-3.md §2 D1, CORE
 * 878-ng-common-utilities/.../gitx/GitXSettingsHelper.java L50-100): "Default Store Type For Entities" fills in a
 * create that names no `storeType`, and "Enforce git experience" refuses an INLINE one.
 */

export interface GitScopeSettings {
  readonly defaultStoreType?: 'INLINE' | 'REMOTE';
  readonly enforced?: boolean;
}

/** Settings by scope: `account`, `<org>`, `<org>/<project>`; the most specific one that sets a field wins. */
export type GitSettingsTable = Readonly<Record<string, GitScopeSettings>>;

/** Kinds whose creates read the settings, and whether they are refused under enforcement (input sets are not: L85). */
const APPLIES: Partial<Record<Kind, { readonly enforced: boolean }>> = {
  pipeline: { enforced: true },
  template: { enforced: true },
  service: { enforced: true },
  environment: { enforced: true },
  inputSet: { enforced: false },
  overlayInputSet: { enforced: false },
};

export function scopeSettings(
  table: GitSettingsTable,
  org: string | undefined,
  project: string | undefined,
): GitScopeSettings {
  const layers = [table.account, org ? table[org] : undefined, org && project ? table[`${org}/${project}`] : undefined];
  let merged: GitScopeSettings = {};
  for (const layer of layers) if (layer) merged = { ...merged, ...layer };
  return merged;
}

const invalid = (message: string, correlationId: string): { answer: Answer } => ({
  answer: {
    status: 400,
    body: {
      status: 'ERROR',
      code: 'INVALID_REQUEST',
      message,
      correlationId,
      detailedMessage: null,
      responseMessages: [],
      metadata: null,
    },
  },
});

/**
 * The store type a create ends with, or the platform's refusal. A REMOTE store type without a file (the scope's
 * default turned an inline create into a Git one) is "No file path provided." (GitAwareEntityHelper.java L125, L150).
 */
export function createStoreType(
  kind: Kind,
  query: URLSearchParams,
  table: GitSettingsTable,
  scope: { org?: string; project?: string; account: string },
  correlationId: string,
): { storeType: 'INLINE' | 'REMOTE' } | { answer: Answer } {
  const asked = query.get('storeType');
  const applies = APPLIES[kind];
  if (!applies) return { storeType: asked === 'REMOTE' ? 'REMOTE' : 'INLINE' };
  const settings = scopeSettings(table, scope.org, scope.project);
  if (applies.enforced && settings.enforced && asked === 'INLINE')
    return invalid(
      `Git Experience is enforced for the current scope with accountId: [${scope.account}], orgIdentifier: [${scope.org ?? null}] and projIdentifier: [${scope.project ?? null}]. Hence Interaction with INLINE entities is forbidden.`,
      correlationId,
    );
  const storeType =
    asked === 'INLINE' || asked === 'REMOTE'
      ? asked
      : applies.enforced && settings.enforced
        ? 'REMOTE'
        : (settings.defaultStoreType ?? 'INLINE');
  if (storeType === 'REMOTE' && !query.get('filePath')) return invalid('No file path provided.', correlationId);
  return { storeType };
}
