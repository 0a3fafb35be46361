import { createTypeChecker, withoutMarks, type MarkedModule, type TypeProblem } from './type-check.js';

/** A checked module: its text without origin marks when it type-checks, else its problems. */
export type ModuleOutcome = { readonly text: string } | { readonly problems: readonly TypeProblem[] };

/** Type-checks a group of modules: one unit of work, in a worker or in this thread. */
export type ModuleChecker = (modules: readonly MarkedModule[]) => Promise<ModuleOutcome[]>;

/** A checker that works in this thread; the library's declarations are read once for all its calls. */
export function localChecker(outDir: string): ModuleChecker {
  const check = createTypeChecker(outDir);
  return async (modules) =>
    check(modules).map(({ problems, file }) => (problems.length ? { problems } : { text: withoutMarks(file) }));
}

type Prettier = typeof import('prettier');
let prettier: Promise<Prettier> | undefined;

/**
 * Formats modules one at a time (all at once would hold every module's syntax tree together). The generated
 * code is plain JavaScript (no type annotations), which babel parses faster than typescript, to the same text.
 */
export async function formatModules(texts: readonly string[]): Promise<string[]> {
  const loaded = await (prettier ??= import('prettier'));
  const formatted: string[] = [];
  for (const text of texts)
    formatted.push(
      await loaded.format(text, { parser: 'babel', singleQuote: true, printWidth: 110, trailingComma: 'all' }),
    );
  return formatted;
}
