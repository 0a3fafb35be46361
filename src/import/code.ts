/**
 * A tiny intermediate form of the code `import` writes: builder calls, literals, objects, arrays, tagged
 * `expr` templates and references to hoisted constants. The same value is both evaluated against the real
 * builders (to prove it reproduces the YAML) and printed as a TypeScript AST, so what is verified is
 * exactly what is written.
 */
export type Code =
  | {
      readonly kind: 'literal';
      readonly value: string | number | boolean | null;
    }
  | {
      readonly kind: 'object';
      readonly entries: ReadonlyArray<readonly [string, Code]>;
    }
  | { readonly kind: 'array'; readonly items: readonly Code[] }
  | {
      readonly kind: 'call';
      readonly callee: string;
      readonly args: readonly Code[];
      readonly chain?: readonly MethodCall[];
    }
  | { readonly kind: 'member'; readonly path: string }
  | { readonly kind: 'template'; readonly parts: ReadonlyArray<string | Code> }
  | {
      readonly kind: 'const';
      readonly name: string;
      readonly value: Code;
      /** Methods called on the constant where it is used (`.withIdentifier('b')`). */
      readonly chain?: readonly MethodCall[];
    }
  /** A parameter of a generated function, in its body (`identifier` of `(identifier: string) => ...`). */
  | { readonly kind: 'param'; readonly name: string }
  /** A function of text parameters (`(identifier: string, name: string) => custom({ identifier, name })`). */
  | { readonly kind: 'function'; readonly params: readonly string[]; readonly body: Code }
  /** A call of the generated function `name` (whose code is `value`) with `args`, one per parameter. */
  | { readonly kind: 'apply'; readonly name: string; readonly value: Code; readonly args: readonly Code[] }
  | {
      readonly kind: 'ref';
      /** The referenced document's module, relative to the output folder (`pipelines/default/web/release.ts`). */
      readonly module: string;
      /** Its export. */
      readonly name: string;
      /** The referenced document's kind (`pipeline`), which names the import when the export's name is taken. */
      readonly target: string;
      /** The name it is imported under here (`generate-module.ts` sets it: the export's may be taken). */
      readonly local?: string;
    };

/**
 * Which YAML nodes a piece of code was chosen for, and at which fallback level (0 = the most specific
 * candidate). Kept under a symbol, so it is invisible to `JSON.stringify` (shared-step hoisting compares
 * code that way) yet carried along by object spread.
 */
const ORIGIN: unique symbol = Symbol('pipewright.import.origin');
export interface Origin {
  readonly nodes: readonly object[];
  readonly level: number;
  /** The last level (`raw.*`): nothing more general to fall back to. */
  readonly last?: boolean;
  /** Why a more specific candidate was passed over (the builder's refusal, the first difference, a type error). */
  readonly why?: string;
}
export const originOf = (code: Code): Origin | undefined => (code as { [ORIGIN]?: Origin })[ORIGIN];
export const withOrigin = (code: Code, origin: Origin): Code => ({ ...code, [ORIGIN]: origin }) as unknown as Code;

/**
 * A keyer for code: the same key for equal code, different keys for different code (origins aside, as with
 * `JSON.stringify`), which shared-const hoisting compares. Each distinct piece gets a number, and a piece's key
 * is written with its parts' numbers: keys stay short however large a stage is, and each part is looked at once
 * (`JSON.stringify` of every unit, three times each, was a tenth of importing 1000 pipelines). One keyer per
 * module: its table lives as long as the keyer.
 */
export function codeKeys(): (code: Code) => string {
  const ids = new WeakMap<object, string>();
  const table = new Map<string, string>();
  const key = (code: Code): string => {
    let id = ids.get(code);
    if (id === undefined) {
      const text = keyOf(code, key);
      id = table.get(text);
      if (id === undefined) table.set(text, (id = `#${table.size}`));
      ids.set(code, id);
    }
    return id;
  };
  return key;
}

const chainKey = (chain: readonly MethodCall[] | undefined, key: (code: Code) => string): string =>
  chain ? chain.map(({ method, args }) => `.${method}(${args.map(key).join(',')})`).join('') : '';

function keyOf(code: Code, part: (code: Code) => string): string {
  switch (code.kind) {
    case 'literal':
      return JSON.stringify(code.value);
    case 'object':
      return `{${code.entries.map(([name, value]) => `${JSON.stringify(name)}:${part(value)}`).join(',')}}`;
    case 'array':
      return `[${code.items.map(part).join(',')}]`;
    case 'call':
      return `${code.callee}(${code.args.map(part).join(',')})${chainKey(code.chain, part)}`;
    case 'member':
      return `m:${code.path}`;
    case 'template':
      return `\`${code.parts.map((piece) => (typeof piece === 'string' ? JSON.stringify(piece) : `\${${part(piece)}}`)).join('')}\``;
    case 'const':
      return `const ${code.name}=${part(code.value)}${chainKey(code.chain, part)}`;
    case 'ref':
      return `ref ${JSON.stringify([code.module, code.name, code.target, code.local ?? null])}`;
    case 'param':
      return `p:${code.name}`;
    case 'function':
      return `(${code.params.join(',')})=>${part(code.body)}`;
    case 'apply':
      return `apply ${code.name}=${part(code.value)}(${code.args.map(part).join(',')})`;
  }
}

/**
 * What a reference to another imported module evaluates to: that module's built resource. Under a symbol, like the
 * origin, so comparing code as JSON ignores it.
 */
const BUILT: unique symbol = Symbol('pipewright.import.built');
export const builtOf = (code: Code): unknown => (code as { [BUILT]?: () => unknown })[BUILT]?.();
/** The export `name` of the generated module `module` (of a `target` document), whose built value `built` gives. */
export const ref = (module: string, name: string, target: string, built: () => unknown): Code =>
  ({ kind: 'ref', module, name, target, [BUILT]: built }) as unknown as Code;

export interface MethodCall {
  readonly method: string;
  readonly args: readonly Code[];
}

export const lit = (value: string | number | boolean | null): Code => ({
  kind: 'literal',
  value,
});
export const obj = (entries: Record<string, Code | undefined>): Code => ({
  kind: 'object',
  entries: Object.entries(entries).filter((entry): entry is [string, Code] => entry[1] !== undefined),
});
export const arr = (items: readonly Code[]): Code => ({ kind: 'array', items });
export const call = (callee: string, args: readonly Code[], chain: readonly MethodCall[] = []): Code => ({
  kind: 'call',
  callee,
  args,
  chain,
});
export const member = (path: string): Code => ({ kind: 'member', path });

/** Appends method calls to a call. */
export const chained = (code: Code, calls: readonly MethodCall[]): Code =>
  code.kind === 'call' ? { ...code, chain: [...(code.chain ?? []), ...calls] } : code;

/**
 * The parsed map or list an object or array literal was written from (`data`): its YAML comments are printed at
 * their fields. Under a symbol, like the origin, so comparing code ignores it.
 */
const SOURCE: unique symbol = Symbol('pipewright.import.source');
export const sourceOf = (code: Code): object | undefined => (code as { [SOURCE]?: object })[SOURCE];

/** Plain data (parsed YAML) as code, turning runtime inputs and known expressions into helpers. */
export function data(value: unknown, convert: (text: string) => Code | undefined = () => undefined): Code {
  if (value === null || value === undefined) return lit(null);
  if (typeof value === 'string') return convert(value) ?? lit(value);
  if (typeof value === 'number' || typeof value === 'boolean') return lit(value);
  if (Array.isArray(value))
    return { kind: 'array', items: value.map((item) => data(item, convert)), [SOURCE]: value } as Code;
  return {
    kind: 'object',
    entries: Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, data(item, convert)] as const),
    [SOURCE]: value,
  } as Code;
}

/** The top-level names a piece of code uses from pipewright, for the import line. */
export function usedNames(code: Code, names = new Set<string>()): Set<string> {
  switch (code.kind) {
    case 'call':
      names.add(code.callee.split('.')[0]!);
      code.args.forEach((arg) => usedNames(arg, names));
      code.chain?.forEach((c) => c.args.forEach((arg) => usedNames(arg, names)));
      break;
    case 'member':
      names.add(code.path.split('.')[0]!);
      break;
    case 'template':
      names.add('expr');
      code.parts.forEach((part) => typeof part !== 'string' && usedNames(part, names));
      break;
    case 'object':
      code.entries.forEach(([, value]) => usedNames(value, names));
      break;
    case 'array':
      code.items.forEach((item) => usedNames(item, names));
      break;
    case 'const':
      code.chain?.forEach((c) => c.args.forEach((arg) => usedNames(arg, names)));
      break;
    case 'function':
      usedNames(code.body, names);
      break;
    case 'apply':
      code.args.forEach((arg) => usedNames(arg, names));
      break;
    case 'literal':
    case 'ref':
    case 'param':
      break;
  }
  return names;
}

/** The code directly inside a piece of code: arguments, chained calls' arguments, entries, items, a const's value. */
export function childrenOf(code: Code): readonly Code[] {
  switch (code.kind) {
    case 'call':
      return [...code.args, ...(code.chain ?? []).flatMap((c) => c.args)];
    case 'const':
      return [code.value, ...(code.chain ?? []).flatMap((c) => c.args)];
    case 'function':
      return [code.body];
    case 'apply':
      return [code.value, ...code.args];
    case 'template':
      return code.parts.filter((part): part is Code => typeof part !== 'string');
    case 'object':
      return code.entries.map(([, value]) => value);
    case 'array':
      return code.items;
    default:
      return [];
  }
}

/** The same piece of code with each piece directly inside it (as `childrenOf` lists them) replaced by `change`. */
export function mapChildren(code: Code, change: (child: Code) => Code): Code {
  const chain = (calls: readonly MethodCall[] | undefined) =>
    calls ? { chain: calls.map((c) => ({ ...c, args: c.args.map(change) })) } : {};
  switch (code.kind) {
    case 'call':
      return { ...code, args: code.args.map(change), ...chain(code.chain) };
    case 'const':
      return { ...code, value: change(code.value), ...chain(code.chain) };
    case 'function':
      return { ...code, body: change(code.body) };
    case 'apply':
      return { ...code, value: change(code.value), args: code.args.map(change) };
    case 'template':
      return { ...code, parts: code.parts.map((part) => (typeof part === 'string' ? part : change(part))) };
    case 'object':
      return { ...code, entries: code.entries.map(([key, value]) => [key, change(value)] as const) };
    case 'array':
      return { ...code, items: code.items.map(change) };
    default:
      return code;
  }
}

/** Every reference to another module in a piece of code, in order of appearance. */
export function refsIn(
  code: Code,
  found: Array<Extract<Code, { kind: 'ref' }>> = [],
): Array<Extract<Code, { kind: 'ref' }>> {
  if (code.kind === 'ref') found.push(code);
  for (const child of childrenOf(code)) refsIn(child, found);
  return found;
}
