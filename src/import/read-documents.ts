import { isMap, isScalar, isSeq, type Document, type LineCounter } from 'yaml';
import type { Diagnostic } from '../core/diagnostics.js';
import type { SourceLocation } from '../core/source-location.js';
import { kindOfDocument, kindRow, rootKeyList, unmanagedRootKey } from '../catalog/kinds.js';
import type { ResourceKind } from '../schema/index.js';
import { readYaml } from '../yaml/read-yaml.js';
import { spanOf } from '../yaml/span.js';
import { locate } from '../yaml/yaml-locate.js';
import type { DocPath } from '../core/document-path.js';
import { isRecord } from '../core/is-record.js';
import { checkDocument } from '../check/check-document.js';
import { unmanagedKind } from '../check/unmanaged-kind.js';
import { lift } from '../ir/lift.js';

export interface YamlDocument {
  readonly kind: ResourceKind;
  readonly document: Record<string, unknown>;
  /** `file` for a one-document file, `file#2` for the second document of several. */
  readonly source: string;
  readonly comment?: string;
  /** Every comment in the document but the one above it, by the parsed map or list it belongs to. */
  readonly comments: Comments;
  /** Each map and list of the document: its path and where it starts in the YAML (a fallback is reported there). */
  readonly places: Places;
  /** What validate says of the document (the same checks), located in the YAML. */
  readonly problems: Diagnostic[];
}

/** The document path and YAML location of each parsed map and list. */
export type Places = WeakMap<object, { readonly path: DocPath; readonly location: SourceLocation }>;

/** YAML comments of a document, by the parsed map or list they belong to (lines joined with `\n`). */
export type Comments = WeakMap<object, string>;

/**
 * The same comments by where they stand in a parsed map or list: its own (above it, after it), and each at a scalar
 * field or item, by key or index. When import writes the map or list as an object or array literal, each is
 * printed at its field (comment-placement.ts); above a builder call, they are `Comments`' joined text.
 */
export interface CommentParts {
  readonly own: string[];
  readonly at: Map<string | number, string[]>;
}
/** Keyed by the parsed objects themselves (held weakly, as the origins of code are). */
export const commentParts = new WeakMap<object, CommentParts>();

/** A YAML node's own comments: the lines above it and the one at the end of its line. */
const commentsOf = (node: unknown): Array<string | null | undefined> => {
  const { commentBefore, comment } = (node ?? {}) as { commentBefore?: string | null; comment?: string | null };
  return [commentBefore, comment];
};

/**
 * Walks the YAML tree beside its parsed value, keeping every comment for the parsed map or list it belongs to
 * (a comment above a key holding a map or list, above a list item, or after it: that collection's; a comment on
 * or above a scalar field: its map's, with the field's name), and each collection's path and place. `skip` is
 * the comment already taken as the document's.
 */
function collectComments(
  node: unknown,
  value: unknown,
  out: Comments,
  places: Places,
  path: DocPath,
  where: (node: unknown) => SourceLocation,
  skip?: string,
): void {
  if (!value || typeof value !== 'object') return;
  places.set(value, { path, location: where(node) });
  const keep = (target: object, texts: Array<string | null | undefined>, field?: string | number) => {
    for (const text of texts) {
      if (text === skip) continue;
      const own = ownComment(text);
      if (!own) continue;
      let parts = commentParts.get(target);
      if (!parts) commentParts.set(target, (parts = { own: [], at: new Map() }));
      if (field === undefined) parts.own.push(own);
      else parts.at.set(field, [...(parts.at.get(field) ?? []), own]);
      const lines = own.split('\n');
      if (field !== undefined && typeof field === 'string')
        lines[0] = ` ${field}:${lines[0]!.startsWith(' ') ? '' : ' '}${lines[0]}`;
      const before = out.get(target);
      out.set(target, before ? `${before}\n${lines.join('\n')}` : lines.join('\n'));
    }
  };
  const object = value as object;
  const { commentBefore: above, comment: after } = (node ?? {}) as {
    commentBefore?: string | null;
    comment?: string | null;
  };
  keep(object, [after]);
  // The parser hangs a comment above a collection's first entry on the collection itself: it is the entry's.
  let first = isSeq(node) || isMap(node) ? above : undefined;
  if (!isSeq(node) && !isMap(node)) keep(object, [above]);
  if (isSeq(node))
    node.items.forEach((item, index) => {
      const child = (value as unknown[])[index];
      const before = index === 0 ? first : undefined;
      if (index === 0) first = undefined;
      if (child && typeof child === 'object') {
        keep(child, [before]);
        collectComments(item, child, out, places, [...path, index], where, skip);
      } else keep(object, [before, ...commentsOf(item)], index);
    });
  else if (isMap(node))
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      const before = first;
      first = undefined;
      if (key === undefined) continue;
      const child = (value as Record<string, unknown>)[key];
      if (child && typeof child === 'object') {
        keep(child, [before, ...commentsOf(pair.key)]);
        collectComments(pair.value, child, out, places, [...path, key], where, skip);
      } else keep(object, [before, ...commentsOf(pair.key), ...commentsOf(pair.value)], key);
    }
  if (first) keep(object, [first]);
}

/** Comments above a document, without pipewright's own generated-file header and editor modelines. */
function ownComment(text: string | null | undefined): string | undefined {
  // Most nodes have none: asked for each of them.
  if (!text) return undefined;
  const lines = text.split('\n').filter((line) => !/^\s*(Generated by pipewright|yaml-language-server:)/.test(line));
  return lines.some((line) => line.trim()) ? lines.join('\n') : undefined;
}

export interface ReadResult {
  readonly documents: YamlDocument[];
  readonly diagnostics: Diagnostic[];
}

/**
 * The platform documents of a YAML text, read by the shared reader (`readYaml`: the platform's scalar typing,
 * located syntax errors, depth limit), each with its comments. Import refuses what the platform would refuse,
 * and documents that are not a platform kind; warnings (aliases, several documents) are passed on.
 */
export function readDocuments(text: string, file: string): ReadResult {
  const read = readYaml(text, file);
  const documents: YamlDocument[] = [];
  const diagnostics: Diagnostic[] = [...read.diagnostics];
  const several = read.documents.length > 1;
  for (const { node: doc, value, index, refused } of read.documents) {
    if (refused || value === null || value === undefined) continue;
    const source = several ? `${file}#${index + 1}` : file;
    const kind = kindOfDocument(value);
    const root = kind ? kindRow(kind).rootKey : undefined;
    const body = root ? (value as Record<string, unknown>)[root] : undefined;
    if (kind && (body === null || typeof body !== 'object' || Array.isArray(body))) {
      diagnostics.push({
        code: 'not-a-platform-document',
        severity: 'error',
        message: `not a platform document: ${root} holds ${Array.isArray(body) ? 'a list' : body === null ? 'nothing' : `the ${typeof body} ${JSON.stringify(body)}`}, not a map of fields`,
        path: [root!],
        location: contentsLocation(file, doc, read.lines),
        hint: `write the ${kindRow(kind).label}'s fields under ${root}:`,
      });
      continue;
    }
    if (!kind) {
      const found =
        value !== null && typeof value === 'object' && !Array.isArray(value)
          ? Object.keys(value).join(', ') || 'nothing'
          : typeof value;
      const other = unmanagedRootKey(value);
      // A kind of the platform pipewright does not manage is left out, not fatal: an estate's folder holds them.
      diagnostics.push(
        other
          ? {
              ...unmanagedKind(other, value as Record<string, unknown>),
              location: contentsLocation(file, doc, read.lines),
            }
          : {
              code: 'not-a-platform-document',
              severity: 'error',
              message: `not a platform document: the root key must be ${rootKeyList()} (found ${found})`,
              path: [],
              location: contentsLocation(file, doc, read.lines),
              hint: `import reads documents with a root key ${rootKeyList()}`,
            },
      );
      continue;
    }
    const contents = doc.contents as {
      commentBefore?: string;
      items?: Array<{ key?: { commentBefore?: string } }>;
    } | null;
    const comment = ownComment(
      doc.commentBefore ?? contents?.commentBefore ?? contents?.items?.[0]?.key?.commentBefore,
    );
    const comments: Comments = new WeakMap();
    const places: Places = new WeakMap();
    const where = (node: unknown): SourceLocation => {
      const range = (node as { range?: [number, number] } | null)?.range;
      return { file, ...(range ? spanOf(read.lines, range[0], range[0]) : spanOf(read.lines, 0)) };
    };
    collectComments(
      doc.contents,
      value,
      comments,
      places,
      [],
      where,
      doc.commentBefore ?? contents?.commentBefore ?? contents?.items?.[0]?.key?.commentBefore,
    );
    // Comments after the document's last line (a commented-out alternative, say) are the document's too.
    const trailing = ownComment(doc.comment);
    if (trailing) {
      comments.set(value, [comments.get(value), trailing].filter(Boolean).join('\n'));
      const parts = commentParts.get(value);
      if (parts) parts.own.push(trailing);
      else commentParts.set(value, { own: [trailing], at: new Map() });
    }
    const problems = checkDocument(kind, lift(kind, value), value).map((diagnostic) => ({
      ...diagnostic,
      location: { file, ...locate(doc, diagnostic.path, read.lines, diagnostic.code === 'unknown-key') },
    }));
    documents.push({
      kind,
      document: value as Record<string, unknown>,
      source,
      comments,
      places,
      problems,
      ...(comment ? { comment } : {}),
    });
  }
  return { documents, diagnostics };
}

/** Where a document's contents are, start to end (what validate points at for a document of no known kind). */
function contentsLocation(file: string, document: Document, lines: LineCounter): SourceLocation {
  const range = document.contents?.range;
  return { file, ...(range ? spanOf(lines, range[0], range[1]) : spanOf(lines, 0)) };
}
