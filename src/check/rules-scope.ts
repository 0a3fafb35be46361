import { IDENTIFIER_PATTERN } from '../schema/common.js';
import type { Rule } from './walk.js';
import { ruleWarning } from './rule-kit.js';
import { PLACEHOLDER } from './rules-placeholders.js';
import { isRecord } from '../core/is-record.js';

/**
 * A document's `orgIdentifier` or `projectIdentifier` that is not an identifier (`your-project`): the platform's
 * schemas take any text there, so the document itself is valid, but orgs and projects have identifiers (the
 * platform's identifier rules, platform-facts-1.md §5), so no scope has this one and publishing to it fails.
 * A warning; placeholders (`<YOUR_PROJECT>`) are said by the placeholder rule instead.
 */
export const scopeWarnings: Rule = {
  code: 'invalid-scope',
  document(_root, at) {
    const { document, kind } = at;
    const body = isRecord(document) ? document[kind] : undefined;
    if (!isRecord(body)) return;
    for (const key of kind === 'project' ? [] : ['orgIdentifier', 'projectIdentifier']) {
      const value = body[key];
      if (
        typeof value !== 'string' ||
        IDENTIFIER_PATTERN.test(value) ||
        PLACEHOLDER.test(value) ||
        value.includes('<+')
      )
        continue;
      at.report(
        ruleWarning(
          document,
          [kind, key],
          'invalid-scope',
          `${key} ${JSON.stringify(value)} is not an identifier, so no ${key === 'orgIdentifier' ? 'org' : 'project'} can have it: publishing to it would fail`,
          `use the ${key === 'orgIdentifier' ? 'org' : 'project'}'s identifier (letters, digits and _, starting with a letter or _)`,
        ),
      );
    }
  },
};
