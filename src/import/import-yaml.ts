import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { KINDS, rootKeyList, type ResourceKind } from '../catalog/kinds.js';
import { confinedPath, confinedPathOrThrow } from '../core/confined-path.js';
import { DiagnosticError, diagnosticOf, hasErrors, type Diagnostic } from '../core/diagnostics.js';
import { formatConfigText, formatModules, localChecker, type ModuleChecker } from './check-modules.js';
import { createImportPool } from './check-pool.js';
import type { Code, Origin } from './code.js';
import { DocumentSource, type ImportInput, type ImportMode } from './document-source.js';
import { generateModule } from './generate-module.js';
import { ModuleLinks } from './module-links.js';
import { fallbackDiagnostic, type Fallback } from './fallbacks.js';
import { nativeChecker, nativeCompiler } from './native-check.js';
import type { MarkedModule, MarkedText, TypeProblem } from './type-check.js';
import type { Demotions } from './verify.js';
import { editedFindings, planWrites, readWrittenHashes, writtenHashesFile, type FileOutcome } from './edited-files.js';

export type { ImportInput } from './document-source.js';

export interface ImportOptions {
  readonly inputs: readonly ImportInput[];
  readonly outDir: string;
  /** `files`: one module per document in outDir. `project`: a ready project (config + kind folders). */
  readonly mode: ImportMode;
  /**
   * Project mode: fields the generated pipewright.config.ts holds beside `include` and `outDir` (pull: the platform's
   * address and account, and `gitFiles`), written as JSON literals.
   */
  readonly config?: Readonly<Record<string, unknown>>;
  /**
   * Keep the modules edited by hand since the last import into outDir (`pipewright.import.json` holds the hash of
   * each file import wrote), replacing them only with `force`. Pull plans its own writes, so it leaves this out.
   */
  readonly keepEdits?: { readonly force: boolean };
}

/** How much of a module is typed: every node, some as `stage()`/`step()`/`raw.*`, or a document to look at. */
type ModuleStatus = 'typed' | 'partly-raw' | 'needs-attention';

/** One imported document: the module it went to and what was found about it. */
interface ImportedModule {
  /** Where it was written, relative to outDir (not written when generating its code failed). */
  readonly path: string;
  readonly written: boolean;
  /** The YAML it came from (`file`, or `file#2` for a file's second document). */
  readonly source: string;
  readonly kind: ResourceKind;
  /** `needs-attention`: validate finds errors in the document (it is written as it is), or no code could be written. */
  readonly status: ModuleStatus;
  /** What validate says of the document, and each fallback (`import-fallback`). */
  readonly diagnostics: Diagnostic[];
}

export interface ImportResult {
  /** Written files, relative to outDir. */
  readonly written: string[];
  readonly documents: number;
  /** Every imported document, in reading order. */
  readonly modules: ImportedModule[];
  /**
   * Every finding: about the files (syntax, aliases, documents skipped), then each module's. Errors in a file stop
   * only its documents; import fails (throws) only when nothing can be written.
   */
  readonly diagnostics: Diagnostic[];
  /** The findings that are not errors. */
  readonly warnings: Diagnostic[];
  /** With `keepEdits`: what happened to each file (created, updated, unchanged, kept as edited, overwritten). */
  readonly files?: FileOutcome[];
}

/**
 * The project's config: `include` names every kind's folder from the table of kinds, the folders the project
 * mode writes modules into (a kind left out would be compiled by no one and published never); `extra` fields
 * (pull's `gitFiles`, ...) after them (prettier formats the module after).
 */
const projectConfigText = (
  extra: Readonly<Record<string, unknown>> = {},
): string => `import { defineConfig } from 'pipewright';

export default defineConfig({
  include: [
${KINDS.map((row) => `    '${row.folder}/**/*.ts',`).join('\n')}
  ],
  outDir: 'out',
${Object.entries(extra)
  .map(([key, value]) => `  ${key}: ${JSON.stringify(value, null, 2).replace(/\n/g, '\n  ')},\n`)
  .join('')}});
`;

/** Below this many documents the import stays in one thread: starting workers costs more than it saves. */
const MIN_DOCUMENTS_FOR_WORKERS = 100;

/**
 * A group of modules is checked as one program: at most this many modules and about this much text, which
 * bounds a checker's memory whatever the size of the documents.
 */
const GROUP = { modules: 250, characters: 2_500_000 };

/** Modules generated between two looks at the event loop (answers of the checker, its process exiting). */
const YIELD_EVERY = 10;

/** The builder a module's resource is written with (`pipeline`, `raw.pipeline`, ...). */
const calleeOf = (code: Code | undefined): string | undefined => (code?.kind === 'call' ? code.callee : undefined);

/** Removes the marks of generated modules and formats them. */
type Formatter = (modules: readonly MarkedText[]) => Promise<string[]>;

/**
 * Generates each document's module, type-checks and formats it (in worker threads for large imports, while
 * this thread generates the next group). Code that the builders reproduce at run time but whose types refuse
 * it (a field the published schema lacks, say) falls back, node by node, to a more general builder
 * (typed -> `step()`/`stage()` -> `raw.*`) and is checked again, until every module type-checks. Modules
 * checked again join the next group rather than making one of their own: each program costs the checker a
 * fresh look at the library's types.
 */
async function checkedModules(
  {
    check,
    format,
    formatHere,
  }: { check: ModuleChecker; format: Formatter; formatHere?: (() => Promise<boolean>) | undefined },
  source: DocumentSource,
): Promise<{ texts: string[]; failures: Diagnostic[][]; fallbacks: Array<readonly Fallback[]> }> {
  const { documents, paths } = source;
  const links = new ModuleLinks(source);
  const latest: MarkedModule[] = [];
  const imports: Array<readonly number[]> = [];
  const demotions: Demotions[] = [];
  const texts: string[] = [];
  const failures: Diagnostic[][] = [];
  const origins: Array<readonly Origin[]> = [];
  const fallbacks: Array<readonly Fallback[]> = [];
  const importers: Array<Set<number>> = [];
  // Modules whose check under way used the former type of a module they import: generated again when it answers.
  const stale = new Set<number>();
  /** The modules importing `index` are generated and checked again (a reference to it may now stay text). */
  const relink = (index: number): void => {
    for (const importer of importers[index] ?? []) {
      if (importer === index) continue;
      if (texts[importer] === undefined && failures[importer] === undefined) {
        stale.add(importer);
        continue;
      }
      delete texts[importer];
      delete failures[importer];
      again.push(importer);
    }
  };
  const generate = (index: number): MarkedModule => {
    const generated = generateModule(
      { ...documents[index]!, path: paths[index]! },
      (demotions[index] ??= new WeakMap()),
      {
        refer: links.referFrom(index),
        exportName: links.exportNameOf(index),
      },
    );
    const { marked, fallbacks: found } = generated;
    const before = calleeOf(links.codeOf(index));
    links.generated(index, generated.exportName, generated.code);
    imports[index] = generated.imports.map((path) => links.indexOf(path)!);
    for (const target of imports[index]!) (importers[target] ??= new Set()).add(index);
    // Written with another builder after a fallback: what imports it was checked against its former type.
    if (before !== undefined && before !== calleeOf(generated.code)) relink(index);
    origins[index] = marked.origins;
    fallbacks[index] = found;
    return (latest[index] = { path: paths[index]!, text: marked.text, marks: marked.origins.length });
  };
  /**
   * The modules a group's modules import (and those import) that are not in the group: given to the checker as
   * context, so a module is checked against the types of the modules it imports, and not checked itself again.
   */
  const contextOf = (group: readonly number[]): MarkedModule[] => {
    const seen = new Set(group);
    const context: MarkedModule[] = [];
    const visit = (index: number): void => {
      for (const target of imports[index] ?? [])
        if (!seen.has(target)) {
          seen.add(target);
          context.push({ ...latest[target]!, context: true });
          visit(target);
        }
    };
    group.forEach(visit);
    return context;
  };
  const again: number[] = [];
  const settle = (index: number, problems: readonly TypeProblem[], formatted: string): void => {
    if (stale.delete(index)) {
      again.push(index);
      return;
    }
    if (!problems.length) {
      texts[index] = formatted;
      return;
    }
    const demoted = new Map<Origin, string>();
    for (const problem of problems) {
      const origin = problem.mark === undefined ? undefined : origins[index]![problem.mark];
      if (origin && !origin.last && !demoted.has(origin))
        demoted.set(
          origin,
          `its typed code does not type-check (${problem.diagnostic.message.replace(/^generated code does not type-check: /, '')})`,
        );
    }
    // Errors outside any chosen code, or in code with nothing more general to fall back to, are a bug.
    if (!demoted.size) {
      failures[index] = problems.map((problem) => problem.diagnostic);
      // Not written: what imports it must name it as text.
      links.forget(index);
      relink(index);
      return;
    }
    for (const [origin, why] of demoted)
      for (const node of origin.nodes) demotions[index]!.set(node, { level: origin.level + 1, why });
    again.push(index);
  };
  const running = new Set<Promise<void>>();
  let broken: { error: unknown } | undefined;
  // The next document to generate (in publish order, reading files only as far as that order needs).
  let upcoming = source.nextInPublishOrder();
  const take = (): number | undefined => {
    const index = upcoming;
    if (index !== undefined) upcoming = source.nextInPublishOrder();
    return index;
  };
  while (!broken && (upcoming !== undefined || again.length || running.size)) {
    if (upcoming === undefined && !again.length) {
      // Nothing left to generate: format what waits for the worker rather than wait for it, and then let the
      // worker's answers in, so that it is handed its next chunk too.
      if (await formatHere?.()) await new Promise((resolve) => setImmediate(resolve));
      else await Promise.race(running);
      continue;
    }
    const indexes: number[] = [];
    const modules: MarkedModule[] = [];
    for (let characters = 0; indexes.length < GROUP.modules && characters < GROUP.characters;) {
      const index = again.length ? again.shift()! : take();
      if (index === undefined) break;
      const module = generate(index);
      indexes.push(index);
      modules.push(module);
      characters += module.text.length;
      // A group takes a second or more to generate: let the compiler's answers and its process's start be seen.
      if (indexes.length % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    // Formatted while the check runs: most modules pass, and those that do not are generated again anyway.
    const group: Promise<void> = Promise.all([check([...modules, ...contextOf(indexes)]), format(modules)])
      // The context modules' answers (after the group's) are not the group's.
      .then(([problems, formatted]) =>
        problems.slice(0, indexes.length).forEach((found, at) => settle(indexes[at]!, found, formatted[at]!)),
      )
      .catch((error: unknown) => void (broken ??= { error }))
      .finally(() => running.delete(group));
    running.add(group);
    // Let answers that are in already be taken (their modules may join this next group) before generating it.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (broken) throw broken.error;
  return { texts, failures, fallbacks };
}

/**
 * Writes every file beside its target first, then renames them: a failure leaves no half-written module. In
 * synchronous calls, as compile writes its output: a thousand awaited writes, renames and removals took a second.
 */
function writeAll(outDir: string, files: ReadonlyArray<{ path: string; text: string }>): void {
  const staged: Array<{ temp: string; target: string }> = [];
  const made = new Set<string>();
  let renamed = false;
  try {
    for (const { path, text } of files) {
      const target = confinedPathOrThrow(outDir, path);
      if (!made.has(dirname(target))) mkdirSync(dirname(target), { recursive: true });
      made.add(dirname(target));
      const temp = `${target}.pipewright-${process.pid}.tmp`;
      writeFileSync(temp, text);
      staged.push({ temp, target });
    }
    for (const { temp, target } of staged) renameSync(temp, target);
    renamed = true;
  } finally {
    if (!renamed) for (const { temp } of staged) rmSync(temp, { force: true });
  }
}

/** The module's status: a document validate refuses, or code that could not be written, needs attention. */
const isFallback = (diagnostic: Diagnostic): boolean => diagnostic.code === 'import-fallback';
const statusOf = (diagnostics: readonly Diagnostic[], written: boolean): ModuleStatus =>
  !written || hasErrors(diagnostics) ? 'needs-attention' : diagnostics.some(isFallback) ? 'partly-raw' : 'typed';

/**
 * YAML documents -> formatted, type-checked TypeScript modules, each document validated as it is imported and
 * each fallback reported. A file with errors loses only its own documents; it throws (a `DiagnosticError`)
 * only when nothing can be written. This is the function `pull` calls for "import these documents into DIR".
 */
export async function importYaml(options: ImportOptions): Promise<ImportResult> {
  const source = new DocumentSource(options.inputs, options.mode);
  if (!source.has(0)) {
    throw new DiagnosticError([
      ...source.problems,
      {
        code: 'no-documents',
        severity: 'error',
        message: 'no documents to import',
        path: [],
        hint: `pass YAML files with ${rootKeyList()} documents`,
      },
    ]);
  }
  // This thread's checker is made only if it is needed: reading the library's declarations takes a while.
  let local: ModuleChecker | undefined;
  const here: ModuleChecker = (modules) => (local ??= localChecker(options.outDir))(modules);
  // As many files are as many documents or more, and the workers then start while the first files are read.
  const large = options.inputs.length >= MIN_DOCUMENTS_FOR_WORKERS || source.has(MIN_DOCUMENTS_FOR_WORKERS - 1);
  const compiler = large ? nativeCompiler() : undefined;
  const pool = large
    ? createImportPool(options.outDir, here, { native: compiler ? nativeChecker(compiler) : undefined })
    : undefined;
  const format: Formatter = pool ? pool.format : (modules) => formatModules(modules, options.outDir);
  let checked: Awaited<ReturnType<typeof checkedModules>>;
  try {
    checked = await checkedModules({ check: pool?.check ?? here, format, formatHere: pool?.formatHere }, source);
  } finally {
    await pool?.close();
  }
  const modules = source.documents.map((document, index): ImportedModule => {
    const path = source.paths[index]!;
    // Checked as late as can be, for each module: a symbolic link in the output folder that leads out of it
    // refuses that module's write, not the run.
    const confined = confinedPath(options.outDir, path);
    const written = checked.texts[index] !== undefined && 'path' in confined;
    const diagnostics = [
      ...('problem' in confined
        ? [
            diagnosticOf('path-outside', 'error', {
              message: `${path} from ${document.source} is not written: ${confined.problem}`,
              path: [],
              location: { file: document.source.replace(/#\d+$/, '') },
              hint: 'nothing outside the output folder is written; remove the symbolic link, or import into another folder',
            }),
          ]
        : []),
      ...document.problems,
      ...(checked.fallbacks[index] ?? []).map((fallback) =>
        fallbackDiagnostic(fallback, document.places, path, document.document),
      ),
      ...(checked.failures[index] ?? []),
    ];
    return {
      path,
      written,
      source: document.source,
      kind: document.kind,
      status: statusOf(diagnostics, written),
      diagnostics,
    };
  });
  const diagnostics = [...source.problems, ...modules.flatMap((module) => module.diagnostics)];
  const formatted = modules.flatMap((module, index) =>
    module.written ? [{ path: module.path, text: checked.texts[index]! }] : [],
  );
  if (!formatted.length) throw new DiagnosticError(diagnostics);
  if (options.mode === 'project')
    formatted.push({
      path: 'pipewright.config.ts',
      text: await formatConfigText(projectConfigText(options.config), options.outDir),
    });
  // Without keepEdits (pull, which plans its own writes into its staging folder) every file is written.
  const kept = options.keepEdits ? keepingEdits(options.outDir, formatted, options.keepEdits.force) : undefined;
  writeAll(options.outDir, kept ? kept.files : formatted);
  if (kept) diagnostics.push(...editedFindings(options.outDir, kept.outcomes));
  return {
    written: (kept?.writes ?? formatted).map((f) => f.path),
    documents: source.documents.length,
    modules,
    diagnostics,
    warnings: diagnostics.filter((problem) => problem.severity !== 'error'),
    ...(kept ? { files: kept.outcomes } : {}),
  };
}

/** What to write into a folder imported into before: edited modules left out, the record of hashes added. */
function keepingEdits(outDir: string, formatted: ReadonlyArray<{ path: string; text: string }>, force: boolean) {
  const written = readWrittenHashes(outDir);
  const { outcomes, writes } = planWrites(outDir, formatted, written, force);
  return { outcomes, writes, files: [...writes, writtenHashesFile(formatted, outcomes, written)] };
}
