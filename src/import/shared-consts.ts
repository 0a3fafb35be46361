import { chained, codeKeys, lit, mapChildren, originOf, withOrigin, type Code, type MethodCall } from './code.js';
import { evaluate } from './evaluate.js';
import { variableName } from './variable-name.js';
import { asStageElement, asStepElement, isExact } from './verify.js';

/** Where a unit that may be shared stands: in a list of stages or in a list of steps. */
type Place = 'stage' | 'step';

/** Chain methods whose arguments are steps. */
export const STEP_METHODS = new Set(['step', 'rollbackStep']);
/** A step group's options whose items are steps. */
const STEP_LISTS = new Set(['steps', 'rollbackSteps']);
/** Calls with no `.withIdentifier()`: shared only when all their code is the same. */
const WHOLE_ONLY = new Set(['parallel']);

const optionOf = (code: Code, key: string): Code | undefined =>
  code.kind === 'call' && code.args[0]?.kind === 'object'
    ? code.args[0].entries.find(([name]) => name === key)?.[1]
    : undefined;

const textOf = (code: Code | undefined): string | undefined =>
  code?.kind === 'literal' && typeof code.value === 'string' ? code.value : undefined;

/**
 * What two units must share to be one `const`: all their code (a `raw.*` call, a parallel block), or all but the
 * identifier and name (a builder's step, step group or stage, which `.withIdentifier()` renames). A stage's
 * steps are part of it.
 */
function shareKey(place: Place, code: Code, codeKey: (code: Code) => string): string | undefined {
  if (code.kind !== 'call') return undefined;
  if (
    code.callee.startsWith('raw.') ||
    WHOLE_ONLY.has(code.callee) ||
    code.args[0]?.kind !== 'object' ||
    textOf(optionOf(code, 'identifier')) === undefined
  )
    return `${place} same:${codeKey(code)}`;
  const options = code.args[0].entries.filter(([key]) => key !== 'identifier' && key !== 'name');
  return `${place} shape:${codeKey({ ...code, args: [{ kind: 'object', entries: options }, ...code.args.slice(1)] })}`;
}

/**
 * `.withIdentifier(id, name?)` on the shared unit: the name is given only where the builder's own rule (keep
 * the const's name, or follow the new identifier when the const has none) would not give the use's.
 */
function renamed(shared: Code, use: Code): MethodCall {
  const identifier = textOf(optionOf(use, 'identifier'))!;
  const sharedName = textOf(optionOf(shared, 'name'));
  const useName = textOf(optionOf(use, 'name'));
  const given = sharedName === undefined ? useName : useName === sharedName ? undefined : (useName ?? identifier);
  return { method: 'withIdentifier', args: [lit(identifier), ...(given === undefined ? [] : [lit(given)])] };
}

/** What a unit found in the tree becomes: a replacement (its inside is not visited), or undefined to look inside. */
type OnUnit = (place: Place, unit: Code) => Code | undefined;

/** A pipeline's stage entry with the steps chained after it (`.stage(s).step(a, b)`), as one stage unit. */
const stageUnit = (chain: readonly MethodCall[], at: number): Code | undefined => {
  const entry = chain[at]!;
  if (entry.method !== 'stage' || entry.args.length !== 1) return undefined;
  const next = chain[at + 1];
  return next?.method === 'step' ? chained(entry.args[0]!, [next]) : entry.args[0];
};

/**
 * Rebuilds the code, offering each unit that stands in a list of stages or of steps to `onUnit`: the stages of
 * a pipeline's chain (each with the steps chained after it), the arguments of `.step()`/`.rollbackStep()`, the
 * items of a step group's `steps` and `rollbackSteps`, and the stages or steps of a `parallel(...)` among them.
 */
export function walk(code: Code, onUnit: OnUnit): Code {
  const inner = (c: Code) => walk(c, onUnit);
  // A parallel block not shared whole: its stages or steps stand in the list as much as the block does.
  const within = (place: Place, c: Code): Code =>
    c.kind === 'call' && WHOLE_ONLY.has(c.callee) && !c.chain?.length
      ? { ...c, args: c.args.map((item) => onUnit(place, item) ?? within(place, item)) }
      : inner(c);
  const step = (c: Code) => onUnit('step', c) ?? within('step', c);
  const stage = (c: Code) => within('stage', c);
  switch (code.kind) {
    case 'call': {
      const chain: MethodCall[] = [];
      const source = code.chain ?? [];
      for (let at = 0; at < source.length; at++) {
        const { method, args } = source[at]!;
        const unit = stageUnit(source, at);
        const replaced = unit && onUnit('stage', unit);
        if (replaced) {
          chain.push({ method, args: [replaced] });
          if (unit !== args[0]) at++; // its steps are in the unit
        } else
          chain.push({ method, args: args.map(STEP_METHODS.has(method) ? step : method === 'stage' ? stage : inner) });
      }
      const args =
        code.callee === 'stepGroup' && code.args[0]?.kind === 'object'
          ? [
              {
                ...code.args[0],
                entries: code.args[0].entries.map(([key, value]) =>
                  STEP_LISTS.has(key) && value.kind === 'array'
                    ? ([key, { ...value, items: value.items.map(step) }] as const)
                    : ([key, inner(value)] as const),
                ),
              },
              ...code.args.slice(1).map(inner),
            ]
          : code.args.map(inner);
      return { ...code, args, ...(code.chain ? { chain } : {}) };
    }
    case 'object':
    case 'array':
      return mapChildren(code, inner);
    default:
      return code;
  }
}

/**
 * The first member's code with the YAML nodes of every member at each of its calls (same-shaped code has its
 * calls at the same places): a type error in the shared code then demotes all of them, and each member's
 * comments find their call.
 */
export function withMembersOrigins(first: Code, others: readonly Code[]): Code {
  if (first.kind === 'call') {
    const callsOf = others.filter((o): o is Extract<Code, { kind: 'call' }> => o.kind === 'call');
    const merged: Code = {
      ...first,
      args: first.args.map((arg, i) =>
        withMembersOrigins(
          arg,
          callsOf.map((o) => o.args[i]).filter((a): a is Code => a !== undefined),
        ),
      ),
      ...(first.chain
        ? {
            chain: first.chain.map(({ method, args }, c) => ({
              method,
              args: args.map((arg, i) =>
                withMembersOrigins(
                  arg,
                  callsOf.map((o) => o.chain?.[c]?.args[i]).filter((a): a is Code => a !== undefined),
                ),
              ),
            })),
          }
        : {}),
    };
    const origin = originOf(first);
    return origin
      ? withOrigin(merged, { ...origin, nodes: [...origin.nodes, ...others.flatMap((o) => originOf(o)?.nodes ?? [])] })
      : merged;
  }
  if (first.kind === 'object') {
    const objects = others.filter((o): o is Extract<Code, { kind: 'object' }> => o.kind === 'object');
    return {
      ...first,
      entries: first.entries.map(
        ([key, value], i) =>
          [
            key,
            withMembersOrigins(
              value,
              objects.map((o) => o.entries[i]?.[1]).filter((v): v is Code => v !== undefined),
            ),
          ] as const,
      ),
    };
  }
  if (first.kind === 'array') {
    const arrays = others.filter((o): o is Extract<Code, { kind: 'array' }> => o.kind === 'array');
    return {
      ...first,
      items: first.items.map((item, i) =>
        withMembersOrigins(
          item,
          arrays.map((o) => o.items[i]).filter((v): v is Code => v !== undefined),
        ),
      ),
    };
  }
  return first;
}

/** An identifier's words: `rolling_deploy_auth` and `rollingDeployAuth` are rolling, deploy, auth. */
const wordsOf = (identifier: string): string[] =>
  identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[_\-$]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());

/** The longest run of words every list starts with (or, reversed, ends with). */
function commonStart(lists: readonly string[][]): string[] {
  const [first = [], ...rest] = lists;
  let length = 0;
  while (length < first.length && rest.every((list) => list[length] === first[length])) length++;
  return first.slice(0, length);
}

/** A part of a name that says nothing of what a unit is: a number, a letter, a region or stage suffix alone. */
const MEANINGLESS = /^(\d+|[a-z])$/;

/**
 * What shared units are, as a const's name: their identifier when they all have one, else the words their
 * identifiers share at the start or the end (`rolling_deploy_auth` and `rolling_deploy_product` are a
 * `rollingDeploy`, `build_eu` and `build_us` a `build`), else their builder and place (`shellStep`, `customStage`).
 * Named after what they share, the const reads as what it is at every use, not as its first use.
 */
export function sharedName(members: readonly Code[], place: Place): string {
  const identifiers = members.map((member) => textOf(optionOf(member, 'identifier')));
  const first = identifiers[0];
  if (first === undefined) return place;
  if (identifiers.every((identifier) => identifier === first)) return first;
  if (identifiers.every((identifier) => identifier !== undefined)) {
    const words = identifiers.map((identifier) => wordsOf(identifier!));
    const start = commonStart(words);
    const end = commonStart(words.map((list) => [...list].reverse())).reverse();
    const shared = start.length >= end.length ? start : end;
    if (shared.length && !shared.every((word) => MEANINGLESS.test(word))) return shared.join('_');
  }
  const member = members[0]!;
  const callee = member.kind === 'call' ? (member.callee.split('.').at(-1) ?? place) : place;
  return callee === 'stepGroup' ? 'group' : `${callee}_${place}`;
}

export interface SharedConst {
  readonly name: string;
  readonly value: Code;
}

/**
 * Stages, step groups and steps used more than once with the same code, or the same but for their identifier
 * and name, become one `const` (used with `.withIdentifier()` where the identifier differs), as a person would
 * write a shared part. Each renamed use is evaluated against the part it replaces, so what is written stays
 * exact. Returns the rewritten code and the constants, each after the constants it uses.
 */
export function hoistShared(code: Code, taken: Set<string>): { code: Code; consts: SharedConst[] } {
  const codeKey = codeKeys();
  // Count the units, then count again without looking inside the repeats of a unit that is shared: a step
  // inside a stage used twice is one step of the stage's const, not two uses.
  const counts = new Map<string, number>();
  walk(code, (place, unit) => {
    const key = shareKey(place, unit, codeKey);
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
    return undefined;
  });
  const groups = new Map<string, Code[]>();
  walk(code, (place, unit) => {
    const key = shareKey(place, unit, codeKey);
    if (!key) return undefined;
    const members = groups.get(key) ?? [];
    groups.set(key, [...members, unit]);
    return members.length > 0 && (counts.get(key) ?? 0) > 1 ? unit : undefined;
  });
  const consts = new Map<string, SharedConst>();
  const ordered: SharedConst[] = [];
  const useOf: OnUnit = (place, unit) => {
    const key = shareKey(place, unit, codeKey);
    const members = key === undefined ? undefined : groups.get(key);
    if (!key || !members || members.length < 2) return undefined;
    let entry = consts.get(key);
    if (!entry) {
      const first = members[0]!;
      let name = variableName(sharedName(members, place), place);
      while (taken.has(name)) name = `${name}${place === 'stage' ? 'Stage' : 'Step'}`;
      taken.add(name);
      // Reserved before its value is rewritten (which may make the constants it uses), listed after them.
      entry = { name, value: first };
      consts.set(key, entry);
      entry = { name, value: walk(withMembersOrigins(first, members.slice(1)), useOf) };
      consts.set(key, entry);
      ordered.push(entry);
    }
    const value = entry.value;
    // The const named after its first member's identifier stands for it; named after what the members share,
    // every use says its identifier.
    const standsForFirst = entry.name === variableName(textOf(optionOf(members[0]!, 'identifier')) ?? '', place);
    if (codeKey(unit) === codeKey(members[0]!) && (standsForFirst || !key.includes(' shape:')))
      return { kind: 'const', name: entry.name, value };
    const use: Code = { kind: 'const', name: entry.name, value, chain: [renamed(members[0]!, unit)] };
    const produce = place === 'stage' ? asStageElement : asStepElement;
    return isExact(use, produce(evaluate(unit)), produce) ? use : undefined;
  };
  const rewritten = walk(code, useOf);
  return { code: rewritten, consts: ordered };
}
