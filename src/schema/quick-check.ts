import type { z } from 'zod';
import { util } from 'zod/v4/core';
import { zodInternals as internals, type ZodCheck, type ZodDef } from './zod-internals.js';

/** Whether a value passes a schema: yes or no, nothing built. */
export type QuickCheck = (value: unknown) => boolean;

const made = new WeakMap<z.ZodType, QuickCheck>();

/**
 * A predicate that answers yes only where `schema.safeParse(value)` succeeds, without the copy of the value zod's
 * parse builds (a third of what a compile allocated, most of it for documents that pass). A document answered no
 * is parsed, for the issues. It walks the same definitions and runs zod's own checks and refinements on the value
 * (our objects are loose, so the copy a refinement would see holds the same data); a kind of schema it does not
 * know, or a case where agreeing exactly would cost more than it saves, is answered no and left to zod.
 * test/quick-check.test.ts holds the two verdicts together over generated values, the fixtures and the corpus.
 */
export function quickCheck(schema: z.ZodType): QuickCheck {
  let check = made.get(schema);
  if (!check) {
    // Set before building: a schema that contains itself (through z.lazy) finds its own check.
    let built: QuickCheck | undefined;
    made.set(schema, (value) => built!(value));
    built = withChecks(schema, base(schema));
    made.set(schema, (check = built));
  }
  return check;
}

/** The schema's own checks and refinements, run on a value its type accepted, as zod runs them. */
function withChecks(schema: z.ZodType, accepts: QuickCheck): QuickCheck {
  const checks = internals(schema).def.checks;
  if (!checks?.length || internals(schema).def.type === 'custom') return accepts;
  return (value) => {
    if (!accepts(value)) return false;
    for (const check of checks) {
      const when = check._zod.def.when;
      if (when && !when({ value })) continue;
      const payload = { value, issues: [] as unknown[] };
      if (check._zod.check(payload) instanceof Promise || payload.issues.length) return false;
    }
    return true;
  };
}

const never: QuickCheck = () => false;
const always: QuickCheck = () => true;

function base(schema: z.ZodType): QuickCheck {
  const { def } = internals(schema);
  // A child schema the kind always has (zod builds the definition with it).
  const inner = (child: z.ZodType | undefined): QuickCheck => quickCheck(child!);
  switch (def.type) {
    case 'string':
      return (value) => typeof value === 'string';
    case 'number':
      return (value) => typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return (value) => typeof value === 'boolean';
    case 'null':
      return (value) => value === null;
    case 'undefined':
      return (value) => value === undefined;
    case 'any':
    case 'unknown':
      return always;
    case 'literal':
    case 'enum': {
      const values = internals(schema).values;
      return values ? (value) => values.has(value) : never;
    }
    case 'optional': {
      const check = inner(def.innerType);
      return (value) => value === undefined || check(value);
    }
    case 'nullable': {
      const check = inner(def.innerType);
      return (value) => value === null || check(value);
    }
    case 'readonly':
      return inner(def.innerType);
    case 'lazy': {
      let check: QuickCheck | undefined;
      return (value) => (check ??= quickCheck(def.getter!()))(value);
    }
    case 'array': {
      const element = inner(def.element);
      return (value) => {
        if (!Array.isArray(value)) return false;
        for (let index = 0; index < value.length; index++) if (!element(value[index])) return false;
        return true;
      };
    }
    case 'union': {
      const options = def.options!.map((option) => quickCheck(option));
      return (value) => {
        for (const option of options) if (option(value)) return true;
        return false;
      };
    }
    case 'intersection': {
      const left = inner(def.left);
      const right = inner(def.right);
      return (value) => left(value) && right(value);
    }
    case 'record':
      return recordCheck(def);
    case 'object':
      return objectCheck(def);
    case 'custom':
      // z.custom: the check is the whole schema.
      return (value) => {
        const payload = { value, issues: [] as unknown[] };
        const result = (schema as unknown as ZodCheck)._zod.check(payload);
        return !(result instanceof Promise) && payload.issues.length === 0;
      };
    default:
      // Transforms, pipes, defaults, dates...: our document schemas use none; zod decides.
      return never;
  }
}

/** A record with string keys, as zod reads one: a plain object, its own enumerable keys, no symbols. */
function recordCheck(def: ZodDef): QuickCheck {
  const key = internals(def.keyType!);
  // Other key schemas (enums, patterns, numbers) read keys in ways not worth repeating here.
  if (key.def.type !== 'string' || key.def.checks?.length) return never;
  const entry = quickCheck(def.valueType!);
  return (value) => {
    if (!util.isPlainObject(value) || Object.getOwnPropertySymbols(value).length) return false;
    for (const name of Object.keys(value)) if (name !== '__proto__' && !entry(value[name])) return false;
    return true;
  };
}

/** An object, as zod reads one: any non-array object; each declared field as its optionality says; the rest by the catchall. */
function objectCheck(def: ZodDef): QuickCheck {
  // The shape is read when first used: a shape may be defined by getters that refer to schemas made later.
  let plan: { always: Field[]; byKey: Map<string, Field> } | undefined;
  const catchall = def.catchall;
  const rest = catchall === undefined ? undefined : internals(catchall).def.type;
  const extra = rest === undefined || rest === 'unknown' || rest === 'any' ? undefined : quickCheck(catchall!);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const map = value as Record<string, unknown>;
    plan ??= fieldPlan(def.shape!);
    for (const field of plan.always) if (!fieldPasses(field, map)) return false;
    // An optional field matters only when the value has its key: the value's few keys, not the schema's many.
    for (const key in map) {
      const field = plan.byKey.get(key);
      if (field && !field.check(map[key])) return false;
      if (!field && extra && !Object.hasOwn(def.shape!, key) && !extra(map[key])) return false;
    }
    return true;
  };
}

interface Field {
  readonly key: string;
  readonly check: QuickCheck;
  readonly optin: unknown;
  readonly optional: boolean;
}

/**
 * Which fields are read whatever the value holds (required ones, and any name an object inherits, as
 * `constructor`), and the optional ones by key. zod never reads a field named __proto__.
 */
function fieldPlan(shape: Readonly<Record<string, z.ZodType>>): { always: Field[]; byKey: Map<string, Field> } {
  const always: Field[] = [];
  const byKey = new Map<string, Field>();
  for (const [key, schema] of Object.entries(shape)) {
    if (key === '__proto__') continue;
    const field = {
      key,
      check: quickCheck(schema),
      optin: internals(schema).optin,
      optional: internals(schema).optout === 'optional',
    };
    if (field.optional && field.optin === 'optional' && !(key in Object.prototype)) byKey.set(key, field);
    else always.push(field);
  }
  return { always, byKey };
}

/** One field as zod's object reads it: an absent key that is optional in and out passes unread; one nothing made optional fails. */
function fieldPasses({ key, check, optin, optional }: Field, map: Record<string, unknown>): boolean {
  const present = key in map;
  if (!present && optional && optin === 'optional') return true;
  if (!check(map[key])) return optin !== undefined && optional && !present;
  return present || optin !== undefined;
}
