import { ts } from 'ts-morph';
import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { lit, originOf, usedNames, withOrigin, type Code, type MethodCall, type Origin } from './code.js';
import { evaluate } from './evaluate.js';
import { asStepElement, isExact } from './verify.js';
import { connectorCode, pipelineCode, projectCode } from './from-document.js';
import type { ImportContext } from './lifted.js';
import { environmentCode, infrastructureCode, inputSetCode, overlayInputSetCode, serviceCode, templateCode, triggerCode } from './from-kinds.js';
import { printStatements, toExpression } from './print.js';
import { fallbacksOf, type Fallback } from './fallbacks.js';
import { commentPlacer } from './comment-placement.js';
import type { Comments } from './read-documents.js';
import type { Demotions } from './verify.js';

const f = ts.factory;

const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await'.split(
    ' ',
  ),
);

/** `deploy_to_prod` -> `deployToProd`; a valid, non-reserved JavaScript name. */
export function variableName(identifier: string, fallback: string): string {
  const camel = identifier.replace(/_+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/^_+/, '');
  const name = /^[A-Za-z_$][\w$]*$/.test(camel) ? camel : `${fallback}${camel.replace(/[^\w$]/g, '_')}`;
  return RESERVED.has(name) ? `${name}${fallback[0]!.toUpperCase()}${fallback.slice(1)}` : name;
}

/** Chain methods whose arguments are steps: a step used in several of them may be one shared `const`. */
const STEP_METHODS = new Set(['step', 'rollbackStep']);
/** Calls that make something other than a single step, which have no `.withIdentifier()`. */
const NOT_A_STEP = new Set(['parallel', 'stepGroup']);

const optionOf = (code: Code, key: string): Code | undefined =>
  code.kind === 'call' && code.args[0]?.kind === 'object' ? code.args[0].entries.find(([name]) => name === key)?.[1] : undefined;

const textOf = (code: Code | undefined): string | undefined =>
  code?.kind === 'literal' && typeof code.value === 'string' ? code.value : undefined;

/**
 * What two step calls must share to be one `const`: all their code (a `raw.step` or a group), or all but the
 * identifier and name (a builder's step, which `.withIdentifier()` renames).
 */
function shareKey(code: Code): string | undefined {
  if (code.kind !== 'call') return undefined;
  if (code.callee.startsWith('raw.') || NOT_A_STEP.has(code.callee) || code.args[0]?.kind !== 'object') return `same:${JSON.stringify(code)}`;
  const options = code.args[0].entries.filter(([key]) => key !== 'identifier' && key !== 'name');
  return `shape:${JSON.stringify({ ...code, args: [{ kind: 'object', entries: options }, ...code.args.slice(1)] })}`;
}

/**
 * `.withIdentifier(id, name?)` on the shared step: the name is given only where the builder's own rule (keep
 * the const's name, or follow the new identifier when the const has none) would not give the use's.
 */
function renamed(shared: Code, use: Code): MethodCall {
  const identifier = textOf(optionOf(use, 'identifier'))!;
  const sharedName = textOf(optionOf(shared, 'name'));
  const useName = textOf(optionOf(use, 'name'));
  const given = sharedName === undefined ? useName : useName === sharedName ? undefined : (useName ?? identifier);
  return { method: 'withIdentifier', args: [lit(identifier), ...(given === undefined ? [] : [lit(given)])] };
}

/**
 * Steps used more than once with the same code, or the same but for their identifier and name, become one
 * `const` (used with `.withIdentifier()` where the identifier differs), as a person would write a shared step.
 * Each renamed use is evaluated against the step it replaces, so what is written stays exact.
 * Returns the rewritten code and the constants in first-use order.
 */
function hoistSharedSteps(
  code: Code,
  taken: Set<string>,
): { code: Code; consts: Array<{ name: string; value: Code }> } {
  const groups = new Map<string, Code[]>();
  const visit = (node: Code): void => {
    if (node.kind !== 'call') return;
    for (const { method, args } of node.chain ?? [])
      for (const arg of args) {
        const key = STEP_METHODS.has(method) ? shareKey(arg) : undefined;
        if (key) groups.set(key, [...(groups.get(key) ?? []), arg]);
        visit(arg);
      }
  };
  visit(code);
  const consts = new Map<string, { name: string; value: Code; uses: Code[] }>();
  const useOf = (arg: Code): Code | undefined => {
    const key = shareKey(arg);
    const members = key === undefined ? undefined : groups.get(key);
    if (!key || !members || members.length < 2) return undefined;
    let entry = consts.get(key);
    if (!entry) {
      const first = members[0]!;
      let name = variableName(textOf(optionOf(first, 'identifier')) ?? 'step', 'step');
      while (taken.has(name)) name = `${name}Step`;
      taken.add(name);
      // The YAML nodes behind each shared step: a type error in the const demotes all of them.
      const origin = originOf(first);
      const nodes = members.flatMap((member) => originOf(member)?.nodes ?? []);
      entry = { name, value: origin ? withOrigin(first, { ...origin, nodes }) : first, uses: [] };
      consts.set(key, entry);
    }
    if (JSON.stringify(arg) === JSON.stringify(members[0])) return { kind: 'const', name: entry.name, value: entry.value };
    const use: Code = { kind: 'const', name: entry.name, value: entry.value, chain: [renamed(members[0]!, arg)] };
    return isExact(use, asStepElement(evaluate(arg)), asStepElement) ? use : undefined;
  };
  const rewrite = (node: Code): Code => {
    if (node.kind !== 'call') return node;
    const chain = node.chain?.map(({ method, args }) => ({
      method,
      args: args.map((arg) => (STEP_METHODS.has(method) ? useOf(arg) : undefined) ?? rewrite(arg)),
    }));
    return { ...node, ...(chain ? { chain } : {}) };
  };
  const rewritten = rewrite(code);
  return { code: rewritten, consts: [...consts.values()].map(({ name, value }) => ({ name, value })) };
}

/**
 * Steps in a row go in one call, `.step(a, b)` rather than `.step(a).step(b)`: the same steps (the methods take
 * any number), and two lines fewer per step once formatted.
 */
export function joinStepCalls(code: Code): Code {
  switch (code.kind) {
    case 'call': {
      const chain: MethodCall[] = [];
      for (const { method, args } of code.chain ?? []) {
        const joined = args.map(joinStepCalls);
        const last = chain[chain.length - 1];
        if (last && last.method === method && STEP_METHODS.has(method)) chain[chain.length - 1] = { method, args: [...last.args, ...joined] };
        else chain.push({ method, args: joined });
      }
      return { ...code, args: code.args.map(joinStepCalls), ...(code.chain ? { chain } : {}) };
    }
    case 'object':
      return { ...code, entries: code.entries.map(([key, value]) => [key, joinStepCalls(value)] as const) };
    case 'array':
      return { ...code, items: code.items.map(joinStepCalls) };
    default:
      return code;
  }
}

export interface ModuleInput {
  readonly kind: ResourceKind;
  readonly document: Record<string, unknown>;
  /** Where the YAML came from, named in the header comment. */
  readonly source: string;
  /** Comment lines found above the document in the YAML. */
  readonly comment?: string;
  /** The document's comments (but the one above it), kept as `//` lines above the calls of their nodes. */
  readonly comments?: Comments;
}

const CODE_OF: Record<ResourceKind, (document: Record<string, unknown>, context: ImportContext) => Code> = {
  pipeline: pipelineCode,
  project: projectCode,
  connector: connectorCode,
  service: serviceCode,
  environment: environmentCode,
  infrastructure: infrastructureCode,
  template: templateCode,
  inputSet: inputSetCode,
  overlayInputSet: overlayInputSetCode,
  trigger: triggerCode,
};

export interface GeneratedModule {
  readonly exportName: string;
  /** The source text before formatting. */
  readonly text: string;
  /** The same code with each node's code marked (`print.ts`), and the origins the marks index. */
  readonly marked: { readonly text: string; readonly origins: readonly Origin[] };
  /** The nodes written with a generic builder or `raw.*`, and why. */
  readonly fallbacks: readonly Fallback[];
}

/**
 * The module's source text before formatting: imports, shared steps, then the exported resource. `demoted`
 * names the YAML nodes whose code must fall back to a more general builder (after a type error).
 */
export function generateModule(
  { kind, document, source, comment, comments = new WeakMap() }: ModuleInput,
  demoted: Demotions = new WeakMap(),
): GeneratedModule {
  const body = (document[kindRow(kind).rootKey] ?? {}) as Record<string, unknown>;
  const built = CODE_OF[kind](document, { comments, demoted });
  // Names imported from pipewright are taken: a pipeline called `ci` must not shadow the `ci` builder.
  const names = usedNames(built);
  let exportName = variableName(String(body.identifier ?? kind), kind);
  while (names.has(exportName)) exportName = `${exportName}${kind[0]!.toUpperCase()}${kind.slice(1)}`;
  const { code, consts } = hoistSharedSteps(joinStepCalls(built), new Set([exportName, ...names]));
  const importDecl = f.createImportDeclaration(
    undefined,
    f.createImportClause(
      false,
      undefined,
      f.createNamedImports(
        [...names].sort().map((n) => f.createImportSpecifier(false, undefined, f.createIdentifier(n))),
      ),
    ),
    f.createStringLiteral('pipewright', true),
  );
  const placer = commentPlacer([code, ...consts.map((c) => c.value)], comments);
  const print = (marks?: Origin[]) => {
    const commentsOf = placer();
    const declare = (name: string, value: Code, exported: boolean) =>
      f.createVariableStatement(
        exported ? [f.createModifier(ts.SyntaxKind.ExportKeyword)] : undefined,
        f.createVariableDeclarationList(
          [f.createVariableDeclaration(name, undefined, undefined, toExpression(value, marks, commentsOf))],
          ts.NodeFlags.Const,
        ),
      );
    // The document's own comments go above the export, with the comment above the document.
    const own = commentsOf(code);
    const main = declare(exportName, code, true);
    for (const line of [...header.slice(1), ...(own ? own.split('\n') : [])])
      ts.addSyntheticLeadingComment(main, ts.SyntaxKind.SingleLineCommentTrivia, line, true);
    return printStatements([importDecl, ...consts.map((c) => declare(c.name, c.value, false)), main]);
  };
  const header = [`Imported by pipewright from ${source}.`, ...(comment ? comment.split('\n') : [])];
  ts.addSyntheticLeadingComment(importDecl, ts.SyntaxKind.SingleLineCommentTrivia, ` ${header[0]}`, true);
  const origins: Origin[] = [];
  const marked = { text: print(origins), origins };
  // The plain text is printed only for the code that is finally written, not for each fallback round.
  return {
    exportName,
    marked,
    fallbacks: fallbacksOf(built),
    get text() {
      return print();
    },
  };
}
