import { IDENTIFIER_PATTERN } from '../catalog/identity-rules.js';
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Document, LineCounter } from 'yaml';
import { keyOf, type ResourceKey } from '../catalog/resource-key.js';
import { kindOfDocument, kindRow } from '../catalog/kinds.js';
import { isRecord } from '../core/is-record.js';
import type { SourceLocation } from '../core/source-location.js';
import type { ResourceKind } from '../catalog/kinds.js';
import { entryInsideFolder, MANIFEST_FILE, parseManifest, type ManifestEntry } from '../compile/layout.js';
import { DiagnosticError, diagnosticOf, type Diagnostic } from '../core/diagnostics.js';
import type { DocPath } from '../core/document-path.js';
import { closest } from '../core/suggest.js';
import { locate } from '../yaml/yaml-locate.js';
import { readYamlFile } from '../yaml/read-yaml-file.js';
import { readYaml } from '../yaml/read-yaml.js';

/**
 * What render works on: the pipeline and the input sets named on its command line, each found in a YAML file given
 * by path or, by identifier, in the compiled output folder (its manifest says which file holds what). Overlay input
 * sets are replaced by the input sets they refer to, in their order (as the platform expands them before a run).
 */

/** One document read from YAML, with what locating a diagnostic in it needs. */
export interface Loaded {
  readonly kind: ResourceKind;
  readonly key: ResourceKey;
  readonly value: unknown;
  readonly file: string;
  readonly node: Document;
  readonly lines: LineCounter;
}

/** An input set to merge, and the overlay input set that named it, if one did. */
interface Chosen {
  readonly inputSet: Loaded;
  readonly overlay?: Loaded;
}

export interface RenderDocuments {
  readonly pipeline: Loaded;
  /** In merge order: later ones win. */
  readonly inputSets: Chosen[];
}

/** `file:line:col` of a document path of a loaded document. */
export function placeOf(loaded: Loaded, path: DocPath): SourceLocation {
  return { file: loaded.file, ...locate(loaded.node, path, loaded.lines) };
}

const located = (
  loaded: Loaded,
  path: DocPath,
  code: 'unknown-input-set' | 'unknown-pipeline',
  message: string,
  hint: string,
): Diagnostic => diagnosticOf(code, 'error', { message, path, location: placeOf(loaded, path), hint });

const isInputSetKind = (kind: ResourceKind) => kind === 'inputSet' || kind === 'overlayInputSet';

/** Reads files and the output folder once each, as render asks for them. */
class Library {
  readonly #files = new Map<string, Promise<Loaded[]>>();
  readonly #folders = new Map<string, Promise<Loaded[]>>();
  #manifest: Promise<{ dir: string; entries: readonly ManifestEntry[] } | undefined> | undefined;

  constructor(readonly outDir: () => Promise<string>) {}

  /** The platform documents of a YAML file; a file that is not valid YAML stops the command. */
  file(file: string): Promise<Loaded[]> {
    let loaded = this.#files.get(file);
    if (!loaded) this.#files.set(file, (loaded = readDocuments(file)));
    return loaded;
  }

  /**
   * The platform documents of the YAML files in a folder (not its subfolders), for identifiers an overlay names
   * beside it; a file that cannot be read or parsed is no candidate, and no reason to stop.
   */
  folder(dir: string): Promise<Loaded[]> {
    let loaded = this.#folders.get(dir);
    if (!loaded)
      this.#folders.set(
        dir,
        (loaded = (async () => {
          const names = (await readdir(dir).catch(() => [] as string[]))
            .filter((name) => /\.ya?ml$/i.test(name))
            .sort();
          const documents = await Promise.all(
            names.map((name) => this.file(join(dir, name)).catch(() => [] as Loaded[])),
          );
          return documents.flat();
        })()),
      );
    return loaded;
  }

  /** The compiled output's manifest entries, or undefined when there is no compiled output. */
  manifest(): Promise<{ dir: string; entries: readonly ManifestEntry[] } | undefined> {
    this.#manifest ??= (async () => {
      const dir = await this.outDir();
      const text = await readFile(join(dir, MANIFEST_FILE), 'utf8').catch(() => undefined);
      const manifest = text === undefined ? undefined : parseManifest(text);
      if (text !== undefined && !manifest)
        throw DiagnosticError.of(
          'not-compiled-output',
          `${join(dir, MANIFEST_FILE)} is not a pipewright manifest`,
          'render reads the folder pipewright compile writes; compile again, or pass YAML files',
        );
      return manifest && { dir, entries: manifest.files.filter(entryInsideFolder) };
    })();
    return this.#manifest;
  }

  /** The document an output entry names, read from its file. */
  async entry(dir: string, entry: ManifestEntry): Promise<Loaded | undefined> {
    const documents = await this.file(join(dir, entry.file));
    return documents.find((document) => document.kind === entry.kind && document.key.identifier === entry.identifier);
  }
}

async function readDocuments(file: string): Promise<Loaded[]> {
  const text = readYamlFile(file);
  if ('refused' in text) throw new DiagnosticError([text.refused]);
  const read = readYaml(text.text, file);
  const errors = read.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length) throw new DiagnosticError(errors);
  const loaded: Loaded[] = [];
  for (const { value, node } of read.documents) {
    const kind = kindOfDocument(value);
    const key = kind && isRecord(value) ? keyOf(kind, value[kindRow(kind).rootKey]) : undefined;
    if (kind && key) loaded.push({ kind, key, value, file, node, lines: read.lines });
  }
  return loaded;
}

/** A command-line argument naming a YAML file rather than an identifier (identifiers have no `.` or `/`). */
const isFileArgument = (arg: string) => /\.ya?ml$/i.test(arg) || (existsSync(arg) && statSync(arg).isFile());

/** Finds the pipeline and the input sets, overlays expanded; every problem found is reported at once. */
export async function renderDocuments(
  pipelineArg: string,
  inputSetArgs: readonly string[],
  outDir: () => Promise<string>,
): Promise<RenderDocuments> {
  const library = new Library(outDir);
  const pipeline = await findPipeline(pipelineArg, library);
  const problems: Diagnostic[] = [];
  // Input set files given on the command line are where identifiers are looked up first (an overlay's references too).
  const given: Loaded[] = [];
  const named: Array<Loaded | string> = [];
  for (const arg of inputSetArgs) {
    if (!isFileArgument(arg)) {
      named.push(arg);
      continue;
    }
    if (!existsSync(arg))
      throw DiagnosticError.of(
        'file-not-found',
        `cannot read ${arg}: no such file`,
        'pass an input set YAML file that exists, or an input set identifier of the compiled output',
      );
    const found = (await library.file(arg)).filter((document) => isInputSetKind(document.kind));
    if (found.length === 0)
      problems.push(
        diagnosticOf('unknown-input-set', 'error', {
          message: `${arg} holds no inputSet or overlayInputSet document`,
          path: [],
          location: { file: arg },
          hint: 'pass the YAML file of an input set (root key inputSet: or overlayInputSet:)',
        }),
      );
    given.push(...found);
    named.push(...found);
  }
  // Then the YAML files beside the pipeline and input set files given (an overlay's input sets sit next to it).
  const fileArgs = [pipelineArg, ...inputSetArgs].filter(isFileArgument);
  const folders = [...new Set(fileArgs.map((file) => dirname(file)))];
  const lookup = (identifier: string) => findInputSet(identifier, pipeline, given, folders, library);
  const inputSets: Chosen[] = [];
  for (const item of named) {
    const inputSet = typeof item === 'string' ? await lookup(item) : item;
    if (typeof inputSet === 'string') {
      problems.push(
        diagnosticOf('unknown-input-set', 'error', {
          message: inputSet,
          path: [],
          hint: await inputSetHint(item as string, pipeline, given, library),
        }),
      );
      continue;
    }
    const misfit = belongsElsewhere(inputSet, pipeline);
    if (misfit) {
      problems.push(misfit);
      continue;
    }
    if (inputSet.kind === 'inputSet') {
      inputSets.push({ inputSet });
      continue;
    }
    // An overlay stands for the input sets it refers to, in its order (ValidateAndMergeHelper.getInputSetMetadataDTO).
    const body = (inputSet.value as Record<string, Record<string, unknown>>).overlayInputSet!;
    const references = Array.isArray(body.inputSetReferences) ? body.inputSetReferences : [];
    for (const [index, reference] of references.entries()) {
      const path = ['overlayInputSet', 'inputSetReferences', index];
      const found =
        typeof reference === 'string'
          ? await lookup(reference)
          : `a reference must be an input set identifier, not ${JSON.stringify(reference)}`;
      if (typeof found === 'string')
        problems.push(
          located(
            inputSet,
            path,
            'unknown-input-set',
            `overlay input set "${inputSet.key.identifier}" refers to input set ${JSON.stringify(reference)}, which is not found`,
            "keep the input set's YAML file beside the overlay's, or compile both",
          ),
        );
      else if (found.kind === 'overlayInputSet')
        problems.push(
          located(
            inputSet,
            path,
            'unknown-input-set',
            `overlay input set "${inputSet.key.identifier}" refers to overlay input set "${found.key.identifier}"; the platform takes only input sets there`,
            'list the input sets of that overlay here instead',
          ),
        );
      else {
        const elsewhere = belongsElsewhere(found, pipeline);
        if (elsewhere) problems.push(elsewhere);
        else inputSets.push({ inputSet: found, overlay: inputSet });
      }
    }
  }
  if (problems.length) throw new DiagnosticError(problems);
  return { pipeline, inputSets };
}

/** An input set of another pipeline (the platform keeps input sets per pipeline): the diagnostic, else undefined. */
function belongsElsewhere(inputSet: Loaded, pipeline: Loaded): Diagnostic | undefined {
  const { key } = inputSet;
  const other = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a !== b;
  if (
    key.parent === pipeline.key.identifier &&
    !other(key.org, pipeline.key.org) &&
    !other(key.project, pipeline.key.project)
  )
    return undefined;
  const path =
    inputSet.kind === 'inputSet' ? ['inputSet', 'pipeline', 'identifier'] : ['overlayInputSet', 'pipelineIdentifier'];
  const scope = (k: ResourceKey) =>
    [k.org, k.project, k.kind === 'pipeline' ? k.identifier : k.parent].filter(Boolean).join('/');
  return located(
    inputSet,
    path,
    'unknown-input-set',
    `input set "${key.identifier}" belongs to pipeline ${scope(key)}, not ${scope(pipeline.key)}`,
    'pass an input set of the pipeline being rendered',
  );
}

/** The input set `identifier` of the pipeline, from the files given, else the compiled output; or why not. */
async function findInputSet(
  identifier: string,
  pipeline: Loaded,
  given: readonly Loaded[],
  folders: readonly string[],
  library: Library,
): Promise<Loaded | string> {
  if (!IDENTIFIER_PATTERN.test(identifier))
    return `${JSON.stringify(identifier)} is neither a YAML file nor an input set identifier`;
  const ofPipeline = (document: Loaded) =>
    isInputSetKind(document.kind) &&
    document.key.identifier === identifier &&
    document.key.parent === pipeline.key.identifier;
  const inFiles = given.find(ofPipeline);
  if (inFiles) return inFiles;
  for (const folder of folders) {
    const beside = (await library.folder(folder)).find(ofPipeline);
    if (beside) return beside;
  }
  const output = await library.manifest();
  const entry = output?.entries.find(
    (e) => isInputSetKind(e.kind) && e.identifier === identifier && sameOwner(e, pipeline.key),
  );
  const loaded = entry && (await library.entry(output!.dir, entry));
  return (
    loaded ??
    `input set "${identifier}" of pipeline "${pipeline.key.identifier}" is not found${output ? ` in ${output.dir}` : ''}`
  );
}

const sameOwner = (entry: ManifestEntry, pipeline: ResourceKey) =>
  entry.parent === pipeline.identifier &&
  (entry.org ?? undefined) === pipeline.org &&
  (entry.project ?? undefined) === pipeline.project;

async function inputSetHint(
  identifier: string,
  pipeline: Loaded,
  given: readonly Loaded[],
  library: Library,
): Promise<string> {
  const output = await library.manifest().catch(() => undefined);
  const known = [
    ...given.map((document) => document.key.identifier),
    ...(output?.entries.filter((e) => isInputSetKind(e.kind) && sameOwner(e, pipeline.key)).map((e) => e.identifier) ??
      []),
  ];
  const suggestion = closest(identifier, known);
  if (suggestion) return `did you mean "${suggestion}"?`;
  if (known.length) return `the pipeline's input sets: ${[...new Set(known)].sort().join(', ')}`;
  return output
    ? `${output.dir} holds no input set of this pipeline; compile it, or pass its YAML file`
    : "pass the input set's YAML file, or compile first so the output folder holds it";
}

/** The pipeline: the one pipeline document of a YAML file, or `id`, `project/id`, `org/project/id` of the output. */
async function findPipeline(arg: string, library: Library): Promise<Loaded> {
  if (isFileArgument(arg)) {
    if (!existsSync(arg))
      throw DiagnosticError.of(
        'file-not-found',
        `cannot read ${arg}: no such file`,
        'pass a pipeline YAML file that exists, or a pipeline identifier of the compiled output',
      );
    const pipelines = (await library.file(arg)).filter((document) => document.kind === 'pipeline');
    if (pipelines.length === 1) return pipelines[0]!;
    throw DiagnosticError.of(
      'unknown-pipeline',
      `${arg} holds ${pipelines.length ? `${pipelines.length} pipelines` : 'no pipeline document'}`,
      'pass a file with one document whose root key is pipeline:',
    );
  }
  const parts = arg.split('/');
  const output = await library.manifest();
  if (!output)
    throw DiagnosticError.of(
      'not-compiled-output',
      `no compiled output in ${await library.outDir()} to find pipeline "${arg}" in`,
      "run pipewright compile first (or give the folder with --out), or pass the pipeline's YAML file",
    );
  if (parts.length > 3 || parts.some((part) => !part))
    throw DiagnosticError.of(
      'usage',
      `${JSON.stringify(arg)} is not a pipeline: give its identifier, project/identifier, org/project/identifier, or a YAML file`,
    );
  const [identifier, project, org] = [...parts].reverse();
  const pipelines = output.entries.filter((entry) => entry.kind === 'pipeline');
  const matches = pipelines.filter(
    (entry) =>
      entry.identifier === identifier &&
      (project === undefined || entry.project === project) &&
      (org === undefined || entry.org === org),
  );
  const named = (entry: ManifestEntry) => [entry.org, entry.project, entry.identifier].join('/');
  if (matches.length > 1)
    throw DiagnosticError.of(
      'usage',
      `pipeline "${arg}" is in more than one project: ${matches.map(named).sort().join(', ')}`,
      `name it as project/identifier or org/project/identifier, e.g. ${named(matches[0]!)}`,
    );
  const entry = matches[0];
  const loaded = entry && (await library.entry(output.dir, entry));
  if (loaded) return loaded;
  const suggestion = closest(
    identifier!,
    pipelines.map((p) => p.identifier),
  );
  throw DiagnosticError.of(
    'unknown-pipeline',
    `pipeline "${arg}" is not in ${output.dir}`,
    suggestion
      ? `did you mean "${suggestion}"?`
      : pipelines.length
        ? `its pipelines: ${pipelines.map(named).sort().join(', ')}`
        : 'compile the pipeline first, or pass its YAML file',
  );
}
