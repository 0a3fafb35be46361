import type { DocPath } from '../core/document-path.js';
import { isBlankOrComment, keyLine } from './key-line.js';

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

/** A line's list dash and key; undefined for a blank or comment line. */
function shapeOf(line: string): LineShape | undefined {
  if (isBlankOrComment(line)) return undefined;
  const { dash, keyStart, key } = keyLine(line);
  return { ...(dash !== undefined ? { dash } : {}), keyColumn: keyStart, ...(key !== undefined ? { key } : {}) };
}

/** What a flow collection's value starts with, or a blank: such a value is not completed. */
const NOT_A_PLAIN_PREFIX = /[\s{}[\],]/;
/** What a key being written is made of. */
const KEY_CHARACTERS = /^[\w.$-]*$/;

/**
 * The cursor's context: the path of its map, found by going up the lines to each parent key (a line less indented
 * than the current column holding `key:`) and counting the list items before each `- ` that starts an item. Good
 * for block YAML, which is what people write; flow collections are not completed.
 */
export function cursorContext(lines: readonly string[], line: number, character: number): CursorContext | undefined {
  const text = (lines[line] ?? '').slice(0, character);
  const shape = keyLine(text, 'any');
  // A flow collection (`{`, `[`) is not completed: its value does not start with one.
  const value =
    shape.key !== undefined && !NOT_A_PLAIN_PREFIX.test(shape.rest!)
      ? { key: shape.key, prefix: shape.rest! }
      : undefined;
  const key = value ? undefined : text.slice(shape.keyStart);
  if (!value && !KEY_CHARACTERS.test(key!)) return undefined;
  const column = shape.keyStart;
  const path: Array<string | number> = [];
  let want = column;
  /** After a list item, its list's key may stand at the item's own column. */
  let inItem = false;
  // The cursor's own line starts a list item: its index is the number of items before it.
  if (shape.dash !== undefined) {
    path.push(itemIndex(lines, line, shape.dash));
    want = shape.dash;
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
    return {
      map: path,
      at: { kind: 'value', key: value.key },
      prefix: value.prefix,
      start: character - value.prefix.length,
    };
  return { map: path, at: { kind: 'key' }, prefix: key!, start: character - key!.length };
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
