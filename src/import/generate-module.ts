import { ts } from 'ts-morph';
import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { originOf, usedNames, withOrigin, type Code, type Origin } from './code.js';
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

const STEP_CALLEES = new Set(['shell', 'step', 'raw.step']);

const stepIdentifier = (code: Code): string | undefined => {
  if (code.kind !== 'call' || code.args[0]?.kind !== 'object') return undefined;
  const id = code.args[0].entries.find(([key]) => key === 'identifier')?.[1];
  return id?.kind === 'literal' && typeof id.value === 'string' ? id.value : undefined;
};

/**
 * Steps used more than once with identical code become one `const`, as a person would write a shared step.
 * Returns the rewritten code and the constants in first-use order.
 */
function hoistSharedSteps(
  code: Code,
  taken: Set<string>,
): { code: Code; consts: Array<{ name: string; value: Code }> } {
  const counts = new Map<string, number>();
  // The YAML nodes behind each shared step: a type error in the const demotes all of them.
  const nodes = new Map<string, object[]>();
  const visit = (node: Code): void => {
    if (node.kind !== 'call') return;
    for (const { args } of node.chain ?? [])
      for (const arg of args) {
        if (arg.kind === 'call' && STEP_CALLEES.has(arg.callee)) {
          const key = JSON.stringify(arg);
          counts.set(key, (counts.get(key) ?? 0) + 1);
          nodes.set(key, [...(nodes.get(key) ?? []), ...(originOf(arg)?.nodes ?? [])]);
        }
        visit(arg);
      }
  };
  visit(code);
  const consts = new Map<string, { name: string; value: Code }>();
  const rewrite = (node: Code): Code => {
    if (node.kind !== 'call') return node;
    const chain = node.chain?.map(({ method, args }) => ({
      method,
      args: args.map((arg) => {
        const key = JSON.stringify(arg);
        if (!(arg.kind === 'call' && STEP_CALLEES.has(arg.callee) && (counts.get(key) ?? 0) > 1)) return rewrite(arg);
        let entry = consts.get(key);
        if (!entry) {
          let name = variableName(stepIdentifier(arg) ?? 'step', 'step');
          while (taken.has(name)) name = `${name}Step`;
          taken.add(name);
          const origin = originOf(arg);
          entry = { name, value: origin ? withOrigin(arg, { nodes: nodes.get(key)!, level: origin.level }) : arg };
          consts.set(key, entry);
        }
        return { kind: 'const', name: entry.name, value: entry.value } as Code;
      }),
    }));
    return { ...node, ...(chain ? { chain } : {}) };
  };
  return { code: rewrite(code), consts: [...consts.values()] };
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
  const { code, consts } = hoistSharedSteps(built, new Set([exportName, ...names]));
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
