import type { DocPath } from '../dsl/build-context.js';
import type { Diagnostic } from './diagnostics.js';
import { describePath, pathKey } from './document-path.js';
import { ruleError, ruleWarning, stringsOf, type Node } from './rule-kit.js';

/**
 * Template placeholders that teams substitute before sending a document: `${VAR}` (envsubst), `<YOUR_ORG>`
 * (sample files) and `{{ name }}` (cookiecutter, Jinja). Lower-case `<a>` tags and `<+...>` expressions are not.
 */
const PLACEHOLDER = /\$\{[A-Za-z_][A-Za-z0-9_]*\}|<[A-Z][A-Z0-9_]*>|\{\{\s*[\w.-]+\s*\}\}/;
/** Where the platform needs a literal identifier: its pattern refuses any placeholder, and an expression too. */
const IDENTIFIER_KEYS = new Set(['identifier', 'orgIdentifier', 'projectIdentifier']);
/** Fields that hold a program or its arguments: `${VAR}` there is the shell's own. */
const PROGRAM_KEYS = new Set(['script', 'command', 'args', 'entrypoint', 'commands']);
/** Uses of one placeholder beyond this are counted, not listed. */
const PLACES_SHOWN = 3;

/** The identifiers of the document's own entities, where even an expression is refused (the pattern has no `<+`). */
const OWNERS = new Set(['pipeline', 'connector', 'project', 'stage', 'step', 'stepGroup']);
const ownIdentifier = (path: DocPath) => {
  const owner = path[path.length - 2];
  return typeof owner === 'string' && OWNERS.has(owner);
};

const isProgram = (path: DocPath) => path.some((key) => typeof key === 'string' && PROGRAM_KEYS.has(key));

export interface PlaceholderFindings {
  readonly diagnostics: Diagnostic[];
  /** Paths of identifiers reported here, whose schema pattern error would say the same thing again. */
  readonly identifiers: Set<string>;
}

/**
 * Unsubstituted placeholders: an error in an identifier (the platform refuses it there: the identifier pattern,
 * or a scope that does not exist), a warning elsewhere (the platform saves the text as it is), nothing inside
 * scripts. Each placeholder is reported once per document, with how many places use it.
 */
export function placeholders(document: Node): PlaceholderFindings {
  const diagnostics: Diagnostic[] = [];
  const identifiers = new Set<string>();
  const elsewhere = new Map<string, DocPath[]>();
  for (const { text, path } of stringsOf(document, [])) {
    const key = path[path.length - 1];
    if (typeof key === 'string' && IDENTIFIER_KEYS.has(key)) {
      const found = PLACEHOLDER.exec(text)?.[0] ?? (text.includes('<+') && ownIdentifier(path) ? text : undefined);
      if (!found) continue;
      identifiers.add(pathKey(path));
      diagnostics.push(
        ruleError(document, path, 'unsubstituted-placeholder',
          `${describePath(document, path).field} ${JSON.stringify(text)} is an unsubstituted placeholder; the platform refuses it as an identifier`,
          `replace it with the real ${key} (letters, digits and _) before validating or sending the document`),
      );
      continue;
    }
    if (isProgram(path)) continue;
    const found = PLACEHOLDER.exec(text)?.[0];
    if (!found) continue;
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
    const more = places.length > 1 ? ` (in ${places.length} places: ${places.slice(0, PLACES_SHOWN).map(placeOf).join(', ')}${places.length > PLACES_SHOWN ? `, ... and ${places.length - PLACES_SHOWN} more` : ''})` : '';
    diagnostics.push(
      ruleWarning(document, first, 'unsubstituted-placeholder',
        `${describePath(document, first).field} holds the placeholder ${placeholder}, which the platform would keep as text${more}`,
        'substitute it before sending the document (the platform does not expand ${...} or <...> placeholders)'),
    );
  }
  return { diagnostics, identifiers };
}
