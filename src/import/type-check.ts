import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project, ts, type SourceFile } from 'ts-morph';
import type { Diagnostic } from '../compile/diagnostics.js';
import type { Origin } from './code.js';
import { MARK_PREFIX } from './print.js';

/** The types of the running pipewright, so generated code is checked against the builders it will use. */
function ownTypes(): string {
  const declarations = fileURLToPath(new URL('../index.d.ts', import.meta.url));
  return existsSync(declarations) ? declarations : fileURLToPath(new URL('../index.ts', import.meta.url));
}

export interface CheckedModule {
  readonly path: string;
  /** The module's text with origin marks (`print.ts`), and the origins they index. */
  readonly marked: { readonly text: string; readonly origins: readonly Origin[] };
}

export interface TypeProblem {
  readonly diagnostic: Diagnostic;
  /** The code the error is in (the innermost marked call around it), if any. */
  readonly origin: Origin | undefined;
}

const MARK = new RegExp(`/\\*${MARK_PREFIX}(\\d+)\\*/`);

/** The origin mark written just before `position`'s node or one of its ancestors, innermost first. */
function originAt(file: SourceFile, position: number, origins: readonly Origin[]): Origin | undefined {
  const text = file.getFullText();
  for (let node = file.getDescendantAtPos(position); node; node = node.getParent()) {
    // The trivia before a node holds only blanks and comments, so a mark there is a comment, never a string.
    const mark = MARK.exec(text.slice(node.getPos(), node.getStart()));
    if (mark) return origins[Number(mark[1])];
  }
  return undefined;
}

/**
 * Type-checks generated modules in memory against pipewright's own types. One checker is kept for the whole
 * import, so the library's declarations are read once however often modules are checked again after a fallback.
 */
export type TypeChecker = (modules: readonly CheckedModule[]) => TypeProblem[][];

export function createTypeChecker(outDir: string): TypeChecker {
  const project = new Project({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      // Builders need no DOM types; leaving them out spares parsing and binding them.
      lib: ['lib.es2022.d.ts'],
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      types: [],
      paths: { pipewright: [ownTypes()] },
    },
    skipAddingFilesFromTsConfig: true,
  });
  let previous: SourceFile[] = [];
  return (modules) => {
    for (const file of previous) project.removeSourceFile(file);
    const files = modules.map((m) => project.createSourceFile(join(resolve(outDir), m.path), m.marked.text, { overwrite: true }));
    previous = files;
    const program = project.getProgram().compilerObject;
    return files.map((file, index) => {
      const own = program.getSourceFile(file.getFilePath())!;
      const diagnostics = [...program.getSyntacticDiagnostics(own), ...program.getSemanticDiagnostics(own)];
      return diagnostics.map((d) => {
        const start = d.start ?? 0;
        const { line, column } = file.getLineAndColumnAtPos(start);
        const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
        return {
          origin: originAt(file, start, modules[index]!.marked.origins),
          diagnostic: {
            code: 'generated-code-type-error',
            severity: 'error' as const,
            message: `generated code does not type-check: ${message}`,
            path: [],
            at: `${modules[index]!.path}:${line}:${column}`,
            hint: 'this is a bug in pipewright import; please report it with the YAML document',
          },
        };
      });
    });
  };
}
