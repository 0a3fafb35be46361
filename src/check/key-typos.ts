import type { Rule } from './walk.js';
import { describePath } from '../core/document-path.js';
import { ruleWarning } from './rule-kit.js';
import { closest, didYouMean } from '../core/suggest.js';

/** Keys shorter than this are too easily one edit from another real key to call a typo. */
const MIN_KEY_LENGTH = 4;

/**
 * Unknown keys one or two edits from a key the schema models are typos (`scipt`, `identifer`): the loose
 * objects would otherwise let them through silently. A warning: the platform's schema leaves objects open and
 * its reader ignores unknown keys (platform-facts-2 §1.1, `FAIL_ON_UNKNOWN_PROPERTIES=false`), so it saves the
 * document and the field is lost at run time. Where the key it misses is required, the document check makes it
 * the error that replaces "required" (check-document.ts, `withoutEchoes`). The walk follows the document's own zod schema (the
 * per-type spec registries included) and calls this at each key a loose object does not model.
 */
export const unknownKeys: Rule = {
  code: 'unknown-key',
  unmodelledKey(key, fields, at) {
    if (key.length < MIN_KEY_LENGTH) return;
    const suggestion = closest(key, Object.keys(fields.shape));
    if (!suggestion) return;
    const path = at.path;
    const { field } = describePath(at.document, path);
    at.report(
      ruleWarning(
        at.document,
        [...path, key],
        'unknown-key',
        `unknown key "${key}"${field ? ` in ${field}` : ''}`,
        didYouMean(suggestion),
      ),
    );
  },
};
