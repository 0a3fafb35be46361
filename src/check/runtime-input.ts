/**
 * A runtime input as text: `<+input>` and its method chain (`.default(x)`, `.allowedValues(a,b)`, `.regex(...)`,
 * `.executionInput()`, ...), read once here for the rule that checks the chain and for render, which merges values
 * into a pipeline and checks them as the platform does (docs/render.md cites the platform's sources).
 */

export const INPUT_METHODS = [
  'default',
  'allowedValues',
  'selectOneFrom',
  'selectManyFrom',
  'regex',
  'executionInput',
] as const;

/** A value the platform takes as a runtime input: it starts with `<+input>` (NGExpressionUtils.matchesInputSetPattern). */
export function isRuntimeInput(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  // The walk asks this of every string: most start with neither `<` nor white space, and one comparison settles them.
  const first = value.charCodeAt(0);
  return (first === 60 || first <= 32 || first > 127) && value.trimStart().startsWith('<+input>');
}

export interface InputCall {
  readonly method: string;
  /** The text between the parentheses, trimmed. */
  readonly args: string;
}

export interface ChainProblem {
  readonly message: string;
  readonly hint?: string;
}

/** The method calls after `<+input>`, or what is wrong with them (unknown method, unbalanced parentheses, ...). */
export function readInputChain(
  text: string,
  known: readonly string[] = INPUT_METHODS,
): { calls: InputCall[] } | { problem: ChainProblem; method?: string } {
  let rest = text.trim().slice('<+input>'.length);
  const calls: InputCall[] = [];
  while (rest.length > 0) {
    const call = /^\.([A-Za-z_]\w*)/.exec(rest);
    if (!call) return { problem: { message: `has ${JSON.stringify(rest)} after <+input>; expected .method(...)` } };
    const method = call[1]!;
    if (!known.includes(method))
      return { problem: { message: `uses an unknown runtime-input method "${method}"` }, method };
    rest = rest.slice(call[0].length);
    if (!rest.startsWith('('))
      return { problem: { message: `calls .${method} without parentheses`, hint: `write .${method}(...)` } };
    let depth = 0;
    let end = -1;
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === '(') depth++;
      else if (rest[i] === ')' && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) return { problem: { message: `has an unclosed "(" in .${method}(...)` } };
    const args = rest.slice(1, end).trim();
    if (method === 'executionInput' && args)
      return { problem: { message: 'passes arguments to .executionInput(), which takes none' } };
    if (method !== 'executionInput' && !args) return { problem: { message: `calls .${method}() without a value` } };
    calls.push({ method, args });
    rest = rest.slice(end + 1);
  }
  return { calls };
}

/** What a runtime input asks for: its default, its validator, whether it is asked while the pipeline runs. */
export interface RuntimeInputSpec {
  readonly default?: string;
  /**
   * The platform checks one validator, allowedValues before regex (the order of its InputSetValidatorType);
   * selectOneFrom and selectManyFrom only shape the form in the UI.
   */
  readonly validator?: { readonly kind: 'allowedValues' | 'regex'; readonly args: string };
  readonly executionInput: boolean;
}

/** The spec of a runtime input's text; a malformed chain reads as a plain `<+input>` (the rule warns about it). */
export function runtimeInputSpec(text: string): RuntimeInputSpec {
  const read = readInputChain(text);
  const calls = 'calls' in read ? read.calls : [];
  const find = (method: string) => calls.find((call) => call.method === method)?.args;
  const allowed = find('allowedValues');
  const regex = find('regex');
  const fallback = find('default');
  return {
    ...(fallback !== undefined ? { default: fallback } : {}),
    ...(allowed !== undefined
      ? { validator: { kind: 'allowedValues' as const, args: allowed } }
      : regex !== undefined
        ? { validator: { kind: 'regex' as const, args: regex } }
        : {}),
    executionInput: calls.some((call) => call.method === 'executionInput'),
  };
}

/**
 * A list of allowed values (or a value given for one) split as the platform splits it: at commas outside `\'...\'`
 * and `\"...\"`, each part trimmed and unquoted (AllowedValuesHelper.split).
 */
export function splitAllowedValues(text: string): string[] {
  const values: string[] = [];
  let start = 0;
  let single = false;
  let double = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === "'") single = !single;
    else if (text[i] === '\\' && text[i + 1] === '"') double = !double;
    else if (text[i] === ',' && !single && !double) {
      values.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  values.push(text.slice(start).trim());
  return values.map((value) =>
    /^\\'.*\\'$|^\\".*\\"$/s.test(value) && value.length >= 4 ? value.slice(2, -2) : value,
  );
}

/** An expression (a runtime input is one), which the platform resolves later and so never checks against a validator. */
const unresolved = (text: string) => text.includes('<+');

/**
 * Why `value` is refused by the input's validator, or undefined when it passes: every part of the value must be
 * one of allowedValues, and the whole value must match the regex (Java's `matches()`); each element of a list is
 * checked alone (RuntimeInputValuesValidator.validateStaticValues).
 */
export function validatorProblem(
  spec: RuntimeInputSpec,
  value: unknown,
): { readonly kind: 'allowedValues' | 'regex'; readonly rejected: string[] } | undefined {
  const { validator } = spec;
  if (!validator) return undefined;
  const items = Array.isArray(value) ? value : [value];
  const texts = items.filter((item) => item === null || typeof item !== 'object').map((item) => String(item));
  let rejected: string[];
  if (validator.kind === 'allowedValues') {
    const allowed = splitAllowedValues(validator.args);
    if (allowed.some(unresolved)) return undefined;
    rejected = texts
      .filter((text) => !unresolved(text))
      .flatMap((text) => splitAllowedValues(text).filter((part) => !allowed.includes(part)));
  } else {
    let pattern: RegExp;
    try {
      pattern = new RegExp(`^(?:${validator.args})$`);
    } catch {
      // A Java pattern JavaScript cannot read (possessive quantifiers, \p{Alpha}): the platform is the judge.
      return undefined;
    }
    rejected = texts.filter((text) => !unresolved(text) && !pattern.test(text));
  }
  return rejected.length ? { kind: validator.kind, rejected } : undefined;
}
