import type { Rule } from './walk.js';
import { describePath } from '../core/document-path.js';
import { ruleWarning } from './rule-kit.js';
import { closest, didYouMean } from '../core/suggest.js';
import { INPUT_METHODS, isRuntimeInput, readInputChain } from './runtime-input.js';

/**
 * What is wrong with the method chain after `<+input>`, or undefined when it is well formed:
 * `.name(args)` calls of the known methods, parentheses balanced, executionInput without arguments.
 */
export function inputProblem(text: string): { message: string; hint?: string; suggestion?: string } | undefined {
  const read = readInputChain(text);
  if ('calls' in read) return undefined;
  if (read.method === undefined) return read.problem;
  const suggestion = closest(read.method, INPUT_METHODS);
  return {
    message: read.problem.message,
    ...(suggestion ? didYouMean(suggestion) : { hint: `runtime inputs take ${INPUT_METHODS.join(', ')}` }),
  };
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
    at.report(
      ruleWarning(
        at.document,
        path,
        'invalid-runtime-input',
        `${describePath(at.document, path).field} ${JSON.stringify(text)} ${message}`,
        help,
      ),
    );
  },
};
