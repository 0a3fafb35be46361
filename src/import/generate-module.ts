import { ts } from 'ts-morph';
import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { usedNames, type Code, type MethodCall, type Origin } from './code.js';
import { hoistShared, STEP_METHODS } from './shared-consts.js';
import { variableName } from './variable-name.js';
import { connectorCode, pipelineCode, projectCode } from './from-document.js';
import type { ImportContext } from './lifted.js';
import { environmentCode, infrastructureCode, inputSetCode, overlayInputSetCode, serviceCode, templateCode, triggerCode } from './from-kinds.js';
import { printStatements, toExpression } from './print.js';
import { fallbacksOf, type Fallback } from './fallbacks.js';
import { commentPlacer } from './comment-placement.js';
import type { Comments } from './read-documents.js';
import type { Demotions } from './verify.js';

const f = ts.factory;

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
  const { code, consts } = hoistShared(joinStepCalls(built), new Set([exportName, ...names]));
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
    // A shared const's comments go above the const, not between `=` and its value.
    const shared = consts.map((c) => {
      const above = commentsOf(c.value);
      const statement = declare(c.name, c.value, false);
      for (const line of above ? above.split('\n') : []) ts.addSyntheticLeadingComment(statement, ts.SyntaxKind.SingleLineCommentTrivia, line, true);
      return statement;
    });
    return printStatements([importDecl, ...shared, main]);
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
