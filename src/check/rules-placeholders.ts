import type { DocPath } from '../core/document-path.js';
import type { Rule } from './walk.js';
import { describePath, pathKey } from '../core/document-path.js';
import { ruleError, ruleWarning } from './rule-kit.js';

/**
 * Template placeholders that teams substitute before sending a document: `${VAR}` (envsubst), `<YOUR_ORG>`
 * (sample files) and `{{ name }}` (cookiecutter, Jinja). Lower-case `<a>` tags and `<+...>` expressions are not.
 */
export const PLACEHOLDER = /\$\{[A-Za-z_][A-Za-z0-9_]*\}|<[A-Z][A-Z0-9_]*>|\{\{\s*[\w.-]+\s*\}\}/;
/** Fields that hold a program or its arguments: `${VAR}` there is the shell's own. */
const PROGRAM_KEYS = new Set(['script', 'command', 'args', 'entrypoint', 'commands']);
/** Uses of one placeholder beyond this are counted, not listed. */
const PLACES_SHOWN = 3;
/**
 * The document's scope: text without a pattern in the platform's schemas, so the document is valid, but no org or
 * project has that identifier and a request for it fails. A warning of its own.
 */
const SCOPE_KEYS = new Set(['orgIdentifier', 'projectIdentifier']);
const isScope = (path: DocPath) => path.length === 2 && typeof path[1] === 'string' && SCOPE_KEYS.has(path[1]);

const isProgram = (path: DocPath) => path.some((key) => typeof key === 'string' && PROGRAM_KEYS.has(key));

interface Candidate {
  readonly text: string;
  readonly path: DocPath;
  readonly found: string | undefined;
}

/**
 * Unsubstituted placeholders: an error where the platform's schema refuses the value (the paths of the
 * document's schema errors, such as an identifier's pattern; the schema's own error there is dropped), a warning in
 * the document's orgIdentifier or projectIdentifier (its schema takes any text there; only the request for that
 * scope fails) and elsewhere (the platform saves the text as it is), nothing inside scripts. Each placeholder is
 * reported once per document, with how many places use it. A `<+...>` expression where the schema refuses one (an
 * entity's own identifier) is said the same way. The walk collects the candidates; the schema's verdict decides.
 */
export const placeholders: Rule<Candidate[]> = {
  code: 'unsubstituted-placeholder',
  init: () => [],
  string(text, at, candidates) {
    const found = PLACEHOLDER.exec(text)?.[0];
    if (!found && !(at.key === 'identifier' && text.includes('<+'))) return;
    const path = at.path;
    if (!isProgram(path)) candidates.push({ text, path, found });
  },
  end(at, candidates) {
    const { document } = at;
    const elsewhere = new Map<string, DocPath[]>();
    for (const { text, path, found } of candidates) {
      const key = path[path.length - 1];
      if (at.refused.has(pathKey(path))) {
        at.absorbed.add(pathKey(path));
        at.report(
          ruleError(
            document,
            path,
            'unsubstituted-placeholder',
            `${describePath(document, path).field} ${JSON.stringify(text)} is an unsubstituted placeholder; the platform refuses it as ${key === 'identifier' ? 'an identifier' : 'this value'}`,
            `replace it with the real ${String(key)} (letters, digits and _) before validating or sending the document`,
          ),
        );
        continue;
      }
      if (!found) continue;
      if (isScope(path)) {
        at.report(
          ruleWarning(
            document,
            path,
            'unsubstituted-placeholder',
            `${describePath(document, path).field} ${JSON.stringify(text)} is an unsubstituted placeholder: no ${key === 'orgIdentifier' ? 'org' : 'project'} has that identifier, so publishing to it would fail`,
            `replace it with the real ${String(key)} before sending the document`,
          ),
        );
        continue;
      }
      const places = elsewhere.get(found);
      if (places) places.push(path);
      else elsewhere.set(found, [path]);
    }
    /** `stage "deploy" > step "check" > spec.url`: the place without the document's own name, which the subject gives. */
    const placeOf = (path: DocPath) => {
      const { subject, field } = describePath(document, path);
      return [...subject.split(' > ').slice(1), field].join(' > ');
    };
    for (const [placeholder, places] of elsewhere) {
      const first = places[0]!;
      const more =
        places.length > 1
          ? ` (in ${places.length} places: ${places.slice(0, PLACES_SHOWN).map(placeOf).join(', ')}${places.length > PLACES_SHOWN ? `, ... and ${places.length - PLACES_SHOWN} more` : ''})`
          : '';
      at.report(
        ruleWarning(
          document,
          first,
          'unsubstituted-placeholder',
          `${describePath(document, first).field} holds the placeholder ${placeholder}, which the platform would keep as text${more}`,
          'substitute it before sending the document (the platform does not expand ${...} or <...> placeholders)',
        ),
      );
    }
  },
};
