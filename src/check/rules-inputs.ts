import type { Rule } from './walk.js';
import { describePath } from '../core/document-path.js';
import { isRuntimeInput, ruleWarning } from './rule-kit.js';
import { closest, didYouMean } from '../core/suggest.js';

export const INPUT_METHODS = ['default', 'allowedValues', 'selectOneFrom', 'selectManyFrom', 'regex', 'executionInput'] as const;

/**
 * What is wrong with the method chain after `<+input>`, or undefined when it is well formed:
 * `.name(args)` calls of the known methods, parentheses balanced, executionInput without arguments.
 */
export function inputProblem(text: string): { message: string; hint?: string; suggestion?: string } | undefined {
  let rest = text.trim().slice('<+input>'.length);
  while (rest.length > 0) {
    const call = /^\.([A-Za-z_]\w*)/.exec(rest);
    if (!call) return { message: `has ${JSON.stringify(rest)} after <+input>; expected .method(...)` };
    const method = call[1]!;
    if (!(INPUT_METHODS as readonly string[]).includes(method)) {
      const suggestion = closest(method, INPUT_METHODS);
      return {
        message: `uses an unknown runtime-input method "${method}"`,
        ...(suggestion ? didYouMean(suggestion) : { hint: `runtime inputs take ${INPUT_METHODS.join(', ')}` }),
      };
    }
    rest = rest.slice(call[0].length);
    if (!rest.startsWith('(')) return { message: `calls .${method} without parentheses`, hint: `write .${method}(...)` };
    let depth = 0;
    let end = -1;
    for (let i = 0; i < rest.length; i++) {
      if (rest[i] === '(') depth++;
      else if (rest[i] === ')' && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0) return { message: `has an unclosed "(" in .${method}(...)` };
    const args = rest.slice(1, end).trim();
    if (method === 'executionInput' && args) return { message: 'passes arguments to .executionInput(), which takes none' };
    if (method !== 'executionInput' && !args) return { message: `calls .${method}() without a value` };
    rest = rest.slice(end + 1);
  }
  return undefined;
}

/** Every value that starts with `<+input>` has a well-formed method chain. */
export const runtimeInputs: Rule = {
  code: 'invalid-runtime-input',
  string(text, at) {
    if (!isRuntimeInput(text)) return;
    const problem = inputProblem(text);
    if (!problem) return;
    const { message, ...help } = problem;
    const path = at.path;
    at.report(ruleWarning(at.document, path, 'invalid-runtime-input', `${describePath(at.document, path).field} ${JSON.stringify(text)} ${message}`, help));
  },
};
