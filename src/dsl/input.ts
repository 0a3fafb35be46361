import { Expr } from './expr.js';

/** Characters that would end or split an argument of a runtime-input method. */
const FORBIDDEN_IN_VALUE = /[,()]/;

/**
 * `<+input>`: a value supplied when the pipeline runs. Each method returns a new input, so a shared
 * `const env = input().allowedValues('dev', 'prod')` never changes under other users.
 */
export class RuntimeInput extends Expr {
  constructor(text = '<+input>') {
    super(text);
    Object.freeze(this);
  }

  /** Value used when the run does not supply one. */
  default(value: string | number | boolean): RuntimeInput {
    return this.#call('default', [checkedValue('default', value)]);
  }

  /** The run must pick one of these values. */
  allowedValues(...values: Array<string | number | boolean>): RuntimeInput {
    return this.#call('allowedValues', listOf('allowedValues', values));
  }

  /** Like allowedValues, shown as a single-select list. */
  selectOneFrom(...values: Array<string | number | boolean>): RuntimeInput {
    return this.#call('selectOneFrom', listOf('selectOneFrom', values));
  }

  /** The run may pick several of these values. */
  selectManyFrom(...values: Array<string | number | boolean>): RuntimeInput {
    return this.#call('selectManyFrom', listOf('selectManyFrom', values));
  }

  /** The value must match this regular expression (give a RegExp or its source). */
  regex(pattern: RegExp | string): RuntimeInput {
    const source = typeof pattern === 'string' ? pattern : pattern.source;
    if (!source) throw new TypeError('input().regex() needs a non-empty pattern');
    return this.#call('regex', [source]);
  }

  /** Ask for the value while the pipeline runs, not only when it starts. */
  executionInput(): RuntimeInput {
    return this.#call('executionInput', []);
  }

  #call(method: string, args: string[]): RuntimeInput {
    return new RuntimeInput(`${this.text}.${method}(${args.join(',')})`);
  }
}

function checkedValue(method: string, value: string | number | boolean): string {
  const text = String(value);
  if (FORBIDDEN_IN_VALUE.test(text))
    throw new TypeError(
      `input().${method}(${JSON.stringify(text)}): values cannot contain ",", "(" or ")" in a runtime input; use a pipeline variable instead`,
    );
  return text;
}

function listOf(method: string, values: Array<string | number | boolean>): string[] {
  if (values.length === 0) throw new TypeError(`input().${method}() needs at least one value`);
  return values.map((value) => checkedValue(method, value));
}

/**
 * `<+input>`: a value asked for when the pipeline runs (or given by an input set or trigger), refined with
 * `.default()`, `.allowedValues()`, `.regex()` and `.executionInput()`.
 *
 * @example
 * ```ts
 * deployment({ identifier: 'deploy', deploymentType: 'Kubernetes', service: input(), environment: input().allowedValues('dev', 'prod'), deployToAll: true })
 * ```
 */
export const input = (): RuntimeInput => new RuntimeInput();
