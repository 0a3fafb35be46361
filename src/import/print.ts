import { ts } from 'ts-morph';
import { originOf, type Code, type Origin } from './code.js';

const f = ts.factory;

const IDENTIFIER_NAME = /^[A-Za-z_$][\w$]*$/;

const path = (dotted: string): ts.Expression =>
  dotted
    .split('.')
    .slice(1)
    .reduce<ts.Expression>(
      (target, name) => f.createPropertyAccessExpression(target, name),
      f.createIdentifier(dotted.split('.')[0]!),
    );

/** Backquote, `${` and backslash escaped, for a template literal's raw text. */
const templateRaw = (text: string) => text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');

/** Multi-line text reads best as a template literal; CR and other control characters need escapes instead. */
const asTemplate = (text: string) => text.includes('\n') && !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text);

function stringNode(text: string): ts.Expression {
  return asTemplate(text)
    ? f.createNoSubstitutionTemplateLiteral(text, templateRaw(text))
    : f.createStringLiteral(text, true);
}

function literalNode(value: string | number | boolean | null): ts.Expression {
  if (value === null) return f.createNull();
  if (typeof value === 'boolean') return value ? f.createTrue() : f.createFalse();
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      return f.createIdentifier(Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity');
    const literal = f.createNumericLiteral(Math.abs(value));
    return value < 0 || Object.is(value, -0)
      ? f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, literal)
      : literal;
  }
  return stringNode(value);
}

function templateNode(parts: ReadonlyArray<string | Code>, marks: Origin[] | undefined, comments?: CommentsOf): ts.Expression {
  const strings = parts.filter((_, i) => i % 2 === 0) as string[];
  const values = parts.filter((_, i) => i % 2 === 1) as Code[];
  const head = f.createTemplateHead(strings[0]!, templateRaw(strings[0]!));
  const spans = values.map((value, i) => {
    const text = strings[i + 1]!;
    const last = i === values.length - 1;
    const literal = last
      ? f.createTemplateTail(text, templateRaw(text))
      : f.createTemplateMiddle(text, templateRaw(text));
    return f.createTemplateSpan(toExpression(value, marks, comments), literal);
  });
  return f.createTaggedTemplateExpression(
    f.createIdentifier('expr'),
    undefined,
    f.createTemplateExpression(head, spans),
  );
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
      return typeof code.value === 'string' ? (code.value.includes('\n') ? Infinity : code.value.length + 2) : String(code.value).length;
    case 'member':
      return code.path.length;
    case 'ref':
      return (code.local ?? code.name).length;
    case 'const':
      return code.name.length + (code.chain?.length ? limit : 0);
    case 'template':
      return code.parts.some((part) => typeof part === 'string' && part.includes('\n'))
        ? Infinity
        : code.parts.reduce<number>((width, part) => width + (typeof part === 'string' ? part.length : flatWidth(part, limit) + 3), 6);
    case 'call':
      // A call for a YAML node (a step, a stage) may carry that node's comments: it keeps its own lines.
      if (originOf(code) || code.chain?.length) return Infinity;
      return code.args.reduce<number>((width, arg) => (width > limit ? width : width + flatWidth(arg, limit) + 2), code.callee.length + 2);
    case 'array':
      return code.items.reduce<number>((width, item) => (width > limit ? width : width + flatWidth(item, limit) + 2), 2);
    case 'object':
      return code.entries.reduce<number>((width, [key, value]) => (width > limit ? width : width + key.length + 2 + flatWidth(value, limit) + 2), 4);
  }
}

/** Comment text that marks the code chosen for a YAML node; its number indexes the marks list. */
export const MARK_PREFIX = '@pipewright-origin ';

/** Marks an expression with its code's origin (when `marks` is given): a type error inside it names the node. */
function marked(expression: ts.Expression, code: Code, marks: Origin[] | undefined): ts.Expression {
  const origin = marks && originOf(code);
  if (origin) ts.addSyntheticLeadingComment(expression, ts.SyntaxKind.MultiLineCommentTrivia, `${MARK_PREFIX}${marks.push(origin) - 1}`);
  return expression;
}

/** The YAML comments a call carries as `//` lines above it (those of the YAML nodes it was chosen for). */
export type CommentsOf = (code: Code) => string | undefined;

/**
 * The TypeScript expression for a piece of code. With `marks`, each call chosen for a YAML node gets a
 * `/*@pipewright-origin N*\/` comment (N indexes `marks`), for the type check only.
 */
export function toExpression(code: Code, marks?: Origin[], comments?: CommentsOf): ts.Expression {
  const inner = (c: Code) => toExpression(c, marks, comments);
  switch (code.kind) {
    case 'literal':
      return literalNode(code.value);
    case 'member':
      return path(code.path);
    case 'ref':
      return f.createIdentifier(code.local ?? code.name);
    case 'const': {
      let expression: ts.Expression = f.createIdentifier(code.name);
      for (const { method, args } of code.chain ?? [])
        expression = f.createCallExpression(f.createPropertyAccessExpression(expression, method), undefined, args.map(inner));
      return marked(expression, code.value, marks);
    }
    case 'template':
      return templateNode(code.parts, marks, comments);
    case 'array':
      return f.createArrayLiteralExpression(code.items.map(inner), code.items.length > 1);
    case 'object':
      return f.createObjectLiteralExpression(
        code.entries.map(([key, value]) =>
          f.createPropertyAssignment(
            IDENTIFIER_NAME.test(key) ? f.createIdentifier(key) : f.createStringLiteral(key, true),
            inner(value),
          ),
        ),
        code.entries.length > 1 && flatWidth(code, ONE_LINE_OBJECT) > ONE_LINE_OBJECT,
      );
    case 'call': {
      let expression: ts.Expression = f.createCallExpression(path(code.callee), undefined, code.args.map(inner));
      for (const { method, args } of code.chain ?? [])
        expression = f.createCallExpression(
          f.createPropertyAccessExpression(expression, method),
          undefined,
          args.map(inner),
        );
      const comment = comments?.(code);
      if (comment)
        for (const line of comment.split('\n'))
          ts.addSyntheticLeadingComment(expression, ts.SyntaxKind.SingleLineCommentTrivia, line, true);
      return marked(expression, code, marks);
    }
  }
}

const printer = ts.createPrinter({
  newLine: ts.NewLineKind.LineFeed,
  neverAsciiEscape: true,
} as ts.PrinterOptions);

/**
 * Prints statements as source text, a blank line between them (formatted afterwards by prettier); the `together`
 * first ones (the imports) without one.
 */
export function printStatements(statements: readonly ts.Statement[], together = 1): string {
  const file = f.createSourceFile([], f.createToken(ts.SyntaxKind.EndOfFileToken), ts.NodeFlags.None);
  const texts = statements.map((statement) => printer.printNode(ts.EmitHint.Unspecified, statement, file));
  return [texts.slice(0, together).join('\n'), ...texts.slice(together)].join('\n\n') + '\n';
}
