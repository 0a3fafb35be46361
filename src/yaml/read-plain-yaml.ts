import type { SourceSpan } from '../core/source-location.js';
import { MalformedNumber, platformPlain } from './platform-scalars.js';

/**
 * A fast reader for the plain block YAML that compile writes and most teams write: block maps and lists, plain
 * and one-line quoted scalars, `|` literal blocks, comments, `[]` and `{}`. It gives the same tree as `readYaml`
 * (scalars typed by the same `platformPlain`), or undefined as soon as it meets anything else (anchors, aliases,
 * tags, flow collections, folded or indented blocks, escapes, multi-line plain scalars, duplicate keys, a second
 * document, tabs, CR, a BOM), so `readYaml` reads that file and says what it has to. `validate` reads each file
 * with it first and falls back to `readYaml` for a file that it does not take or that has anything to report,
 * so every located diagnostic still comes from `readYaml`. Parsing YAML was two thirds of validate's time.
 */

class Unsupported extends Error {}
const unsupported = (): never => {
  throw new Unsupported();
};

/**
 * Where a value of the document's top two levels is (what duplicate-resource points at), 1-based; its end as
 * `readYaml` gives it for a one-line scalar, none for a block.
 */
interface PlainPositions {
  readonly get: (path: readonly string[]) => SourceSpan | undefined;
}

export interface PlainRead {
  readonly value: unknown;
  readonly positions: PlainPositions;
}

interface Line {
  readonly indent: number;
  /** The line without its indentation. */
  readonly text: string;
  /** 0-based line number. */
  readonly number: number;
}

/** Text that cannot start a plain scalar or key here: indicators this reader leaves to `readYaml`. */
const FIRST_UNSUPPORTED = /^[&*!%@`|>\[\]{}?,#"']/;

export function readPlainYaml(text: string): PlainRead | undefined {
  if (text.length > 1_000_000 || /[\t\r\uFEFF]/.test(text)) return undefined;
  try {
    return new PlainReader(text).read();
  } catch (error) {
    // RangeError: nesting deeper than the stack; readYaml says so with its limit.
    if (error instanceof Unsupported || error instanceof MalformedNumber || error instanceof RangeError)
      return undefined;
    throw error;
  }
}

class PlainReader {
  private readonly raw: string[];
  private readonly endsWithNewline: boolean;
  private next = 0;
  private readonly places = new Map<string, SourceSpan>();

  constructor(text: string) {
    this.raw = text.split('\n');
    this.endsWithNewline = text.endsWith('\n');
    if (this.endsWithNewline) this.raw.pop();
  }

  read(): PlainRead {
    let first = this.peek();
    if (first && first.indent === 0 && first.text === '---') {
      this.next = first.number + 1;
      first = this.peek();
    }
    if (!first || first.indent !== 0 || first.text.startsWith('- ') || first.text === '-') unsupported();
    const value = this.map(0, []);
    if (this.peek()) unsupported();
    const places = this.places;
    return { value, positions: { get: (path) => places.get(path.join('\u0000')) } };
  }

  /** The next line with content (not blank, not a comment), without consuming it. */
  private peek(): Line | undefined {
    for (let number = this.next; number < this.raw.length; number++) {
      const raw = this.raw[number]!;
      const text = raw.trimStart();
      if (text === '' || text.startsWith('#')) continue;
      if (text === '...' || (text.startsWith('---') && (text.length === 3 || text[3] === ' '))) {
        if (number === 0 && text === '---') return { indent: 0, text, number };
        unsupported();
      }
      return { indent: raw.length - text.length, text: text.trimEnd(), number };
    }
    return undefined;
  }

  /** A block map whose keys sit at `indent`; `first` is text already taken from its first line (after `- `). */
  private map(indent: number, path: string[], first?: { text: string; number: number }): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let entry = first;
    for (;;) {
      if (!entry) {
        const line = this.peek();
        if (!line || line.indent < indent) return out;
        if (line.indent > indent || line.text.startsWith('- ') || line.text === '-') unsupported();
        this.next = line.number + 1;
        entry = { text: line.text, number: line.number };
      }
      const { key, rest } = splitKey(entry.text);
      if (Object.hasOwn(out, key) || key === '<<' || key === '__proto__') unsupported();
      const column = indent + key.length + 1 + (rest.length - rest.trimStart().length);
      out[key] = this.value(rest.trim() === '' ? '' : rest.trimStart(), indent, [...path, key], entry.number, column);
      entry = undefined;
    }
  }

  /** A block list whose `- ` sit at `indent`. */
  private list(indent: number, path: string[]): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      const line = this.peek();
      if (!line || line.indent < indent) return out;
      if (line.indent > indent || !line.text.startsWith('- ')) {
        if (line.indent === indent && !line.text.startsWith('- ')) return out;
        unsupported();
      }
      this.next = line.number + 1;
      const item = line.text.slice(2).trimStart();
      const itemIndent = indent + (line.text.length - item.length);
      if (item === '' || item.startsWith('- ') || item === '-') unsupported();
      if (startsQuoted(item)) {
        const scalar = quoted(item);
        if (scalar.rest.startsWith(':')) unsupported();
        out.push(scalar.value);
      } else if (hasKey(item)) out.push(this.map(itemIndent, [], { text: item, number: line.number }));
      else out.push(this.value(item, indent, [...path, String(out.length)], line.number, itemIndent));
    }
  }

  /** The value after `key:` (or `- `), `text` trimmed at its start; `indent` is the owner's indentation. */
  private value(text: string, indent: number, path: string[], number: number, column: number): unknown {
    const placed = path.length <= 2 ? path.join('\u0000') : undefined;
    if (placed !== undefined) this.places.set(placed, { line: number + 1, column: column + 1 });
    /** A one-line scalar of `length` characters: its end too. */
    const ends = (length: number) => {
      if (placed !== undefined)
        this.places.set(placed, {
          line: number + 1,
          column: column + 1,
          endLine: number + 1,
          endColumn: column + 1 + length,
        });
    };
    if (text === '' || text.startsWith('#')) {
      const line = this.peek();
      if (line && line.indent > indent)
        return line.text.startsWith('- ') ? this.list(line.indent, path) : this.map(line.indent, path);
      if (line && line.indent === indent && line.text.startsWith('- ')) return this.list(indent, path);
      return null;
    }
    if (text === '|' || text === '|-' || text === '|+' || /^\|[-+]? +#/.test(text))
      return this.literal(text[1] === '-' ? 'strip' : text[1] === '+' ? 'keep' : 'clip', indent);
    if (startsQuoted(text)) {
      const { value, rest, length } = quoted(text);
      if (rest !== '' && !rest.startsWith('#')) unsupported();
      this.noContinuation(indent);
      ends(length);
      return value;
    }
    if (text === '[]' || text === '{}' || /^(\[\]|\{\}) +#/.test(text)) {
      this.noContinuation(indent);
      ends(2);
      return text.startsWith('[') ? [] : {};
    }
    if (FIRST_UNSUPPORTED.test(text) || text.startsWith('- ') || text === '-' || text.startsWith(': ')) unsupported();
    const comment = text.indexOf(' #');
    const plain = (comment < 0 ? text : text.slice(0, comment)).trimEnd();
    // `a: b` inside a plain value is an error for YAML: left to readYaml.
    if (plain.includes(': ') || plain.endsWith(':')) unsupported();
    this.noContinuation(indent);
    ends(plain.length);
    return platformPlain(plain);
  }

  /** A plain or quoted scalar continued on a more indented line is multi-line: not this reader's. */
  private noContinuation(indent: number): void {
    const line = this.peek();
    if (line && line.indent > indent) unsupported();
  }

  /** A `|` block: lines more indented than its owner, with the chomping YAML gives them. */
  private literal(chomp: 'clip' | 'strip' | 'keep', indent: number): string {
    const lines: string[] = [];
    let contentIndent = -1;
    let number = this.next;
    for (; number < this.raw.length; number++) {
      const raw = this.raw[number]!;
      const spaces = raw.length - raw.trimStart().length;
      if (raw.trim() === '') {
        // Blank lines with spaces before or beyond the content's indentation have rules of their own: readYaml's.
        if ((contentIndent < 0 && raw.length > 0) || (contentIndent >= 0 && raw.length > contentIndent)) unsupported();
        lines.push(contentIndent < 0 ? '' : raw.slice(contentIndent));
        continue;
      }
      if (contentIndent < 0) {
        if (spaces <= indent) break;
        contentIndent = spaces;
      }
      if (spaces < contentIndent) break;
      lines.push(raw.slice(contentIndent));
    }
    this.next = number;
    // Blank lines at the end belong to the chomping, not the content; they are not consumed beyond the block.
    let end = lines.length;
    while (end > 0 && lines[end - 1] === '') end--;
    if (end === 0) return chomp === 'keep' ? unsupported() : '';
    if (lines.slice(end).some((line) => line !== '')) unsupported();
    const body = lines.slice(0, end).join('\n');
    if (chomp === 'strip') return body;
    // `yaml` (so readYaml) gives a clipped block its line break even at the end of a file without one.
    if (chomp === 'clip') return `${body}\n`;
    if (number >= this.raw.length && !this.endsWithNewline) unsupported();
    return body + '\n'.repeat(lines.length - end + 1);
  }
}

const startsQuoted = (text: string) => text.startsWith("'") || text.startsWith('"');

/** `key: rest` or `key:` on one line; a key this reader does not take ends the fast path. */
function splitKey(text: string): { key: string; rest: string } {
  const comment = text.indexOf(' #');
  const head = comment < 0 ? text : text.slice(0, comment);
  const match = /:( |$)/.exec(head);
  if (!match) unsupported();
  const key = text.slice(0, match!.index);
  if (key === '' || FIRST_UNSUPPORTED.test(key) || key.startsWith('- ') || key.endsWith(' ') || key.includes(': '))
    unsupported();
  return { key, rest: text.slice(match!.index + 1) };
}

const hasKey = (text: string) => {
  const comment = text.indexOf(' #');
  return /:( |$)/.test(comment < 0 ? text : text.slice(0, comment));
};

/** What follows a closing quote: nothing, or spaces and then a comment or `:`; anything glued to it is readYaml's. */
const after = (text: string, from: number): string => {
  const rest = text.slice(from);
  if (rest !== '' && !rest.startsWith(' ') && !rest.startsWith(':')) unsupported();
  return rest.trim();
};

/** A one-line quoted scalar at the start of `text`: its value, its length with the quotes, and what follows it (trimmed). */
function quoted(text: string): { value: string; length: number; rest: string } {
  const quote = text[0]!;
  if (quote === "'") {
    let value = '';
    for (let i = 1; i < text.length; i++) {
      if (text[i] !== "'") value += text[i];
      else if (text[i + 1] === "'") {
        value += "'";
        i++;
      } else return { value, length: i + 1, rest: after(text, i + 1) };
    }
    return unsupported();
  }
  const end = text.indexOf('"', 1);
  const value = end < 0 ? unsupported() : text.slice(1, end);
  // Escapes are readYaml's.
  if (value.includes('\\')) unsupported();
  return { value, length: end + 1, rest: after(text, end + 1) };
}
