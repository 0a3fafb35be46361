import { isRecord } from '../core/is-record.js';
import { closest, didYouMean } from '../core/suggest.js';
import { isResource, kindOf, type OptionIssue } from '../ir/node.js';
import { plain } from './plain.js';
import type { TemplateRef } from './template-inputs.js';

/**
 * A use's `templateInputs` against the runtime inputs of the template it names by its builder: the platform takes
 * values only where the template has `<+input>` (and the `type`, `identifier` and `name` fields that say which part a
 * value is for), so anything else is a mistake, reported at the call. The types say the same for a wire `spec`;
 * for a builder `spec` they only know the step or stage type, so this run-time check is the one that knows which
 * fields are inputs. A template given by its identifier is another document, not read here.
 */

/** Fields that say which stage, step or variable a value is for (TemplateInputsOf keeps them too). */
const IDENTITY = new Set(['type', 'identifier', 'name']);

const isInputText = (value: unknown): boolean => typeof value === 'string' && value.startsWith('<+input>');

function hasInput(value: unknown): boolean {
  if (isInputText(value)) return true;
  if (Array.isArray(value)) return value.some(hasInput);
  return isRecord(value) && Object.values(value).some(hasInput);
}

/** A list element's identity: the identifier under its one wrapper (`- stage: {identifier}`), or its own. */
function identityOf(element: unknown): string | undefined {
  if (!isRecord(element)) return undefined;
  for (const key of ['identifier', 'name']) if (typeof element[key] === 'string') return element[key] as string;
  const keys = Object.keys(element);
  const inner = keys.length === 1 ? element[keys[0]!] : undefined;
  return isRecord(inner) && typeof inner.identifier === 'string' ? inner.identifier : undefined;
}

/** The names of the template's runtime inputs (`timeout`, `spec.source.spec.script`, `variables.env.value`). */
function inputNames(spec: unknown, name: readonly string[], into: string[]): string[] {
  if (isInputText(spec)) into.push(name.join('.'));
  else if (Array.isArray(spec))
    spec.forEach((item, index) => inputNames(item, [...name, identityOf(item) ?? String(index)], into));
  else if (isRecord(spec)) for (const [key, item] of Object.entries(spec)) inputNames(item, [...name, key], into);
  return into;
}

interface Misfit {
  readonly name: readonly string[];
  /** The inputs beside it, for a did-you-mean. */
  readonly siblings: readonly string[];
}

/** The places in `given` that are no runtime input of `spec`. */
function misfits(given: unknown, spec: unknown, name: readonly string[], into: Misfit[]): Misfit[] {
  // A value that is an input in the template takes anything.
  if (isInputText(spec)) return into;
  if (Array.isArray(given) && Array.isArray(spec)) {
    given.forEach((element, index) => {
      const id = identityOf(element);
      const match = id === undefined ? undefined : spec.find((candidate) => identityOf(candidate) === id);
      if (match === undefined || !hasInput(match))
        into.push({
          name: [...name, id ?? String(index)],
          siblings: spec.filter(hasInput).map((s) => identityOf(s) ?? ''),
        });
      else misfits(element, match, [...name, id!], into);
    });
  } else if (isRecord(given) && isRecord(spec)) {
    const siblings = Object.keys(spec).filter((key) => hasInput(spec[key]));
    for (const [key, value] of Object.entries(given)) {
      if (IDENTITY.has(key) || value === undefined) continue;
      if (!siblings.includes(key)) into.push({ name: [...name, key], siblings });
      else misfits(value, spec[key], [...name, key], into);
    }
  } else if (!hasInput(spec)) into.push({ name, siblings: [] });
  return into;
}

/** The issues of a use's `templateInputs` (given to `builder`) when `templateRef` is a template builder. */
export function templateInputsIssues(builder: string, templateRef: unknown, templateInputs: unknown): OptionIssue[] {
  if (templateInputs === undefined || !isResource(templateRef) || kindOf(templateRef) !== 'template') return [];
  const template = templateRef as TemplateRef;
  const document = template.toDocument() as { template?: { spec?: unknown } };
  const spec = document.template?.spec;
  // A stub (no spec) says nothing about its inputs.
  if (spec === undefined) return [];
  const given = plain(templateInputs);
  const inputs = inputNames(spec, [], []);
  const takes = inputs.length === 0 ? 'it has no runtime inputs' : `its runtime inputs are ${inputs.join(', ')}`;
  return misfits(given, spec, [], []).map(({ name, siblings }) => {
    const field = name.join('.');
    const suggestion = closest(name.at(-1) ?? '', siblings);
    return {
      code: 'unknown-option' as const,
      message: `${builder}() templateInputs.${field} is not a runtime input of template "${template.identifier}"`,
      ...(suggestion
        ? { suggestion, hint: `${didYouMean(suggestion).hint} (${takes})` }
        : {
            hint: `${takes}; give values only for those (with the type, identifier and name that say where they are)`,
          }),
    };
  });
}
