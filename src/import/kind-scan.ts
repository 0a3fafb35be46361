import { kindOfRootKey, type ResourceKind } from '../catalog/kinds.js';

/** A plain key at the start of a line: `pipeline:`, `pipeline: x`. */
const ROOT_KEY = /^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]|$)/;
/** Lines that hold no key: blank, a comment, a directive. */
const NOTHING = /^(?:[ \t]*(?:#.*)?|%.*)$/;
/** A document's start or end: `---` or `...` alone or before a comment (content after `---` could be a root). */
const DOCUMENT_MARK = /^(?:---|\.\.\.)[ \t]*(?:#.*)?$/;

/**
 * The kinds of platform document a YAML text may hold, found without parsing it (import reads documents in
 * publish order, and a file need not be parsed before the documents of earlier kinds are generated). Every
 * platform document writes its root key at the start of a line; a text with anything at the start of a line
 * that could hide a root key (a root that is indented, quoted, a flow map, anchored, tagged, a complex or merge
 * key, content after `---`) gives undefined: any kind. So the kinds a text holds are always in the answer.
 */
export function kindsIn(text: string): ReadonlySet<ResourceKind> | undefined {
  const kinds = new Set<ResourceKind>();
  // Whether the current document's root is known to be a block map at the start of its lines.
  let rootSeen = false;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    if (NOTHING.test(line)) continue;
    if (line.startsWith('---') || line.startsWith('...')) {
      if (!DOCUMENT_MARK.test(line)) return undefined;
      rootSeen = false;
      continue;
    }
    const first = line[0];
    if (first === ' ' || first === '\t') {
      // Indented content before any root key: the root itself is indented.
      if (!rootSeen) return undefined;
      continue;
    }
    const key = ROOT_KEY.exec(line)?.[1];
    if (key === undefined) return undefined;
    rootSeen = true;
    const kind = kindOfRootKey(key);
    if (kind) kinds.add(kind);
  }
  return kinds;
}
