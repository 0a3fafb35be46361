import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { chained, lit, mapChildren, refsIn, usedNames, type Code, type MethodCall, type Origin } from './code.js';
import { hoistShared, STEP_METHODS } from './shared-consts.js';
import { stageFunctions } from './similar-stages.js';
import { variableName } from './variable-name.js';
import { connectorCode, pipelineCode, projectCode } from './from-document.js';
import type { ImportContext, Refer } from './lifted.js';
import { specifier } from './module-links.js';
import {
  environmentCode,
  infrastructureCode,
  inputSetCode,
  overlayInputSetCode,
  serviceCode,
  templateCode,
  triggerCode,
} from './from-kinds.js';
import { codeText, constStatement, importStatement, printStatements, type Statement } from './print.js';
import { fallbacksOf, type Fallback } from './fallbacks.js';
import { commentPlacer } from './comment-placement.js';
import type { Comments } from './read-documents.js';
import type { Demotions } from './verify.js';
import type { PublishFlags } from '../ir/node.js';
import type { Suppression } from '../core/diagnostics.js';
import { headerLine } from './module-header.js';

/**
 * Steps in a row go in one call, `.step(a, b)` rather than `.step(a).step(b)`: the same steps (the methods take
 * any number), and two lines fewer per step once formatted.
 */
function joinStepCalls(code: Code): Code {
  if (code.kind !== 'call' || !code.chain) return mapChildren(code, joinStepCalls);
  const chain: MethodCall[] = [];
  for (const { method, args } of code.chain) {
    const joined = args.map(joinStepCalls);
    const last = chain[chain.length - 1];
    if (last && last.method === method && STEP_METHODS.has(method))
      chain[chain.length - 1] = { method, args: [...last.args, ...joined] };
    else chain.push({ method, args: joined });
  }
  return { ...code, args: code.args.map(joinStepCalls), chain };
}

/**
 * References to other generated modules: each export imported once, under its own name unless that is taken here
 * (then `<name><Kind>`-like aliases: `release as releasePipeline`), with the relative `.js` path ESM needs.
 */
function linkImports(
  code: Code,
  path: string,
  taken: Set<string>,
): { linked: Code; imports: Statement[]; locals: string[] } {
  const found = refsIn(code);
  if (!found.length) return { linked: code, imports: [], locals: [] };
  const localOf = new Map<string, string>();
  const byModule = new Map<string, Array<{ name: string; local: string }>>();
  for (const { module, name, target } of found) {
    const key = `${module}#${name}`;
    if (localOf.has(key)) continue;
    let local = name;
    for (let n = 2; taken.has(local); n++)
      local = `${name}${target[0]!.toUpperCase()}${target.slice(1)}${n > 2 ? n - 1 : ''}`;
    taken.add(local);
    localOf.set(key, local);
    byModule.set(module, [...(byModule.get(module) ?? []), { name, local }]);
  }
  const rewrite = (node: Code): Code =>
    node.kind === 'ref' ? { ...node, local: localOf.get(`${node.module}#${node.name}`)! } : mapChildren(node, rewrite);
  const imports = [...byModule.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([module, names]) => importStatement(names, specifier(path, module)));
  return { linked: rewrite(code), imports, locals: [...localOf.values()] };
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
  /** What the platform holds beyond the YAML (a template's stable version), for the builders' options. */
  readonly publishFlags?: PublishFlags;
  /** Findings the document's source holds on purpose: `.suppress(code, reason)` on the export, and a comment. */
  readonly suppressions?: readonly Suppression[];
}

/** The comment above an export whose findings are suppressed on import: what it is, and how it ends. */
const SUPPRESSED_COMMENT = [
  ' The platform holds this document as it is, though pipewright refuses it: the findings are suppressed below',
  ' (with their reasons) so that the project compiles, and publish sends what the platform has. Fix the',
  ' document, then remove the .suppress() calls.',
].join('\n');

const CODE_OF: Record<
  ResourceKind,
  (document: Record<string, unknown>, context: ImportContext, flags: PublishFlags | undefined) => Code
> = {
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
  /** The code of the exported resource (before shared steps are hoisted). */
  readonly code: Code;
  /** The other generated modules it imports (paths relative to the output folder). */
  readonly imports: readonly string[];
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
  {
    kind,
    document,
    source,
    comment,
    comments = new WeakMap(),
    publishFlags,
    suppressions = [],
    path = '',
  }: ModuleInput & { readonly path?: string },
  demoted: Demotions = new WeakMap(),
  { refer, exportName: kept }: { readonly refer?: Refer; readonly exportName?: string } = {},
): GeneratedModule {
  const body = (document[kindRow(kind).rootKey] ?? {}) as Record<string, unknown>;
  const built = chained(
    CODE_OF[kind](document, { comments, demoted, ...(refer ? { refer } : {}) }, publishFlags),
    suppressions.map(({ code, reason }) => ({ method: 'suppress', args: [lit(code), lit(reason)] })),
  );
  // Names imported from pipewright are taken: a pipeline called `ci` must not shadow the `ci` builder.
  const names = usedNames(built);
  // The name referrers import, once chosen, stays (a fallback may bring in other builders' names).
  let exportName = kept !== undefined && !names.has(kept) ? kept : variableName(String(body.identifier ?? kind), kind);
  while (names.has(exportName)) exportName = `${exportName}${kind[0]!.toUpperCase()}${kind.slice(1)}`;
  const { linked, imports, locals } = linkImports(built, path, new Set([exportName, ...names]));
  const taken = new Set([exportName, ...names, ...locals]);
  const hoisted = hoistShared(joinStepCalls(linked), taken);
  // Stages alike but for a few texts: one function, after the consts it may use.
  const similar = stageFunctions(hoisted.code, taken);
  const code = similar.code;
  const consts = [...hoisted.consts, ...similar.consts];
  // The header is one line whatever the source's name holds (pull reads it back as the file's first line).
  const header = [
    headerLine(source),
    ...(comment ? [comment] : []),
    ...(suppressions.length ? [SUPPRESSED_COMMENT] : []),
  ];
  const importDecl = importStatement(
    [...names].sort().map((name) => ({ name })),
    'pipewright',
    [` ${header[0]}`],
  );
  const placer = commentPlacer([code, ...consts.map((c) => c.value)], comments);
  const print = (marks?: Origin[]) => {
    const commentsOf = placer();
    const lines = (text: string | undefined) => (text ? [text] : []);
    // The document's own comments go above the export, with the comment above the document (asked for first:
    // a comment is placed once, at the first node that asks for it).
    const own = lines(commentsOf(code));
    const main = constStatement(exportName, codeText(code, marks, commentsOf), true, [...header.slice(1), ...own]);
    // A shared const's comments go above the const, not between `=` and its value.
    const shared = consts.map((c) => {
      const above = lines(commentsOf(c.value));
      return constStatement(c.name, codeText(c.value, marks, commentsOf), false, above);
    });
    return printStatements([importDecl, ...imports, ...shared, main], 1 + imports.length);
  };
  const origins: Origin[] = [];
  const marked = { text: print(origins), origins };
  // The plain text is printed only for the code that is finally written, not for each fallback round.
  return {
    exportName,
    code: built,
    imports: [...new Set(refsIn(linked).map((r) => r.module))],
    marked,
    fallbacks: fallbacksOf(built),
    get text() {
      return print();
    },
  };
}
