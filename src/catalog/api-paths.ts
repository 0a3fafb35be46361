import type { ResourceKind } from './kinds.js';

/**
 * Identifiers a kind's read cannot reach: the read is `GET <collection>/{identifier}`, and the same collection has
 * literal sub-paths (`/pipeline/api/pipelines/v2`, `/pipeline/api/pipelines/list`, ...) that the server routes
 * first, so a resource with that identifier is never found by its read and cannot be published or pulled. Kept
 * here, below check, so that validate and compile can say so; test/api-path-identifiers.test.ts derives the same
 * table from the endpoint table (src/platform/endpoints.ts), which is the source.
 */
export const API_PATH_IDENTIFIERS: Readonly<Partial<Record<ResourceKind, readonly string[]>>> = {
  connector: ['listV2'],
  inputSet: ['overlay'],
  pipeline: ['list', 'v2'],
  template: ['update', 'updateStableTemplate'],
};
