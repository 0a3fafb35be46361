import type { DocPath } from '../core/document-path.js';

/** Where the cursor is in a block YAML document, read from the lines (an unfinished line does not parse). */
export interface CursorContext {
  /** The path of the map the cursor's line belongs to. */
  readonly map: DocPath;
  /** Writing a key (`  tim|`), or the value of `key` (`  type: Sh|`). */
  readonly at: { readonly kind: 'key' } | { readonly kind: 'value'; readonly key: string };
  /** What is written of the key or value before the cursor, and where it starts (0-based column). */
  readonly prefix: string;
  readonly start: number;
}

interface LineShape {
  /** Column of the `- ` of a list item, when the line starts one. */
  readonly dash?: number;
  /** Column of the line's key, and the key, when the line holds `key:`. */
  readonly keyColumn: number;
  readonly key?: string;
}

const KEY_LINE = /^([ \t]*)(?:(-)[ \t]+)?(?:(["']?)([^\s#'":][^#:]*?)\3[ \t]*:(?:[ \t]|$))?/;

/** A line's list dash and key; undefined for a blank or comment line. */
function shapeOf(line: string): LineShape | undefined {
  if (/^[ \t]*(#|$)/.test(line)) return undefined;
  const match = KEY_LINE.exec(line)!;
  const indent = match[1]!.length;
  const dash = match[2] ? indent : undefined;
  const keyColumn = match[2] ? line.indexOf(match[4] ?? line.slice(indent + 1).trimStart(), indent + 1) : indent;
  return { ...(dash !== undefined ? { dash } : {}), keyColumn, ...(match[4] !== undefined ? { key: match[4] } : {}) };
}

/**
 * The cursor's context: the path of its map, found by going up the lines to each parent key (a line less indented
 * than the current column holding `key:`) and counting the list items before each `- ` that starts an item. Good
 * for block YAML, which is what people write; flow collections are not completed.
 */
export function cursorContext(lines: readonly string[], line: number, character: number): CursorContext | undefined {
  const text = (lines[line] ?? '').slice(0, character);
  // A flow collection (`{`, `[`) is not completed: its value does not start with one.
  const value = /^([ \t]*(?:-[ \t]+)?)(["']?)([^\s#'":][^#:]*?)\2[ \t]*:[ \t]*([^\s{}[\],]*)$/.exec(text);
  const key = /^([ \t]*(?:-[ \t]+)?)([\w.$-]*)$/.exec(text);
  if (!value && !key) return undefined;
  const column = (value ?? key)![1]!.length;
  const path: Array<string | number> = [];
  let want = column;
  /** After a list item, its list's key may stand at the item's own column. */
  let inItem = false;
  // The cursor's own line starts a list item: its index is the number of items before it.
  const own = /^([ \t]*)-[ \t]/.exec(text);
  if (own) {
    path.push(itemIndex(lines, line, own[1]!.length));
    want = own[1]!.length;
    inItem = true;
  }
  for (let i = line - 1; i >= 0 && (want > 0 || inItem); i--) {
    const shape = shapeOf(lines[i]!);
    if (!shape) continue;
    if (
      shape.key !== undefined &&
      (shape.keyColumn < want || (inItem && shape.dash === undefined && shape.keyColumn === want))
    ) {
      path.push(shape.key);
      want = shape.keyColumn;
      inItem = false;
      if (shape.dash !== undefined && shape.dash < want) {
        path.push(itemIndex(lines, i, shape.dash));
        want = shape.dash;
        inItem = true;
      }
    } else if (shape.dash !== undefined && shape.dash < want) {
      path.push(itemIndex(lines, i, shape.dash));
      want = shape.dash;
      inItem = true;
    }
  }
  path.reverse();
  if (value)
    return { map: path, at: { kind: 'value', key: value[3]! }, prefix: value[4]!, start: character - value[4]!.length };
  return { map: path, at: { kind: 'key' }, prefix: key![2]!, start: character - key![2]!.length };
}

/** The index of the list item that starts on `line` at column `dash`: the items of the same list above it. */
function itemIndex(lines: readonly string[], line: number, dash: number): number {
  let index = 0;
  for (let i = line - 1; i >= 0; i--) {
    const shape = shapeOf(lines[i]!);
    if (!shape) continue;
    if (shape.dash === dash) index++;
    // The list's own key may stand at the items' column (`steps:` then `- step:` under it, not indented).
    else if (shape.dash === undefined ? shape.keyColumn <= dash : shape.dash < dash) break;
  }
  return index;
}
