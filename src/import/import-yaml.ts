import { kindRow, rootKeyList } from '../catalog/kinds.js';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DiagnosticError, hasErrors, type Diagnostic } from '../compile/diagnostics.js';
import { formatModules, localChecker, type ModuleChecker, type ModuleOutcome } from './check-modules.js';
import { createImportPool } from './check-pool.js';
import type { Origin } from './code.js';
import type { MarkedModule } from './type-check.js';
import { generateModule } from './generate-module.js';
import { readDocuments, type YamlDocument } from './read-documents.js';
import type { Demotions } from './verify.js';

export interface ImportInput {
  /** Name shown in messages and the header comment (a path, or `<stdin>`). */
  readonly file: string;
  readonly text: string;
}

export interface ImportOptions {
  readonly inputs: readonly ImportInput[];
  readonly outDir: string;
  /** `files`: one module per document in outDir. `project`: a ready project (config + kind folders). */
  readonly mode: 'files' | 'project';
}

export interface ImportResult {
  /** Written files, relative to outDir. */
  readonly written: string[];
  readonly documents: number;
  /** What the platform would read differently from how it looks (aliases, a second document): printed, not fatal. */
  readonly warnings: Diagnostic[];
}

/** Where each document's module goes; names never collide. */
function modulePaths(documents: readonly YamlDocument[], mode: ImportOptions['mode']): string[] {
  const taken = new Set<string>();
  return documents.map(({ kind, document }) => {
    const row = kindRow(kind);
    const body = (document[row.rootKey] ?? {}) as Record<string, string | undefined>;
    const id = String(body.identifier ?? kind).replace(/[^\w.-]/g, '_');
    const base =
      mode === 'project'
        ? kind === 'project'
          ? `projects/${body.orgIdentifier ?? '_'}/${id}`
          : `${row.folder}/${body.orgIdentifier ?? '_'}/${body.projectIdentifier ?? '_'}/${id}`
        : id;
    let path = `${base}.ts`;
    if (taken.has(path)) path = `${base}_${kind}.ts`;
    for (let n = 2; taken.has(path); n++) path = `${base}_${n}.ts`;
    taken.add(path);
    return path;
  });
}

const CONFIG = `import { defineConfig } from 'pipewright';

export default defineConfig({
  include: ['projects/**/*.ts', 'connectors/**/*.ts', 'pipelines/**/*.ts'],
  outDir: 'out',
});
`;

/** Below this many documents the import stays in one thread: starting workers costs more than it saves. */
const MIN_DOCUMENTS_FOR_WORKERS = 100;

/**
 * A group of modules is checked as one program: at most this many modules and about this much text, which
 * bounds a checker's memory whatever the size of the documents.
 */
const GROUP = { modules: 250, characters: 2_500_000 };

/** Formats modules that type-check; `idle` says that this thread has nothing left to generate. */
type Formatter = (texts: readonly string[], idle: boolean) => Promise<string[]>;

/**
 * Generates each document's module, type-checks and formats it (in worker threads for large imports, while
 * this thread generates the next group). Code that the builders reproduce at run time but whose types refuse
 * it (a field the published schema lacks, say) falls back, node by node, to a more general builder
 * (typed -> `step()`/`stage()` -> `raw.*`) and is checked again, until every module type-checks. Modules
 * checked again join the next group rather than making one of their own: each program costs the checker a
 * fresh look at the library's types.
 */
async function checkedModules(
  { check, format }: { check: ModuleChecker; format: Formatter },
  documents: readonly YamlDocument[],
  paths: readonly string[],
): Promise<{ texts: string[]; failures: Diagnostic[][] }> {
  const demotions: Demotions[] = documents.map(() => new WeakMap());
  const texts: string[] = [];
  const failures: Diagnostic[][] = [];
  const origins: Array<readonly Origin[]> = [];
  const generate = (index: number): MarkedModule => {
    const { marked } = generateModule(documents[index]!, demotions[index]);
    origins[index] = marked.origins;
    return { path: paths[index]!, text: marked.text };
  };
  const again: number[] = [];
  const passed: Array<{ index: number; text: string }> = [];
  const settle = (index: number, outcome: ModuleOutcome): void => {
    if ('text' in outcome) {
      passed.push({ index, text: outcome.text });
      return;
    }
    const chosen = outcome.problems.map((problem) =>
      problem.mark === undefined ? undefined : origins[index]![problem.mark],
    );
    const fallbacks = new Set(chosen.filter((origin): origin is Origin => origin !== undefined && !origin.last));
    // Errors outside any chosen code, or in code with nothing more general to fall back to, are a bug.
    if (!fallbacks.size) {
      failures[index] = outcome.problems.map((problem) => problem.diagnostic);
      return;
    }
    for (const origin of fallbacks) for (const node of origin.nodes) demotions[index]!.set(node, origin.level + 1);
    again.push(index);
  };
  const running = new Set<Promise<void>>();
  let broken: { error: unknown } | undefined;
  for (let next = 0; !broken && (next < documents.length || again.length || running.size);) {
    if (next === documents.length && !again.length) {
      await Promise.race(running);
      continue;
    }
    const indexes: number[] = [];
    const modules: MarkedModule[] = [];
    for (let characters = 0; indexes.length < GROUP.modules && characters < GROUP.characters;) {
      const index = again.length ? again.shift()! : next < documents.length ? next++ : undefined;
      if (index === undefined) break;
      const module = generate(index);
      indexes.push(index);
      modules.push(module);
      characters += module.text.length;
    }
    const group: Promise<void> = check(modules)
      .then((outcomes) => {
        outcomes.forEach((outcome, at) => settle(indexes[at]!, outcome));
        const ready = passed.splice(0);
        return format(
          ready.map(({ text }) => text),
          next === documents.length && !again.length,
        ).then((formatted) => ready.forEach(({ index }, at) => (texts[index] = formatted[at]!)));
      })
      .catch((error: unknown) => void (broken ??= { error }))
      .finally(() => running.delete(group));
    running.add(group);
    // Let answers that are in already be taken (their modules may join this next group) before generating it.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (broken) throw broken.error;
  return { texts, failures };
}

/** YAML documents -> formatted, type-checked TypeScript modules; nothing is written if anything fails. */
export async function importYaml(options: ImportOptions): Promise<ImportResult> {
  const documents: YamlDocument[] = [];
  const problems: Diagnostic[] = [];
  for (const input of options.inputs) {
    const { documents: found, diagnostics } = readDocuments(input.text, input.file);
    documents.push(...found);
    problems.push(...diagnostics);
  }
  const warnings = problems.filter((problem) => problem.severity !== 'error');
  if (hasErrors(problems)) throw new DiagnosticError(problems);
  if (documents.length === 0)
    throw new DiagnosticError([
      {
        code: 'no-documents',
        severity: 'error',
        message: 'no documents to import',
        path: [],
        hint: `pass YAML files with ${rootKeyList()} documents`,
      },
    ]);
  const paths = modulePaths(documents, options.mode);
  // This thread's checker is made only if it is needed: reading the library's declarations takes a while.
  let local: ModuleChecker | undefined;
  const here: ModuleChecker = (modules) => (local ??= localChecker(options.outDir))(modules);
  const pool = documents.length >= MIN_DOCUMENTS_FOR_WORKERS ? createImportPool(options.outDir, here) : undefined;
  // Once this thread has generated every module it formats too, beside the formatting worker.
  const format: Formatter = (texts, idle) => (pool && !idle ? pool.format(texts) : formatModules(texts));
  let checked: Awaited<ReturnType<typeof checkedModules>>;
  try {
    checked = await checkedModules({ check: pool?.check ?? here, format }, documents, paths);
  } finally {
    await pool?.close();
  }
  const failures = checked.failures.flatMap((found) => found ?? []);
  if (failures.length) throw new DiagnosticError(failures);
  const formatted = paths.map((path, index) => ({ path, text: checked.texts[index]! }));
  if (options.mode === 'project') formatted.push({ path: 'pipewright.config.ts', text: CONFIG });
  // Write every file beside its target first, then rename: a failure leaves no half-written module.
  const staged: Array<{ temp: string; target: string }> = [];
  try {
    for (const { path, text } of formatted) {
      const target = join(options.outDir, path);
      await mkdir(dirname(target), { recursive: true });
      const temp = `${target}.pipewright-${process.pid}.tmp`;
      await writeFile(temp, text);
      staged.push({ temp, target });
    }
    for (const { temp, target } of staged) await rename(temp, target);
  } finally {
    await Promise.all(staged.map(({ temp }) => rm(temp, { force: true })));
  }
  return { written: formatted.map((f) => f.path), documents: documents.length, warnings };
}
