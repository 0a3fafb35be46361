import { createTypeChecker, removeMarks, type MarkedModule, type MarkedText, type TypeProblem } from './type-check.js';

/** The type errors of each module of a group (none: it type-checks). */
export type ModuleProblems = ReadonlyArray<readonly TypeProblem[]>;

/** Type-checks a group of modules: one unit of work, in a worker, in TypeScript 7's compiler or in this thread. */
export type ModuleChecker = (modules: readonly MarkedModule[]) => Promise<ModuleProblems>;

/** A checker that works in this thread; the library's declarations are read once for all its calls. */
export function localChecker(outDir: string): ModuleChecker {
  const check = createTypeChecker(outDir);
  return async (modules) => check(modules);
}

type Prettier = typeof import('prettier');

/** The parameter list `similar-stages.ts` prints, the one type annotation generated code holds. */
const TYPED_PARAMETER = /: string\) =>\n/;
let prettier: Promise<Prettier> | undefined;

/**
 * Removes the origin marks of generated modules and formats them, one at a time (all at once would hold every
 * module's syntax tree together). The code is plain JavaScript (no type annotations but a generated function's), which acorn parses faster
 * than babel (a fifth of the formatting time) and babel faster than typescript, each to the same text.
 */
export async function formatModules(marked: readonly MarkedText[]): Promise<string[]> {
  const loaded = await (prettier ??= import('prettier'));
  const formatted: string[] = [];
  for (const module of marked)
    formatted.push(
      await loaded.format(removeMarks(module), {
        // A module with a generated function (`(identifier: string) =>`, similar-stages.ts) has type annotations.
        parser: TYPED_PARAMETER.test(module.text) ? 'typescript' : 'acorn',
        singleQuote: true,
        printWidth: 110,
        trailingComma: 'all',
      }),
    );
  return formatted;
}
