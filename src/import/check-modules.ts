import { resolve } from 'node:path';
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

/** Our style, where the repository's prettier configuration says nothing. */
const OWN_STYLE = { singleQuote: true, printWidth: 110, trailingComma: 'all' } as const;
/** The options of a repository's configuration that shape a module's text (plugins and parsers stay ours). */
const STYLE_OPTIONS = [
  'printWidth',
  'tabWidth',
  'useTabs',
  'semi',
  'singleQuote',
  'quoteProps',
  'trailingComma',
  'bracketSpacing',
  'bracketSameLine',
  'objectWrap',
  'arrowParens',
  'endOfLine',
] as const;
interface Style {
  readonly options: Record<string, unknown>;
  /** Whether the repository has a prettier configuration (else the options are our own). */
  readonly repository: boolean;
}
const styles = new Map<string, Promise<Style>>();

/**
 * The style modules written into `outDir` are formatted in: the repository's prettier configuration for a
 * TypeScript file there (`.prettierrc`, `prettier.config.*`, package.json's `prettier`, `.editorconfig`, overrides
 * for the path), over our own, so an import passes the repository's own `prettier --check`. Read once per folder.
 */
function styleFor(outDir: string, loaded: Prettier): Promise<Style> {
  let style = styles.get(outDir);
  if (!style) {
    style = loaded
      .resolveConfig(resolve(outDir, 'module.ts'), { editorconfig: true })
      .catch(() => null)
      .then((found) => ({
        options: {
          ...OWN_STYLE,
          ...Object.fromEntries(
            STYLE_OPTIONS.flatMap((key) => (found?.[key] !== undefined ? [[key, found[key]]] : [])),
          ),
        },
        repository: found !== null,
      }));
    styles.set(outDir, style);
  }
  return style;
}

/**
 * Removes the origin marks of generated modules and formats them, one at a time (all at once would hold every
 * module's syntax tree together), in the style of the repository that holds `outDir`. The code is plain
 * JavaScript (no type annotations but a generated function's), which acorn parses faster than babel (a fifth of
 * the formatting time) and babel faster than typescript, each to the same text.
 */
export async function formatModules(marked: readonly MarkedText[], outDir: string): Promise<string[]> {
  const loaded = await (prettier ??= import('prettier'));
  const { options } = await styleFor(outDir, loaded);
  const formatted: string[] = [];
  for (const module of marked)
    formatted.push(
      await loaded.format(removeMarks(module), {
        ...options,
        // A module with a generated function (`(identifier: string) =>`, similar-stages.ts) has type annotations.
        parser: TYPED_PARAMETER.test(module.text) ? 'typescript' : 'acorn',
      }),
    );
  return formatted;
}

/**
 * The generated pipewright.config.ts in the repository's style when it has a prettier configuration; as written
 * (JSON literals) otherwise.
 */
export async function formatConfigText(text: string, outDir: string): Promise<string> {
  const loaded = await (prettier ??= import('prettier'));
  const { options, repository } = await styleFor(outDir, loaded);
  return repository ? loaded.format(text, { ...options, parser: 'acorn' }) : text;
}
