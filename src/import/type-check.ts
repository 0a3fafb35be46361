import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { ts } from 'ts-morph';
import type { Diagnostic } from '../core/diagnostics.js';
import { MARK_PREFIX } from './print.js';

let loaded: typeof ts | undefined;
/**
 * TypeScript (ts-morph's), loaded when first needed: a large import's threads need it only for a module with a
 * type error (or text that looks like a mark), and loading it took a quarter of a second in each.
 */
export const typescript = (): typeof ts =>
  (loaded ??= (createRequire(import.meta.url)('ts-morph') as typeof import('ts-morph')).ts);

/**
 * The types of the running pipewright, so generated code is checked against the builders it will use. Under the
 * tests the code runs from src/, and the built declarations in dist/ are those types (`npm test` builds first):
 * checking against the sources would check them too, with Node's types absent.
 */
function ownTypes(): string {
  for (const candidate of ['../index.d.ts', '../../dist/index.d.ts']) {
    const declarations = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(declarations)) return declarations;
  }
  return fileURLToPath(new URL('../index.ts', import.meta.url));
}

/**
 * ts-morph's copy of TypeScript keeps its lib files (`lib.es2022.d.ts`, ...) in memory, in its companion
 * package, under a folder that is not on disk. That package is found from ts-morph, which depends on it.
 */
function tsMorphLibraries(): { folder: string; files: ReadonlyArray<{ fileName: string; text: string }> } {
  const fromTsMorph = createRequire(createRequire(import.meta.url).resolve('ts-morph'));
  const common = fromTsMorph('@ts-morph/common') as typeof import('@ts-morph/common');
  return { folder: common.libFolderInMemoryPath, files: common.getLibFiles() };
}

/** Printed text with origin marks (`print.ts`), and how many marks the printer wrote, when it is known. */
export interface MarkedText {
  readonly text: string;
  readonly marks?: number;
}

/** A generated module as printed with origin marks. */
export interface MarkedModule extends MarkedText {
  /** Where it will be written, relative to the output folder. */
  readonly path: string;
  /** A module the others import, there for its types: not checked (no problems are reported for it). */
  readonly context?: boolean;
}

export interface TypeProblem {
  readonly diagnostic: Diagnostic;
  /** The number of the innermost origin mark around the error (it indexes the module's origins), if any. */
  readonly mark: number | undefined;
}

const MARK = new RegExp(`^/\\*${MARK_PREFIX}(\\d+)\\*/$`);

/**
 * The comments between the token before `position` and the next one (`position` being a node's full start).
 * TypeScript calls those on the previous token's line trailing and the rest leading; here they are all one.
 */
const commentsAt = (text: string, position: number): ts.CommentRange[] => [
  ...(typescript().getTrailingCommentRanges(text, position) ?? []),
  ...(typescript().getLeadingCommentRanges(text, position) ?? []),
];

/** Every comment of a parsed file, by position: comments live in the trivia before a node or its tokens. */
function commentRanges(file: ts.SourceFile): ts.CommentRange[] {
  const text = file.getFullText();
  const found = new Map<number, ts.CommentRange>();
  const visit = (node: ts.Node): void => {
    for (const range of commentsAt(text, node.getFullStart())) found.set(range.pos, range);
    typescript().forEachChild(node, visit);
  };
  visit(file);
  return [...found.values()].sort((a, b) => a.pos - b.pos);
}

const markOf = (text: string, range: ts.CommentRange): number | undefined => {
  const match = MARK.exec(text.slice(range.pos, range.end));
  return match ? Number(match[1]) : undefined;
};

/** The innermost node around `position` and its ancestors, innermost first. */
function ancestorsAt(file: ts.SourceFile, position: number): ts.Node[] {
  const chain: ts.Node[] = [file];
  for (let node: ts.Node | undefined = file; node;) {
    const parent: ts.Node = node;
    node = typescript().forEachChild(parent, (child) =>
      child.getFullStart() <= position && position < child.getEnd() ? child : undefined,
    );
    if (node) chain.push(node);
  }
  return chain.reverse();
}

/** The origin mark written just before the node at `position` or one of its ancestors, innermost first. */
function markAt(file: ts.SourceFile, position: number): number | undefined {
  const text = file.getFullText();
  for (const node of ancestorsAt(file, position)) {
    // The trivia before a node holds only blanks and comments, so a mark found there is a comment, never a string.
    for (const range of commentsAt(text, node.getFullStart())) {
      const mark = markOf(text, range);
      if (mark !== undefined) return mark;
    }
  }
  return undefined;
}

/**
 * The compiler options generated code is checked with, as a tsconfig.json writes them (the native compiler
 * reads them from one), with `pipewright` resolved to the running copy's types.
 */
export const checkOptions = () => ({
  strict: true,
  noEmit: true,
  target: 'ES2022',
  // Builders need no DOM types; leaving them out spares parsing and binding them.
  lib: ['ES2022'],
  module: 'ESNext',
  moduleResolution: 'Bundler',
  skipLibCheck: true,
  types: [],
  paths: { pipewright: [ownTypes()] },
});

const MARK_ANYWHERE = new RegExp(`/\\*${MARK_PREFIX}(\\d+)\\*/ ?`, 'g');

/**
 * True when the look-alikes of marks in `text` are exactly the `marks` marks the printer wrote, numbered 0 to
 * marks - 1 once each: then no string holds one, and they can be cut out without parsing the module.
 */
function onlyMarksLookLikeMarks(text: string, marks: number): boolean {
  const seen = new Set<number>();
  for (const match of text.matchAll(MARK_ANYWHERE)) {
    const mark = Number(match[1]);
    if (mark >= marks || seen.has(mark)) return false;
    seen.add(mark);
  }
  return seen.size === marks;
}

/**
 * The module's text without its origin marks (and the blank printed after each): what is written. Marks are
 * found as comments of the parsed module, so text that merely looks like one inside a string stays; when the
 * number of marks written is given and nothing else looks like one (all but never otherwise), they are cut out
 * without the parse, which cost a tenth of a large import's time.
 */
export function removeMarks({ text, marks }: MarkedText): string {
  if (marks !== undefined && onlyMarksLookLikeMarks(text, marks)) return text.replace(MARK_ANYWHERE, '');
  const file = typescript().createSourceFile('module.ts', text, typescript().ScriptTarget.ES2022, true);
  let plain = '';
  let from = 0;
  for (const range of commentRanges(file)) {
    if (markOf(text, range) === undefined) continue;
    plain += text.slice(from, range.pos);
    from = text[range.end] === ' ' ? range.end + 1 : range.end;
  }
  return plain + text.slice(from);
}

/** A type error in a generated module at `start`, with the origin mark around it. */
export function typeProblem(file: ts.SourceFile, path: string, start: number, message: string): TypeProblem {
  const { line, character } = file.getLineAndCharacterOfPosition(start);
  return {
    mark: markAt(file, start),
    diagnostic: {
      code: 'generated-code-type-error',
      severity: 'error',
      message: `generated code does not type-check: ${message}`,
      path: [],
      location: { file: path, line: line + 1, column: character + 1 },
      hint: 'this is a bug in pipewright import; please report it with the YAML document',
    },
  };
}

/** A file's folders, up to the root. */
const ancestors = (file: string): string[] => {
  const found: string[] = [];
  for (let folder = dirname(file); !found.includes(folder); folder = dirname(folder)) found.push(folder);
  return found;
};

export type TypeChecker = (modules: readonly MarkedModule[]) => TypeProblem[][];

/**
 * Type-checks generated modules in memory against pipewright's own types, one program per call. The library's
 * declaration files are parsed once and shared by every later program, so a call costs its modules (and the
 * checker's look at the builders they use), not the library again.
 */
export function createTypeChecker(outDir: string): TypeChecker {
  const options = typescript().convertCompilerOptionsFromJson(checkOptions(), resolve(outDir)).options;
  const host = typescript().createCompilerHost(options, true);
  const { folder, files } = tsMorphLibraries();
  const libraries = new Map(files.map((lib) => [`${folder}/${lib.fileName}`, lib.text]));
  host.getDefaultLibLocation = () => folder;
  host.getDefaultLibFileName = (settings) => `${folder}/${typescript().getDefaultLibFileName(settings)}`;
  const shared = new Map<string, ts.SourceFile | undefined>();
  let modules = new Map<string, string>();
  let folders = new Set<string>();
  const readLibrary = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.fileExists = (name) => modules.has(name) || libraries.has(name) || fileExists(name);
  // Generated modules import each other (`../pipelines/...js`): their folders exist only in memory.
  const directoryExists = host.directoryExists?.bind(host);
  host.directoryExists = (name) => folders.has(name) || (directoryExists?.(name) ?? true);
  host.readFile = (name) => modules.get(name) ?? libraries.get(name) ?? readFile(name);
  host.getSourceFile = (name, version, onError) => {
    const text = modules.get(name);
    if (text !== undefined) return typescript().createSourceFile(name, text, version, true);
    const library = libraries.get(name);
    if (library !== undefined && !shared.has(name))
      shared.set(name, typescript().createSourceFile(name, library, version));
    if (!shared.has(name)) shared.set(name, readLibrary(name, version, onError));
    return shared.get(name);
  };
  return (checked) => {
    const names = checked.map((module) => join(resolve(outDir), module.path));
    modules = new Map(names.map((name, index) => [name, checked[index]!.text]));
    folders = new Set(names.flatMap((name) => ancestors(name)));
    const program = typescript().createProgram({
      rootNames: names.filter((_, index) => !checked[index]!.context),
      options,
      host,
    });
    return names.map((name, index) => {
      if (checked[index]!.context) return [];
      const file = program.getSourceFile(name)!;
      const diagnostics = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
      return diagnostics.map((d) =>
        typeProblem(
          file,
          checked[index]!.path,
          d.start ?? 0,
          typescript().flattenDiagnosticMessageText(d.messageText, '\n'),
        ),
      );
    });
  };
}
