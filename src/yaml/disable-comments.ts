import YAML, { isScalar } from 'yaml';

/** The comment that accepts diagnostics on the next line of hand-written YAML, as ESLint's does in code. */
export const DISABLE_NEXT_LINE = 'pipewright-disable-next-line';

/** A `# pipewright-disable-next-line code[, code] [-- reason]` comment, as written. */
export interface DisableComment {
  /** The comment's own line and column (1-based). */
  readonly line: number;
  readonly column: number;
  /** The line it covers: the next one with content (a blank line or another comment between them is skipped). */
  readonly covers: number;
  /** The codes as written, valid or not (the caller checks them against the table). */
  readonly codes: readonly string[];
  /** The text after ` -- `, trimmed; undefined when there is none. */
  readonly reason?: string;
}

const DIRECTIVE = new RegExp(`^([ \\t]*)#[ \\t]*${DISABLE_NEXT_LINE}(?![\\w-])(.*)$`);
const CONTENT = /^[ \t]*(?:[^#\s]|$)/;

/**
 * The disable comments of a YAML text: whole-line comments only, and never a line inside a scalar (a shell
 * script's `# pipewright-disable-next-line` in a `|` block is text of the script, not a comment). Most files have
 * none, and the scan of lines settles them; only a file that has one is parsed again, to find its scalars.
 */
export function disableComments(text: string): DisableComment[] {
  const lines = text.split(/\r?\n/);
  const found: Array<Omit<DisableComment, 'covers'> & { index: number }> = [];
  lines.forEach((line, index) => {
    const match = DIRECTIVE.exec(line);
    if (!match) return;
    const [codes, reason] = splitReason(match[2]!);
    found.push({
      index,
      line: index + 1,
      column: match[1]!.length + 1,
      codes: codes.split(/[\s,]+/).filter(Boolean),
      ...(reason ? { reason } : {}),
    });
  });
  if (found.length === 0) return [];
  const inScalar = scalarLines(text);
  return found
    .filter(({ index }) => !inScalar.has(index))
    .map(({ index, ...comment }) => {
      let next = index + 1;
      while (next < lines.length && (!CONTENT.test(lines[next]!) || lines[next]!.trim() === '')) next++;
      return { ...comment, covers: next + 1 };
    });
}

/** `code, code -- why` -> the codes' text and the reason (empty when not given). */
function splitReason(rest: string): [string, string] {
  const at = rest.indexOf('--');
  return at < 0 ? [rest, ''] : [rest.slice(0, at), rest.slice(at + 2).trim()];
}

/** The 0-based lines a scalar spans beyond its first (a block scalar's body, a quoted scalar over several lines). */
function scalarLines(text: string): Set<number> {
  const lines = new YAML.LineCounter();
  const inside = new Set<number>();
  for (const document of YAML.parseAllDocuments(text, { schema: 'failsafe', uniqueKeys: false, lineCounter: lines })) {
    if (!('contents' in document)) continue;
    YAML.visit(document, {
      Scalar(_, node) {
        if (!isScalar(node) || !node.range) return;
        const first = lines.linePos(node.range[0]).line;
        // The end offset of a block scalar is the start of the line after it: its last character is before it.
        const last = lines.linePos(Math.max(node.range[0], node.range[1] - 1)).line;
        for (let line = first; line < last; line++) inside.add(line);
      },
    });
  }
  return inside;
}
