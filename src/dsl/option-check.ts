import { closest, didYouMean } from '../core/suggest.js';
import type { OptionIssue } from '../ir/node.js';

/**
 * Options a builder does not know. Types catch these in an editor, but definitions compile without a type
 * check too (and JavaScript users have none), so builders check at run time as well: a misspelt `scipt`
 * must never silently drop the script.
 */
export function unknownOptions(builder: string, options: object, known: Iterable<string>): OptionIssue[] {
  // Every builder call comes here: no copy of a list of names, and none of the options' keys.
  const knownKeys = Array.isArray(known) ? (known as readonly string[]) : [...known];
  const issues: OptionIssue[] = [];
  for (const key in options) {
    if (!Object.hasOwn(options, key) || knownKeys.includes(key)) continue;
    const suggestion = closest(key, knownKeys);
    issues.push({
      code: 'unknown-option',
      message: `${builder}() has no option "${key}"`,
      ...(suggestion
        ? didYouMean(suggestion)
        : { hint: `the options are: ${knownKeys.slice(0, 12).join(', ')}${knownKeys.length > 12 ? ', ...' : ''}` }),
    });
  }
  return issues;
}

/** Required options that were not given (or given as undefined). */
export function missingOptions(builder: string, options: object, required: readonly string[]): OptionIssue[] {
  return required
    .filter((key) => (options as Record<string, unknown>)[key] === undefined)
    .map((key) => ({
      code: 'missing-option' as const,
      message: `${builder}() needs the option "${key}"`,
      hint: `add ${key}: ... to the ${builder}() call`,
    }));
}

/** Builder props that carry option issues (kept off the option types users see). */
export interface WithIssues {
  readonly issues?: readonly OptionIssue[];
}

/** Unknown and missing options of one builder call. */
export const checkOptions = (
  builder: string,
  options: object,
  known: readonly string[],
  required: readonly string[],
): OptionIssue[] => [
  ...unknownOptions(builder, options ?? {}, known),
  ...missingOptions(builder, options ?? {}, required),
];
