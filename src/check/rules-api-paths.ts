import { API_PATH_IDENTIFIERS } from '../catalog/api-paths.js';
import { isRecord } from '../core/is-record.js';
import type { ResourceKind } from '../catalog/kinds.js';
import { ruleError } from './rule-kit.js';
import type { Rule } from './walk.js';

/**
 * A resource whose identifier is one of its collection's literal API sub-paths (a pipeline `v2` or `list`): its read
 * `GET .../pipelines/v2` reaches the other route, so publish can never find it and pull never read it back.
 */
export const apiPathIdentifiers: Rule = {
  code: 'identifier-is-api-path',
  document(_root, at) {
    const { document, kind } = at;
    const body = isRecord(document) ? document[kind] : undefined;
    const identifier = isRecord(body) ? body.identifier : undefined;
    const taken = API_PATH_IDENTIFIERS[kind as ResourceKind];
    if (typeof identifier !== 'string' || !taken?.includes(identifier)) return;
    at.report(
      ruleError(
        document,
        [kind, 'identifier'],
        'identifier-is-api-path',
        `${kind} identifier ${JSON.stringify(identifier)} is a path of the platform's API beside the ${kind}'s own, so the platform's read of it reaches that route and the ${kind} cannot be published or read back`,
        `choose another identifier (the API's paths here: ${taken.join(', ')})`,
      ),
    );
  },
};
