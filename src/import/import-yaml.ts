import { kindRow, rootKeyList } from '../catalog/kinds.js';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DiagnosticError, hasErrors, type Diagnostic } from '../compile/diagnostics.js';
import { generateModule, type GeneratedModule } from './generate-module.js';
import { readDocuments, type YamlDocument } from './read-documents.js';
import { createTypeChecker, type TypeChecker } from './type-check.js';
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

/**
 * Generates each document's module and type-checks it. Code that the builders reproduce at run time but whose
 * types refuse it (a field the published schema lacks, say) falls back, node by node, to a more general builder
 * (typed -> `step()`/`stage()` -> `raw.*`) and is checked again, until every module type-checks.
 */
function typeCheckedModules(
  check: TypeChecker,
  documents: readonly YamlDocument[],
  paths: readonly string[],
): { modules: Array<{ path: string; text: string }>; failures: Diagnostic[] } {
  const demotions: Demotions[] = documents.map(() => new WeakMap());
  const generated: GeneratedModule[] = documents.map((doc) => generateModule(doc));
  const failures: Diagnostic[] = [];
  let pending = documents.map((_, index) => index);
  while (pending.length) {
    const problems = check(pending.map((index) => ({ path: paths[index]!, marked: generated[index]!.marked })));
    const next: number[] = [];
    pending.forEach((index, at) => {
      if (!problems[at]!.length) return;
      const origins = new Set(problems[at]!.flatMap((p) => (p.origin && !p.origin.last ? [p.origin] : [])));
      // Errors outside any chosen code, or in code with nothing more general to fall back to, are a bug.
      if (!origins.size) {
        failures.push(...problems[at]!.map((p) => p.diagnostic));
        return;
      }
      for (const origin of origins) for (const node of origin.nodes) demotions[index]!.set(node, origin.level + 1);
      generated[index] = generateModule(documents[index]!, demotions[index]);
      next.push(index);
    });
    pending = next;
  }
  return { modules: generated.map((module, index) => ({ path: paths[index]!, text: module.text })), failures };
}

/** Documents generated, checked and formatted per batch: memory stays bounded however many are imported. */
const BATCH = 50;

const format = async (prettier: typeof import('prettier'), text: string) =>
  prettier.format(text, { parser: 'typescript', singleQuote: true, printWidth: 110, trailingComma: 'all' });

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
  const check = createTypeChecker(options.outDir);
  const prettier = await import('prettier');
  const formatted: Array<{ path: string; text: string }> = [];
  const failures: Diagnostic[] = [];
  for (let start = 0; start < documents.length; start += BATCH) {
    const batch = typeCheckedModules(check, documents.slice(start, start + BATCH), paths.slice(start, start + BATCH));
    failures.push(...batch.failures);
    if (failures.length) continue;
    for (const module of batch.modules) formatted.push({ path: module.path, text: await format(prettier, module.text) });
  }
  if (failures.length) throw new DiagnosticError(failures);
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
