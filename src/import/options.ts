import { data, lit, obj, arr, type Code, type MethodCall } from './code.js';
import { expressionCode } from './expressions.js';
import { isRecord } from '../core/is-record.js';
import { FAILURE_STRATEGY_DEFAULTS } from '../dsl/common-options.js';
import { optionsOfSpec, type Sugar } from '../dsl/catalog/sugar.js';

/** Converts whole-value runtime inputs and known expressions; leaves other text as written. */
export const value = (text: unknown, templates = false): Code =>
  typeof text === 'string' ? (expressionCode(text, { templates }) ?? lit(text)) : data(text, (t) => expressionCode(t));

/** Wire data with runtime inputs turned into `input()` anywhere inside. */
export const wire = (raw: unknown): Code => data(raw, (text) => expressionCode(text));

type Node = Record<string, unknown>;

/** `name` is left out when it equals the identifier (the builders' default). */
export const nameOption = (node: Node): Code | undefined =>
  node.name === undefined || node.name === node.identifier ? undefined : optional(node.name);

/** Thrown while building a candidate that no typed builder option can hold; the next candidate is tried. */
export class NotExpressible extends Error {}

/**
 * A typed builder option from a wire value: absent stays absent; `null` cannot be given to a typed option,
 * so the candidate is abandoned for a more general one (in the end `raw`, which keeps the null).
 */
export const optional = (raw: unknown, as: (v: unknown) => Code = wire): Code | undefined => {
  if (raw === null) throw new NotExpressible('null in a typed option');
  return raw === undefined ? undefined : as(raw);
};

/** A typed option, left out when the wire value is the one its builder declares as the default. */
export const unlessDefault = (raw: unknown, declared: unknown, as: (v: unknown) => Code = wire): Code | undefined =>
  raw === declared ? undefined : optional(raw, as);

/** Options read back through a builder's declaration, as code: verbatim ones as written text, the others as wire data. */
export const sugarOptionsCode = (options: Record<string, unknown>, sugar: Sugar | undefined): Record<string, Code> =>
  Object.fromEntries(
    Object.entries(options).map(([key, option]) => [
      key,
      sugar?.fields?.[key]?.verbatim ? lit(option as string) : wire(option),
    ]),
  );

/** `[{ onFailure: { errors, action } }]` -> `[{ errors, action }]`, with AllErrors and bare actions shortened. */
export function failureStrategiesOption(raw: unknown): Code | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) return wire(raw);
  return arr(
    raw.map((entry) => {
      const onFailure = isRecord(entry) && isRecord(entry.onFailure) ? entry.onFailure : {};
      const errors = onFailure.errors;
      const action = isRecord(onFailure.action) ? onFailure.action : {};
      const simpleAction = Object.keys(action).length === 1 && typeof action.type === 'string';
      const allErrors = Array.isArray(errors) && errors.length === 1 && errors[0] === FAILURE_STRATEGY_DEFAULTS.errors;
      return obj({
        errors: allErrors
          ? undefined
          : Array.isArray(errors) && errors.length === 1
            ? lit(errors[0] as string)
            : wire(errors),
        action: simpleAction ? lit(action.type as string) : wire(action),
      });
    }),
  );
}

/** The fields of a typed variable option besides its type and value, and the type each takes. */
const VARIABLE_FIELDS: Record<string, (value: unknown, type: unknown) => boolean> = {
  description: (v) => typeof v === 'string',
  required: (v) => typeof v === 'boolean',
  metadata: (v) => typeof v === 'string',
  default: (v, type) => (type === 'Number' ? typeof v === 'number' : typeof v === 'string'),
};

/**
 * `[{ name, type, value }]` -> `{ name: value }` where the type follows from the value, else the variable in full
 * (`{ type, value, default, required, description }`, each typed by the variable's type). A variable the option
 * cannot hold abandons the candidate, naming the field.
 */
export function variablesOption(raw: unknown): Code | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) return wire(raw);
  const entries: Record<string, Code> = {};
  for (const variable of raw) {
    if (!isRecord(variable) || typeof variable.name !== 'string' || variable.name in entries) return wire(raw);
    const { name, type, value: given, ...rest } = variable;
    const plainString = type === 'String' && typeof given === 'string' && Object.keys(rest).length === 0;
    const plainNumber = type === 'Number' && typeof given === 'number' && Object.keys(rest).length === 0;
    if (plainString || plainNumber) {
      entries[name] = plainString ? value(given) : lit(given as number);
      continue;
    }
    if (type !== 'String' && type !== 'Number' && type !== 'Secret')
      throw new NotExpressible(`variable ${name} has the type ${JSON.stringify(type)}, not String, Number or Secret`);
    if (typeof given !== 'string' && typeof given !== 'number')
      throw new NotExpressible(`variable ${name} has no text or number value`);
    for (const [key, field] of Object.entries(rest)) {
      const fits = VARIABLE_FIELDS[key];
      if (!fits) throw new NotExpressible(`a variable has no option ${key} (variable ${name})`);
      if (!fits(field, type))
        throw new NotExpressible(
          `variable ${name}: ${key} ${JSON.stringify(field)} is not a value its option takes for a ${type} variable`,
        );
    }
    entries[name] = obj({
      type: lit(type),
      value: value(given),
      ...Object.fromEntries(Object.entries(rest).map(([key, field]) => [key, lit(field as string)])),
    });
  }
  return obj(entries);
}

/** Tags: a list of names when every value is empty, else the map. */
export function tagsOption(raw: unknown): Code | undefined {
  if (!isRecord(raw)) return optional(raw);
  const keys = Object.keys(raw);
  return keys.length > 0 && keys.every((key) => raw[key] === '') ? arr(keys.map((key) => lit(key))) : wire(raw);
}

/**
 * A hand-written builder's options read back from a spec (`optionsOfSpec`); when it cannot take the spec, the
 * candidate is abandoned with the reason an `import-fallback` names: the field no option writes, the field it
 * needs, or the value it does not take.
 */
export function sugarOptionsOf(sugar: Sugar, spec: unknown): Record<string, unknown> {
  const options = optionsOfSpec(sugar, spec);
  if (options) return options;
  const wire = isRecord(spec) ? spec : {};
  const fields = Object.values(sugar.fields ?? {});
  const unknown = Object.keys(wire).filter((key) => !fields.some((field) => field.key === key));
  if (unknown.length) throw new NotExpressible(`${sugar.builder}() has no option for spec.${unknown.join(', spec.')}`);
  const missing = fields.find((field) => field.required && wire[field.key] === undefined);
  if (missing) throw new NotExpressible(`${sugar.builder}() needs spec.${missing.key}, which the YAML leaves out`);
  const unread = fields.find((field) => wire[field.key] !== undefined && field.read(wire[field.key]) === undefined);
  throw new NotExpressible(
    unread
      ? `${sugar.builder}() does not take spec.${unread.key} as written`
      : `${sugar.builder}() cannot take this spec`,
  );
}

/**
 * `.withFields({...})` for the fields of a node no option of its builder writes (`written` names those it does),
 * so one field without a typed form keeps the node typed; no call when there are none.
 */
export function otherFieldsChain(body: Node, written: readonly string[]): MethodCall[] {
  const rest = Object.entries(body).filter(([key]) => !written.includes(key));
  return rest.length ? [{ method: 'withFields', args: [wire(Object.fromEntries(rest))] }] : [];
}
