import { existsSync } from 'node:fs';
import { kindRow, rootKeyList } from '../catalog/kinds.js';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DiagnosticError, hasErrors, type Diagnostic } from '../compile/diagnostics.js';
import { generateModule } from './generate-module.js';
import { readDocuments, type YamlDocument } from './read-documents.js';

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

/** The types of the running pipewright, so generated code is checked against the builders it will use. */
function ownTypes(): string {
  const declarations = fileURLToPath(new URL('../index.d.ts', import.meta.url));
  return existsSync(declarations) ? declarations : fileURLToPath(new URL('../index.ts', import.meta.url));
}

/** Type-checks generated modules in memory; any error is a bug in import, reported loudly. */
async function typeCheck(
  modules: ReadonlyArray<{ path: string; text: string }>,
  outDir: string,
): Promise<Diagnostic[]> {
  const { Project, ts } = await import('ts-morph');
  const project = new Project({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      types: [],
      paths: { pipewright: [ownTypes()] },
    },
    skipAddingFilesFromTsConfig: true,
  });
  const files = modules.map((m) =>
    project.createSourceFile(join(resolve(outDir), m.path), m.text, {
      overwrite: true,
    }),
  );
  return project.getPreEmitDiagnostics().flatMap((d) => {
    const file = d.getSourceFile();
    if (!file || !files.includes(file)) return [];
    const { line, column } = file.getLineAndColumnAtPos(d.getStart() ?? 0);
    const message = ts.flattenDiagnosticMessageText(d.getMessageText() as never, '\n');
    return [
      {
        code: 'generated-code-type-error',
        severity: 'error' as const,
        message: `generated code does not type-check: ${message}`,
        path: [],
        at: `${modules[files.indexOf(file)]!.path}:${line}:${column}`,
        hint: 'this is a bug in pipewright import; please report it with the YAML document',
      },
    ];
  });
}

const CONFIG = `import { defineConfig } from 'pipewright';

export default defineConfig({
  include: ['projects/**/*.ts', 'connectors/**/*.ts', 'pipelines/**/*.ts'],
  outDir: 'out',
});
`;

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
  const modules = documents.map((doc, index) => ({
    path: paths[index]!,
    text: generateModule(doc).text,
  }));
  const typeErrors = await typeCheck(modules, options.outDir);
  if (typeErrors.length) throw new DiagnosticError(typeErrors);
  const prettier = await import('prettier');
  const formatted = await Promise.all(
    modules.map(async (m) => ({
      path: m.path,
      text: await prettier.format(m.text, {
        parser: 'typescript',
        singleQuote: true,
        printWidth: 110,
        trailingComma: 'all',
      }),
    })),
  );
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
