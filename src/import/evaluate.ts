import * as dsl from './builders.js';
import { builtOf, mapChildren, type Code } from './code.js';

const lookup = (path: string): unknown =>
  path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], dsl);

/** Calls the methods of a chain in turn on a value. */
function chain(value: unknown, what: string, calls: Extract<Code, { kind: 'call' }>['chain']): unknown {
  let result = value;
  for (const { method, args } of calls ?? []) {
    const target = result as Record<string, (...a: unknown[]) => unknown>;
    if (typeof target[method] !== 'function') throw new Error(`${what} has no method ${method}`);
    result = target[method]!(...args.map(evaluate));
  }
  return result;
}

/**
 * What a call was evaluated to when it was verified: a parent's candidate holds the code chosen for its children,
 * and evaluating it uses their builders again instead of calling them again (builders are frozen values).
 */
const evaluated = new WeakMap<Code, unknown>();

/** Records that `code` evaluates to what `like` did (the code chosen for a node is its verified candidate, marked). */
export function evaluatesLike(code: Code, like: Code): void {
  if (evaluated.has(like)) evaluated.set(code, evaluated.get(like));
}

/** Runs code against the real builders: what `import` would write, evaluated in memory. */
export function evaluate(code: Code): unknown {
  if (code.kind !== 'call') return evaluateNew(code);
  if (evaluated.has(code)) return evaluated.get(code);
  const value = evaluateNew(code);
  evaluated.set(code, value);
  return value;
}

function evaluateNew(code: Code): unknown {
  switch (code.kind) {
    case 'literal':
      return code.value;
    case 'object':
      return Object.fromEntries(code.entries.map(([key, value]) => [key, evaluate(value)]));
    case 'array':
      return code.items.map(evaluate);
    case 'member':
      return lookup(code.path);
    case 'ref':
      // Another imported module's export: its resource, built from the code chosen for it.
      return builtOf(code);
    case 'const':
      return chain(evaluate(code.value), code.name, code.chain);
    case 'apply':
      // The function's body with its parameters given: what the call returns.
      if (code.value.kind !== 'function') throw new Error(`${code.name} is not a function`);
      return evaluate(applied(code.value, code.args));
    case 'function':
    case 'param':
      throw new Error('a function or its parameter is evaluated only where it is called');
    case 'template': {
      const strings = code.parts.filter((_, index) => index % 2 === 0) as string[];
      const values = code.parts.filter((_, index) => index % 2 === 1).map((part) => evaluate(part as Code));
      return dsl.expr(
        Object.assign([...strings], {
          raw: strings,
        }) as unknown as TemplateStringsArray,
        ...(values as dsl.Value[]),
      );
    }
    case 'call': {
      const fn = lookup(code.callee);
      if (typeof fn !== 'function') throw new Error(`pipewright has no builder ${code.callee}`);
      return chain(fn(...code.args.map(evaluate)), `${code.callee}(...)`, code.chain);
    }
  }
}

/** A function's body with each parameter replaced by its argument. */
function applied(fn: Extract<Code, { kind: 'function' }>, args: readonly Code[]): Code {
  const given = new Map(fn.params.map((param, index) => [param, args[index]!]));
  const substitute = (code: Code): Code =>
    code.kind === 'param' ? (given.get(code.name) ?? code) : mapChildren(code, substitute);
  return substitute(fn.body);
}
