import { ts } from 'ts-morph';
import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { usedNames, type Code } from './code.js';
import { connectorCode, pipelineCode, projectCode } from './from-document.js';
import { environmentCode, infrastructureCode, inputSetCode, overlayInputSetCode, serviceCode, templateCode, triggerCode } from './from-kinds.js';
import { printStatements, toExpression } from './print.js';
import type { Comments } from './read-documents.js';

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
  const visit = (node: Code): void => {
    if (node.kind !== 'call') return;
    for (const { args } of node.chain ?? [])
      for (const arg of args) {
        if (arg.kind === 'call' && STEP_CALLEES.has(arg.callee))
          counts.set(JSON.stringify(arg), (counts.get(JSON.stringify(arg)) ?? 0) + 1);
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
          entry = { name, value: arg };
          consts.set(key, entry);
        }
        return { kind: 'const', name: entry.name, value: arg } as Code;
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
  /** Comments above stages and steps, kept as `//` lines. */
  readonly comments?: Comments;
}

const CODE_OF: Record<ResourceKind, (document: Record<string, unknown>, comments: Comments) => Code> = {
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

/** The module's source text before formatting: imports, shared steps, then the exported resource. */
export function generateModule({ kind, document, source, comment, comments = new WeakMap() }: ModuleInput): {
  text: string;
  exportName: string;
} {
  const body = (document[kindRow(kind).rootKey] ?? {}) as Record<string, unknown>;
  const exportName = variableName(String(body.identifier ?? kind), kind);
  const { code, consts } = hoistSharedSteps(CODE_OF[kind](document, comments), new Set([exportName]));
  const names = new Set<string>();
  for (const c of consts) usedNames(c.value, names);
  usedNames(code, names);
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
  const declare = (name: string, value: Code, exported: boolean) =>
    f.createVariableStatement(
      exported ? [f.createModifier(ts.SyntaxKind.ExportKeyword)] : undefined,
      f.createVariableDeclarationList(
        [f.createVariableDeclaration(name, undefined, undefined, toExpression(value))],
        ts.NodeFlags.Const,
      ),
    );
  const header = [`Imported by pipewright from ${source}.`, ...(comment ? comment.split('\n') : [])];
  ts.addSyntheticLeadingComment(importDecl, ts.SyntaxKind.SingleLineCommentTrivia, ` ${header[0]}`, true);
  const main = declare(exportName, code, true);
  for (const line of header.slice(1))
    ts.addSyntheticLeadingComment(main, ts.SyntaxKind.SingleLineCommentTrivia, line, true);
  const statements = [importDecl, ...consts.map((c) => declare(c.name, c.value, false)), main];
  return { text: printStatements(statements), exportName };
}
