import { codeKeys, type Code } from './code.js';
import { evaluate } from './evaluate.js';
import { sharedName, walk, withMembersOrigins, type SharedConst } from './shared-consts.js';
import { variableName } from './variable-name.js';
import { asStageElement, isExact } from './verify.js';

/** At least this many stages of one form become a function: fewer are shorter written out. */
const MIN_MEMBERS = 3;
/** At most this many texts may differ between them: more parameters read worse than the stages themselves. */
const MAX_PARAMS = 4;
/**
 * Options whose text a parameter may give: each takes any string in the builders' types (an identifier, a name,
 * a reference), so a function of `string` parameters type-checks. A text of another option (a `deploymentType`,
 * an enum) differing keeps the stages written out.
 */
const TEXT_OPTIONS = new Set([
  'identifier',
  'name',
  'description',
  'service',
  'environment',
  'infrastructureDefinitions',
  'templateRef',
  'versionLabel',
  'namespace',
  'connector',
  'connectorRef',
  'command',
  'approvalMessage',
]);

/** A string literal in a stage's code, and the option it is the value (or a list item) of. */
interface TextAt {
  readonly option: string | undefined;
}

/** The stage's code with every string literal a hole, and the literals' options in the order they are met. */
function skeleton(code: Code, texts: TextAt[], option?: string): Code {
  switch (code.kind) {
    case 'literal':
      if (typeof code.value !== 'string') return code;
      texts.push({ option });
      return { kind: 'literal', value: null };
    case 'object':
      return { ...code, entries: code.entries.map(([key, value]) => [key, skeleton(value, texts, key)] as const) };
    case 'array':
      return { ...code, items: code.items.map((item) => skeleton(item, texts, option)) };
    case 'call':
      return {
        ...code,
        args: code.args.map((arg) => skeleton(arg, texts)),
        ...(code.chain
          ? { chain: code.chain.map((c) => ({ ...c, args: c.args.map((arg) => skeleton(arg, texts)) })) }
          : {}),
      };
    default:
      // A const, a reference, a template: kept whole (the same in every member, or the skeletons differ).
      return code;
  }
}

/** The string literals of a stage's code, in the order `skeleton` meets them. */
function textsOf(code: Code, into: string[] = []): string[] {
  if (code.kind === 'literal') {
    if (typeof code.value === 'string') into.push(code.value);
  } else if (code.kind === 'object') for (const [, value] of code.entries) textsOf(value, into);
  else if (code.kind === 'array') for (const item of code.items) textsOf(item, into);
  else if (code.kind === 'call') {
    for (const arg of code.args) textsOf(arg, into);
    for (const c of code.chain ?? []) for (const arg of c.args) textsOf(arg, into);
  }
  return into;
}

/** The stage's code with the literals at `holes` (indexes in `textsOf` order) as the parameters named there. */
function withParams(code: Code, holes: ReadonlyMap<number, string>, counter = { at: 0 }): Code {
  switch (code.kind) {
    case 'literal': {
      if (typeof code.value !== 'string') return code;
      const param = holes.get(counter.at++);
      return param === undefined ? code : { kind: 'param', name: param };
    }
    case 'object':
      return {
        ...code,
        entries: code.entries.map(([key, value]) => [key, withParams(value, holes, counter)] as const),
      };
    case 'array':
      return { ...code, items: code.items.map((item) => withParams(item, holes, counter)) };
    case 'call':
      return {
        ...code,
        args: code.args.map((arg) => withParams(arg, holes, counter)),
        ...(code.chain
          ? { chain: code.chain.map((c) => ({ ...c, args: c.args.map((arg) => withParams(arg, holes, counter)) })) }
          : {}),
      };
    default:
      return code;
  }
}

/** A parameter's name: its option's (a list's item singular), never one the module has taken, each once. */
function paramName(option: string, used: Set<string>, taken: ReadonlySet<string>): string {
  const base = option.endsWith('s') && option.length > 3 ? option.slice(0, -1) : option;
  let name = variableName(base, 'value');
  for (let n = 2; used.has(name) || taken.has(name); n++) name = `${variableName(base, 'value')}${n}`;
  used.add(name);
  return name;
}

/**
 * Stages that differ only in a few texts (their identifier and name, the environment they deploy to, a template
 * they use) become one local function of those texts, called once per stage:
 * `const deployStage = (identifier: string, name: string, environment: string) => deployment({ ... })` and
 * `.stage(deployStage('deploy_qa', 'Deploy qa', 'qa'))`. Only for three or more stages (fewer are shorter
 * written out), at most four parameters, and only texts of options that take any string; each call is evaluated
 * against the stage it replaces, and the group is left written out when one does not reproduce it.
 */
export function stageFunctions(code: Code, taken: Set<string>): { code: Code; consts: SharedConst[] } {
  const codeKey = codeKeys();
  const groups = new Map<string, Code[]>();
  walk(code, (place, unit) => {
    if (place !== 'stage' || unit.kind !== 'call') return undefined;
    const key = codeKey(skeleton(unit, []));
    groups.set(key, [...(groups.get(key) ?? []), unit]);
    return unit;
  });
  // By code, not identity: the walk makes a new unit of a stage and the steps chained after it each time.
  const calls = new Map<string, Code>();
  const consts: SharedConst[] = [];
  for (const members of groups.values()) {
    if (members.length < MIN_MEMBERS) continue;
    const texts: TextAt[] = [];
    skeleton(members[0]!, texts);
    const values = members.map((member) => textsOf(member));
    const differing = texts
      .map((_, index) => index)
      .filter((index) => values.some((v) => v[index] !== values[0]![index]));
    if (differing.length === 0 || differing.length > MAX_PARAMS) continue;
    if (!differing.every((index) => TEXT_OPTIONS.has(texts[index]!.option ?? ''))) continue;
    const used = new Set<string>();
    const holes = new Map(differing.map((index) => [index, paramName(texts[index]!.option!, used, taken)] as const));
    const fn: Extract<Code, { kind: 'function' }> = {
      kind: 'function',
      params: [...holes.values()],
      body: withMembersOrigins(withParams(members[0]!, holes), members.slice(1)),
    };
    let name = variableName(sharedName(members, 'stage'), 'stage');
    if (!name.endsWith('Stage')) name = `${name}Stage`;
    while (taken.has(name)) name = `${name}_`;
    const uses = members.map((member, at): Code => ({
      kind: 'apply',
      name,
      value: fn,
      args: differing.map((index) => ({ kind: 'literal', value: values[at]![index]! })),
    }));
    if (!uses.every((use, at) => isExact(use, asStageElement(evaluate(members[at]!)), asStageElement))) continue;
    taken.add(name);
    consts.push({ name, value: fn });
    members.forEach((member, at) => calls.set(codeKey(member), uses[at]!));
  }
  if (!consts.length) return { code, consts };
  return { code: walk(code, (place, unit) => (place === 'stage' ? calls.get(codeKey(unit)) : undefined)), consts };
}
