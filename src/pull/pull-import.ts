import { safeFileName } from '../core/safe-file-name.js';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { kindRow } from '../catalog/kinds.js';
import { keyName, outputPathOf } from '../catalog/resource-key.js';
import { DiagnosticError, type Diagnostic } from '../core/diagnostics.js';
import type { ImportInput } from '../import/import-yaml.js';
import type { HeldFinding } from './pull-held.js';
import type { PulledDocument, Unreadable } from './pull-reads.js';

/** Where documents pipewright cannot model go, beside the project's code (no include glob reads them). */
export const UNMODELLED_DIR = 'unmodelled';
/** Import writes here first; pull then brings into the project only what changed. */
const STAGING_DIR = '.pipewright-pull';
/** Import rounds: a round that refuses documents sets them aside and imports the rest again. */
const IMPORT_ROUNDS = 4;

/** A file's name for a document pipewright keeps as YAML: its compiled path, or the kind and platform name. */
export const unmodelledPath = (item: Unreadable): string => {
  // The name is the platform's: each of its segments becomes one safe file name (`..` included).
  const segments = item.name.replace(/[^\w.@/-]/g, '_').split('/');
  const names = segments.map((segment, at) => safeFileName(segment, at === segments.length - 1 ? '.yaml' : '').name);
  return [UNMODELLED_DIR, kindRow(item.kind).folder, ...names].join('/');
};

/** The pulled documents as project files: modules import wrote, and YAML for what it cannot write as code. */
export interface ImportedEstate {
  /** Modules, then the YAML kept as it is: paths relative to the project. */
  readonly files: Array<{ path: string; text: string }>;
  /** The documents written as modules. */
  readonly imported: PulledDocument[];
  /** Documents kept as YAML: unreadable ones, and those import refused. */
  readonly unmodelled: Unreadable[];
  /** Findings the platform holds that pipewright refuses, suppressed in the modules written: each with its module. */
  readonly held: Array<HeldFinding & { readonly module: string }>;
  readonly warnings: Diagnostic[];
}

/**
 * Imports the documents in project mode in a staging folder of `out`. Documents import refuses (its diagnostics
 * name their input) are set aside as unmodelled, with import's own diagnostics, and the rest are imported again.
 * `held` are findings the platform holds: each becomes a suppression in its document's module.
 */
export async function importEstate(
  documents: readonly PulledDocument[],
  unreadable: readonly Unreadable[],
  out: string,
  config: Record<string, unknown>,
  held: readonly HeldFinding[] = [],
): Promise<ImportedEstate> {
  const staging = join(out, STAGING_DIR);
  let found: Awaited<ReturnType<typeof importDocuments>>;
  try {
    found = await importDocuments(documents, staging, config, held);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const unmodelled: Unreadable[] = [
    ...unreadable,
    ...found.refused.map(({ document, diagnostics }) => ({
      kind: document.key.kind,
      name: keyName(document.key),
      text: document.yaml,
      reason: `import cannot write it as code: ${diagnostics
        .map((d) => d.message)
        .slice(0, 3)
        .join('; ')}`,
    })),
  ];
  const yamlFiles = unmodelled.map((item) => ({
    path: unmodelledPath(item),
    text: item.text.endsWith('\n') ? item.text : `${item.text}\n`,
  }));
  const heldIn = held.flatMap((finding) => {
    const module = found.modules.get(finding.document);
    return module === undefined ? [] : [{ ...finding, module }];
  });
  return {
    files: [...found.files, ...yamlFiles],
    imported: found.imported,
    unmodelled,
    held: heldIn,
    warnings: found.warnings,
  };
}

async function importDocuments(
  documents: readonly PulledDocument[],
  staging: string,
  config: Record<string, unknown>,
  held: readonly HeldFinding[],
): Promise<{
  files: Array<{ path: string; text: string }>;
  imported: PulledDocument[];
  /** The module written for each document imported. */
  modules: Map<PulledDocument, string>;
  refused: Array<{ document: PulledDocument; diagnostics: Diagnostic[] }>;
  warnings: Diagnostic[];
}> {
  const { importYaml } = await import('../import/import-yaml.js');
  let remaining = [...documents];
  const refused: Array<{ document: PulledDocument; diagnostics: Diagnostic[] }> = [];
  for (let round = 0; ; round++) {
    const byFile = new Map(remaining.map((document) => [`platform/${outputPathOf(document.key)}`, document]));
    // The stable version of a template is the platform's fact, not the YAML's: its module says `stable: true`.
    const inputs: ImportInput[] = [...byFile].map(([file, document]) => ({
      file,
      text: document.yaml,
      ...(document.stable ? { publishFlags: { stable: true as const } } : {}),
      suppressions: held
        .filter((finding) => finding.document === document)
        .map(({ code, reason }) => ({ code, reason })),
    }));
    rmSync(staging, { recursive: true, force: true });
    if (inputs.length === 0) return { files: [], imported: [], modules: new Map(), refused, warnings: [] };
    try {
      const result = await importYaml({ inputs, outDir: staging, mode: 'project', config });
      const files = result.written.map((path) => ({ path, text: readFileSync(join(staging, path), 'utf8') }));
      const modules = new Map(
        result.modules.flatMap((module) => {
          const document = byFile.get(module.source);
          return document && module.written ? [[document, module.path] as const] : [];
        }),
      );
      return { files, imported: remaining, modules, refused, warnings: result.warnings };
    } catch (error) {
      if (!(error instanceof DiagnosticError) || round + 1 >= IMPORT_ROUNDS) throw error;
      const blamed = new Map<string, Diagnostic[]>();
      for (const diagnostic of error.diagnostics) {
        const file = diagnostic.location?.file;
        if (file && byFile.has(file)) blamed.set(file, [...(blamed.get(file) ?? []), diagnostic]);
      }
      // Problems pull cannot place on a document: not the platform's documents' fault.
      if (blamed.size === 0) throw error;
      for (const [file, diagnostics] of blamed) refused.push({ document: byFile.get(file)!, diagnostics });
      remaining = remaining.filter((document) => !blamed.has(`platform/${outputPathOf(document.key)}`));
    }
  }
}
