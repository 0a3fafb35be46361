import { childrenOf, originOf, sourceOf, type Code, type Origin } from './code.js';
import { blockComment, lineComments, propertyKey, stringCode, stringLiteral, templateText } from './ts-text.js';

/*
 * Source text for generated code, printed directly (prettier formats it afterwards): the tokens, the line breaks
 * prettier keeps (after the `{` of an object it should keep broken), and comments on lines of their own, which
 * prettier keeps where they are. No indentation: prettier indents.
 */

const stringText = stringCode;

function literalText(value: string | number | boolean | null): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
    return value < 0 || Object.is(value, -0) ? `-${String(Math.abs(value))}` : String(value);
  }
  return stringText(value);
}

/**
 * Objects whose one-line form is at most this long are printed on one line (prettier keeps an object broken
 * when its source breaks after `{`, and joins one that does not when it fits the print width): `when`, failure
 * strategies, a variable, a short spec read as a YAML flow map does. Longer ones keep one field per line.
 */
const ONE_LINE_OBJECT = 80;

/**
 * About how wide the code is on one line, or Infinity when it cannot be one line (text over lines, a call that
 * may carry comments above it). Stops counting past `limit`.
 */
function flatWidth(code: Code, limit: number): number {
  switch (code.kind) {
    case 'literal':
      return typeof code.value === 'string'
        ? code.value.includes('\n')
          ? Infinity
          : code.value.length + 2
        : String(code.value).length;
    case 'member':
      return code.path.length;
    case 'ref':
      return (code.local ?? code.name).length;
    case 'const':
      return code.name.length + (code.chain?.length ? limit : 0);
    case 'param':
      return code.name.length;
    case 'function':
      return Infinity;
    case 'apply':
      return code.args.reduce<number>(
        (width, arg) => (width > limit ? width : width + flatWidth(arg, limit) + 2),
        code.name.length + 2,
      );
    case 'template':
      return code.parts.some((part) => typeof part === 'string' && part.includes('\n'))
        ? Infinity
        : code.parts.reduce<number>(
            (width, part) => width + (typeof part === 'string' ? part.length : flatWidth(part, limit) + 3),
            6,
          );
    case 'call':
      // A call for a YAML node (a step, a stage) may carry that node's comments: it keeps its own lines.
      if (originOf(code) || code.chain?.length) return Infinity;
      return code.args.reduce<number>(
        (width, arg) => (width > limit ? width : width + flatWidth(arg, limit) + 2),
        code.callee.length + 2,
      );
    case 'array':
      return code.items.reduce<number>(
        (width, item) => (width > limit ? width : width + flatWidth(item, limit) + 2),
        2,
      );
    case 'object':
      return code.entries.reduce<number>(
        (width, [key, value]) => (width > limit ? width : width + key.length + 2 + flatWidth(value, limit) + 2),
        4,
      );
  }
}

/** Comment text that marks the code chosen for a YAML node; its number indexes the marks list. */
export const MARK_PREFIX = '@pipewright-origin ';

/**
 * The YAML comments a call carries as `//` lines above it (those of the YAML nodes it was chosen for), and `at`:
 * those at a field or item of a literal written from a parsed map or list (`undefined` as the key: its own).
 */
export type CommentsOf = ((code: Code) => string | undefined) & {
  readonly at?: (source: object, key: string | number | undefined) => string | undefined;
};

/** Text being printed: where a comment line needs a line break before it. */
class Out {
  text = '';
  /** A line break unless the text is at the start of a line. */
  line(): void {
    if (this.text !== '' && !this.text.endsWith('\n')) this.text += '\n';
  }
  /** Comment text as `//` lines (`lineComments`), each on a line of its own. */
  comments(text: string): void {
    for (const line of lineComments(text)) {
      this.line();
      this.text += `${line}\n`;
    }
  }
}

/**
 * Prints a piece of code. With `marks`, each call chosen for a YAML node gets a `/*@pipewright-origin N*\/`
 * comment (N indexes `marks`), for the type check only.
 */
function printCode(out: Out, code: Code, marks: Origin[] | undefined, comments: CommentsOf | undefined): void {
  const inner = (c: Code) => printCode(out, c, marks, comments);
  const list = (items: readonly Code[]) =>
    items.forEach((item, index) => {
      if (index > 0) out.text += ', ';
      inner(item);
    });
  const chain = (calls: Extract<Code, { kind: 'call' }>['chain']) => {
    for (const { method, args } of calls ?? []) {
      out.text += `.${method}(`;
      list(args);
      out.text += ')';
    }
  };
  /** The mark of the code's origin, before the expression it marks. */
  const mark = (marked: Code) => {
    const origin = marks && originOf(marked);
    if (origin) out.text += `${blockComment(`${MARK_PREFIX}${marks.push(origin) - 1}`)} `;
  };
  /**
   * The comments at each field or item of a literal written from a parsed map or list (a scalar's, or the comments
   * above a nested map or list), or undefined when it has none. The literal's own, if no one placed them yet, go
   * before it.
   */
  const literalNotes = (literal: Code, keys: ReadonlyArray<string | number>, values: readonly Code[]) => {
    const at = comments?.at;
    if (!at) return undefined;
    const source = sourceOf(literal);
    const own = source && at(source, undefined);
    if (own) out.comments(own);
    const notes = keys.map((key, index) => {
      const nested = sourceOf(values[index]!);
      return [nested && at(nested, undefined), source && at(source, key)].filter(Boolean).join('\n');
    });
    return notes.some(Boolean) ? notes : undefined;
  };
  switch (code.kind) {
    case 'literal':
      out.text += literalText(code.value);
      return;
    case 'member':
      out.text += code.path;
      return;
    case 'ref':
      out.text += code.local ?? code.name;
      return;
    case 'const':
      mark(code.value);
      out.text += code.name;
      chain(code.chain);
      return;
    case 'param':
      out.text += code.name;
      return;
    case 'function':
      out.text += `(${code.params.map((param) => `${param}: string`).join(', ')}) =>\n`;
      inner(code.body);
      return;
    case 'apply':
      out.text += `${code.name}(`;
      list(code.args);
      out.text += ')';
      return;
    case 'template':
      out.text += 'expr`';
      code.parts.forEach((part, index) => {
        if (index % 2 === 0) out.text += templateText(part as string);
        else {
          out.text += '${';
          inner(part as Code);
          out.text += '}';
        }
      });
      out.text += '`';
      return;
    case 'array': {
      const notes = literalNotes(
        code,
        code.items.map((_, index) => index),
        code.items,
      );
      if (notes || code.items.length > 1) {
        out.text += '[\n';
        code.items.forEach((item, index) => {
          if (index > 0) out.text += ',\n';
          if (notes?.[index]) out.comments(notes[index]);
          inner(item);
        });
        out.text += '\n]';
      } else {
        out.text += '[';
        list(code.items);
        out.text += ']';
      }
      return;
    }
    case 'object': {
      const notes = literalNotes(
        code,
        code.entries.map(([key]) => key),
        code.entries.map(([, value]) => value),
      );
      const broken =
        notes !== undefined || (code.entries.length > 1 && flatWidth(code, ONE_LINE_OBJECT) > ONE_LINE_OBJECT);
      if (!code.entries.length) {
        out.text += '{}';
        return;
      }
      out.text += broken ? '{\n' : '{ ';
      code.entries.forEach(([key, value], index) => {
        if (index > 0) out.text += broken ? ',\n' : ', ';
        if (notes?.[index]) out.comments(notes[index]);
        // A parameter of its key's name is written once (`{ identifier }`), as a person writes it.
        if (value.kind === 'param' && value.name === key) out.text += key;
        else {
          out.text += `${propertyKey(key)}: `;
          inner(value);
        }
      });
      out.text += broken ? '\n}' : ' }';
      return;
    }
    case 'call': {
      const comment = comments?.(code);
      if (comment) out.comments(comment);
      mark(code);
      out.text += `${code.callee}(`;
      list(code.args);
      out.text += ')';
      chain(code.chain);
      return;
    }
  }
}

/**
 * A piece of code as source text, marked and with comments as `printCode` prints them. The comments are asked
 * for children first (a comment is placed once, at the first call that asks for it).
 */
export function codeText(code: Code, marks?: Origin[], comments?: CommentsOf): string {
  const found = new Map<Code, string | undefined>();
  const gather = (node: Code): void => {
    // A const prints as its name: its value is printed (and its comments placed) where it is declared.
    (node.kind === 'const'
      ? (node.chain ?? []).flatMap((call) => call.args)
      : node.kind === 'apply'
        ? node.args
        : childrenOf(node)
    ).forEach(gather);
    if (node.kind === 'call') found.set(node, comments?.(node));
  };
  if (comments) gather(code);
  const out = new Out();
  printCode(out, code, marks, comments && Object.assign((node: Code) => found.get(node), { at: comments.at }));
  return out.text;
}

/** One statement: its text, and the comments above it (each printed as `//` lines by `lineComments`). */
export interface Statement {
  readonly text: string;
  readonly above?: readonly string[];
}

/** `import { a, b as c } from 'module';` */
export const importStatement = (
  names: ReadonlyArray<{ name: string; local?: string }>,
  from: string,
  above?: readonly string[],
): Statement => ({
  text: `import ${names.length ? `{ ${names.map(({ name, local }) => (local === undefined || local === name ? name : `${name} as ${local}`)).join(', ')} }` : '{}'} from ${stringLiteral(from)};`,
  ...(above ? { above } : {}),
});

/** `const name = value;`, exported or not. */
export const constStatement = (
  name: string,
  value: string,
  exported: boolean,
  above?: readonly string[],
): Statement => ({
  text: `${exported ? 'export ' : ''}const ${name} = ${value};`,
  ...(above ? { above } : {}),
});

/**
 * Prints statements as source text, a blank line between them (formatted afterwards by prettier); the `together`
 * first ones (the imports) without one.
 */
export function printStatements(statements: readonly Statement[], together = 1): string {
  const texts = statements.map(({ text, above = [] }) => [...above.flatMap(lineComments), text].join('\n'));
  return [texts.slice(0, together).join('\n'), ...texts.slice(together)].join('\n\n') + '\n';
}
