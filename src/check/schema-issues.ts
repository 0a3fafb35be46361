import { z } from 'zod';
import type { CodeWith } from '../core/diagnostic-codes.js';
import { diagnosticOf, type Diagnostic } from '../core/diagnostics.js';
import { describePath, valueAt } from '../core/document-path.js';
import { closest, didYouMean, type DidYouMean } from '../core/suggest.js';
import { EXPRESSION_PATTERN } from '../schema/common.js';

const kindOfValue = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : typeof value === 'object'
        ? 'a map'
        : // String() for numbers: JSON would print NaN (YAML 1.1 reads a bare "." as one) as null.
          `${typeof value} ${typeof value === 'number' ? String(value) : JSON.stringify(value)}`;

const CODES: Record<string, CodeWith<'error'>> = {
  invalid_type: 'invalid-type',
  invalid_value: 'invalid-value',
  invalid_format: 'invalid-format',
  too_small: 'too-small',
  too_big: 'too-big',
  invalid_union: 'invalid-value',
  custom: 'invalid-value',
};

/** The allowed values behind a union issue: a discriminated union's options, or an enum among its branches. */
function allowedOf(issue: z.core.$ZodIssue): string[] | undefined {
  if (issue.code !== 'invalid_union') return undefined;
  if ('options' in issue && Array.isArray(issue.options)) return issue.options.map(String);
  for (const branch of issue.errors)
    for (const inner of branch)
      if (inner.code === 'invalid_value' && inner.path.length === 0 && 'values' in inner)
        return inner.values.map(String);
  return undefined;
}

/** `boolean or string` when every branch of a union failed on the value's type alone; else undefined. */
function unionTypes(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return undefined;
  const expected = new Set<string>();
  for (const branch of issue.errors) {
    const [only] = branch;
    if (branch.length !== 1 || only!.code !== 'invalid_type' || only!.path.length !== 0) return undefined;
    expected.add(String(only!.expected));
  }
  return [...expected].join(' or ');
}

/**
 * Whether zod wrote the issue's message itself (its locale's text for the code and parameters) rather than a schema
 * of ours (`.min(1, { error: '...' })`): only zod's own wording is replaced by one built from the parameters.
 */
function zodWording(issue: z.core.$ZodIssue): boolean {
  const own = z.config().localeError?.(issue as z.core.$ZodRawIssue);
  return issue.message === (typeof own === 'string' ? own : own?.message);
}

/**
 * The shape of a failure strategy, for one that misses a part: the YAML's, and the builders' short form beside it
 * (a builder takes either).
 */
function failureStrategyShape(path: readonly (string | number)[]): string | undefined {
  const at = path.lastIndexOf('failureStrategies');
  if (at < 0 || typeof path[at + 1] !== 'number' || path.length > at + 4) return undefined;
  return "a failure strategy is onFailure: { errors: [AllErrors], action: { type: Abort } }; a builder also takes { errors: 'AllErrors', action: 'Abort' }";
}

/** Our words for an issue zod worded itself, by its code. */
function ownWording(issue: z.core.$ZodIssue, field: string, value: unknown): string {
  const found = kindOfValue(value);
  switch (issue.code) {
    case 'invalid_format':
      return 'pattern' in issue && String(issue.pattern) === String(EXPRESSION_PATTERN)
        ? `${field} ${JSON.stringify(value)} is not a <+...> expression`
        : `${field} ${JSON.stringify(value)} does not have the form the platform expects${issue.format && issue.format !== 'regex' ? ` (${issue.format})` : ''}`;
    case 'too_big':
      return `${field} is too ${issue.origin === 'array' ? 'long' : 'large'} (at most ${String(issue.maximum)}), found ${found}`;
    case 'too_small':
      return `${field} is too small (at least ${String(issue.minimum)}), found ${found}`;
    case 'not_multiple_of':
      return `${field} must be a multiple of ${String(issue.divisor)}, found ${found}`;
    case 'unrecognized_keys':
      return `${field} has fields the platform does not take: ${issue.keys.join(', ')}`;
    case 'invalid_key':
      return `${field} has a key the platform does not take`;
    case 'invalid_element':
      return `${field} has an entry the platform does not take`;
    default:
      return `${field} has a value the platform does not take, found ${found}`;
  }
}

/** The alternative `orExpression` adds (text holding `<+`), missed: not what a user meant to write. */
const isExpressionMiss = (branch: readonly z.core.$ZodIssue[]): boolean =>
  branch.length === 1 &&
  branch[0]!.code === 'invalid_format' &&
  branch[0]!.path.length === 0 &&
  'pattern' in branch[0]! &&
  String(branch[0]!.pattern) === String(EXPRESSION_PATTERN);

/** A type zod names, as a value of it is described: `true or false`, `a number`. */
const TYPE_WORDS: Record<string, string> = {
  boolean: 'true or false',
  number: 'a number',
  int: 'a whole number',
  array: 'a list',
  object: 'a map',
  record: 'a map',
  string: 'text',
};

/**
 * `is not true or false (or a <+...> expression)` when a value fits neither a scalar type nor the expression
 * beside it: zod's own words would name the expression's pattern, `Invalid string: must match pattern /<\+/`.
 */
function scalarOrExpression(issue: z.core.$ZodIssue): string | undefined {
  if (issue.code !== 'invalid_union' || !issue.errors.some(isExpressionMiss)) return undefined;
  const expected = new Set<string>();
  for (const branch of issue.errors) {
    if (isExpressionMiss(branch)) continue;
    const [only] = branch;
    if (branch.length !== 1 || only!.code !== 'invalid_type' || only!.path.length !== 0) return undefined;
    expected.add(TYPE_WORDS[String(only!.expected)] ?? String(only!.expected));
  }
  return expected.size === 0 ? undefined : [...expected].join(' or ');
}

/** Messages that read as a predicate of the value: printed as `field "value" is ...`. */
const PREDICATE = /^(is|must|needs) /;

/** Turns zod issues into diagnostics that name the field, the value found and what was expected. */
export function schemaDiagnostics(document: unknown, issues: readonly z.core.$ZodIssue[]): Diagnostic[] {
  return issues.flatMap((issue): Diagnostic[] => {
    const path = issue.path as Array<string | number>;
    const inner = scalarOrExpression(issue) ? undefined : matchedBranch(issue);
    if (inner)
      return schemaDiagnostics(
        document,
        inner.map((problem) => ({ ...problem, path: [...path, ...problem.path] })),
      );
    const { subject, field } = describePath(document, path);
    const value = valueAt(document, path);
    let message = issue.message;
    let help: DidYouMean | undefined;
    let code: CodeWith<'error'> = CODES[issue.code] ?? 'invalid-value';
    if (scalarOrExpression(issue) && value !== undefined) {
      message = `${field || 'value'} ${JSON.stringify(value)} is not ${scalarOrExpression(issue)} (or a <+...> expression)`;
    } else if (issue.code === 'invalid_type' && value === undefined) {
      message = `${field || 'value'} is required (expected ${issue.expected})`;
      code = 'missing-field';
    } else if (issue.code === 'invalid_union' && value === undefined) {
      const expected = unionTypes(issue);
      message = `${field || 'value'} is required${expected ? ` (expected ${expected})` : ''}`;
      code = 'missing-field';
    } else if (issue.code === 'invalid_value' && 'values' in issue && value === undefined) {
      // A missing discriminator (`type` of a map whose kind it picks): say what to add, not "undefined".
      message = `${field || 'value'} is required (one of ${issue.values.map(String).join(', ')})`;
      code = 'missing-field';
    } else if (issue.code === 'invalid_type') {
      message = `${field || 'value'} must be ${issue.expected}, found ${kindOfValue(value)}`;
    } else if (issue.code === 'invalid_value' && 'values' in issue) {
      const allowed = issue.values.map(String);
      const suggestion = typeof value === 'string' ? closest(value, allowed) : undefined;
      message = `${field || 'value'} ${JSON.stringify(value)} is not one of ${allowed.join(', ')}`;
      if (suggestion) help = didYouMean(suggestion);
    } else if (issue.code === 'invalid_union' && allowedOf(issue)) {
      // An enum or expression (orExpression), or a discriminated union: name what is allowed.
      const allowed = allowedOf(issue)!;
      const suggestion = typeof value === 'string' ? closest(value, allowed) : undefined;
      const orExpr = issue.errors.length > 1 ? ' (or a <+...> expression)' : '';
      message = `${field || 'value'} ${JSON.stringify(value)} is not one of ${allowed.join(', ')}${orExpr}`;
      if (suggestion) help = didYouMean(suggestion);
    } else if (issue.code === 'invalid_union' && unionTypes(issue)) {
      message = `${field || 'value'} must be ${unionTypes(issue)}, found ${kindOfValue(value)}`;
    } else if (issue.code === 'invalid_union') {
      message = `${field || 'value'} has an unexpected value ${kindOfValue(value)}`;
    } else if (issue.code === 'too_small' && issue.origin === 'array' && zodWording(issue)) {
      message = `${field || 'value'} needs at least ${String(issue.minimum)} item${issue.minimum === 1 ? '' : 's'}`;
    } else if (issue.code === 'too_small' && issue.origin === 'string') {
      message =
        Number(issue.minimum) <= 1
          ? `${field || 'value'} must not be empty`
          : `${field || 'value'} needs at least ${String(issue.minimum)} characters`;
    } else if (zodWording(issue)) {
      // Never zod's own text ("Invalid string: must match pattern ..."): what is wrong with the value, in words.
      message = ownWording(issue, field || 'value', value);
    } else if (PREDICATE.test(message)) {
      message = `${field} ${JSON.stringify(value)} ${message}`;
    } else if (field && !message.includes(field.split('.').pop()!)) {
      message = `${field}: ${message}`;
    }
    const shape = code === 'missing-field' ? failureStrategyShape(path) : undefined;
    return [diagnosticOf(code, 'error', { message, path, subject, ...(shape ? { hint: shape } : {}), ...help })];
  });
}

/**
 * The issues of the one alternative of a union whose shape the value has (a list, where the other alternative is
 * a `<+...>` string; the object whose `type` matched): its deepest problems say what is wrong, where "has an
 * unexpected value" would not. Undefined when no alternative, or more than one, got past the value's type.
 */
function matchedBranch(issue: z.core.$ZodIssue): z.core.$ZodIssue[] | undefined {
  if (issue.code !== 'invalid_union' || allowedOf(issue)) return undefined;
  const rootMismatch = (problem: z.core.$ZodIssue) =>
    problem.path.length === 0 &&
    (problem.code === 'invalid_type' || (problem.code === 'invalid_value' && 'values' in problem));
  const matched = issue.errors.filter((branch) => branch.length > 0 && !branch.some(rootMismatch));
  return matched.length === 1 ? matched[0] : undefined;
}
