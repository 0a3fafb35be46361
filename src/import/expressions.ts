import { expr, isExpr } from '../dsl/expr.js';
import { call, lit, member, type Code, type MethodCall } from './code.js';
import { evaluate } from './evaluate.js';
import { INPUT_METHODS } from '../check/runtime-input.js';

/** `<+pipeline.sequenceId>` -> `expr.pipeline.sequenceId`, read off the `expr` helper itself. */
const KNOWN: ReadonlyMap<string, string> = (() => {
  const known = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    if (isExpr(value)) known.set(value.text, path);
    else if (value !== null && (typeof value === 'object' || typeof value === 'function'))
      for (const [key, inner] of Object.entries(value)) walk(inner, `${path}.${key}`);
  };
  walk(expr, 'expr');
  return known;
})();

const INPUT_METHOD_NAMES: ReadonlySet<string> = new Set(INPUT_METHODS);
const INPUT = /^<\+input>((?:\.[a-zA-Z]+\([^()]*\))*)$/;
const METHOD = /\.([a-zA-Z]+)\(([^()]*)\)/g;

/**
 * `<+input>.default(dev).allowedValues(dev,prod)` -> `input().default('dev').allowedValues('dev', 'prod')`, when
 * `input()` writes exactly that text back (it refuses a default with a comma, which the platform keeps).
 */
function runtimeInputCode(text: string): Code | undefined {
  const code = inputChain(text);
  if (!code) return undefined;
  try {
    return String(evaluate(code)) === text ? code : undefined;
  } catch {
    return undefined;
  }
}

function inputChain(text: string): Code | undefined {
  const match = INPUT.exec(text);
  if (!match) return undefined;
  const chain: MethodCall[] = [];
  for (const [, method, args] of match[1]!.matchAll(METHOD)) {
    if (!INPUT_METHOD_NAMES.has(method!)) return undefined;
    const values =
      method === 'executionInput' ? [] : method === 'regex' || method === 'default' ? [args!] : args!.split(',');
    if (method !== 'executionInput' && values.some((value) => value === '')) return undefined;
    if (method === 'executionInput' && args !== '') return undefined;
    chain.push({ method: method!, args: values.map((value) => lit(value)) });
  }
  return call('input', [], chain);
}

const SECRET = /^<\+secrets\.getValue\("([^"\\]*)"\)>$/;
const ONE_EXPRESSION = /<\+[^<>]*>/g;

/**
 * A whole-value expression as a helper: runtime inputs, known `expr` members, secrets. Strings that mix
 * text and known expressions become `expr` templates when `templates` is on (short, one-line values).
 */
export function expressionCode(text: string, { templates = false } = {}): Code | undefined {
  if (!text.includes('<+')) return undefined;
  const input = runtimeInputCode(text);
  if (input) return input;
  const known = KNOWN.get(text);
  if (known) return member(known);
  const secret = SECRET.exec(text);
  if (secret) return call('expr.secret', [lit(secret[1]!)]);
  if (!templates || text.includes('\n') || text.length > 100) return undefined;
  const parts: Array<string | Code> = [];
  let last = 0;
  for (const match of text.matchAll(ONE_EXPRESSION)) {
    const helper = KNOWN.get(match[0]);
    if (!helper) return undefined;
    parts.push(text.slice(last, match.index), member(helper));
    last = match.index + match[0].length;
  }
  if (parts.length === 0) return undefined;
  parts.push(text.slice(last));
  return { kind: 'template', parts };
}
