import { inputSetFit, runtimeInputs } from '../check/rules-input-sets.js';
import {
  assignmentSource,
  inputSetSource,
  mergeInputs,
  runtimeInputNames,
  type Assignment,
  type MergedInput,
  type ValueSource,
} from '../check/merge-inputs.js';
import { diagnosticOf, hasErrors, type Diagnostic } from '../core/diagnostics.js';
import type { SourceLocation } from '../core/source-location.js';
import { closest } from '../core/suggest.js';
import { lift } from '../ir/lift.js';
import { mermaidFlowchart } from '../ir/pipeline-diagram.js';
import { toYaml } from '../yaml/emit-yaml.js';
import { placeOf, renderDocuments, type Loaded, type RenderDocuments } from './render-inputs.js';

export type RenderFormat = 'yaml' | 'mermaid';

/** What `render` is asked to show: the `pipewright render` arguments, as options. */
export interface RenderOptions {
  /** A pipeline of the compiled output (identifier, project/identifier or org/project/identifier), or a YAML file. */
  readonly pipeline: string;
  /** Input sets or overlays (identifiers of the compiled output, or YAML files), in merge order: later ones win. */
  readonly inputSets?: readonly string[] | undefined;
  /** Values for single runtime inputs, applied after the input sets. */
  readonly values?: readonly Assignment[] | undefined;
  /** `yaml` (default): the merged pipeline; `mermaid`: its stages and steps as a flowchart. */
  readonly format?: RenderFormat | undefined;
  /** The compiled output folder; default: the config's outDir, else `out`. */
  readonly outDir?: string | undefined;
}

/** One runtime input of the merged pipeline: its status, its value and where the value came from. */
interface RenderedInput {
  readonly name: string;
  readonly status: MergedInput['status'];
  readonly input: string;
  readonly value?: unknown;
  /** `input set "prod"`, or `--set`. */
  readonly from?: string;
  readonly location?: SourceLocation;
}

/** The pipeline that will run, and every runtime input left unsatisfied or given a value its validator refuses. */
export interface RenderResult {
  readonly pipeline: { identifier: string; org?: string; project?: string; file: string };
  readonly inputSets: ReadonlyArray<{ identifier: string; file: string; overlay?: string }>;
  readonly inputs: readonly RenderedInput[];
  readonly format: RenderFormat;
  /** The merged pipeline as YAML, or its mermaid flowchart. */
  readonly output: string;
  readonly diagnostics: readonly Diagnostic[];
  /** False when a diagnostic is an error (an input unsatisfied, a value refused, an unknown --set name). */
  readonly ok: boolean;
}

/**
 * Merges the input sets and values into the pipeline as the platform does before a run, as `pipewright render`
 * does: finds the documents, checks each input set fits the pipeline, merges, and prints the result.
 */
export async function render(options: RenderOptions): Promise<RenderResult> {
  const found = await renderDocuments(options.pipeline, options.inputSets ?? [], () => outDir(options.outDir));
  const diagnostics = misfits(found);
  const { sources, loaded } = sourcesOf(found, options.values ?? [], diagnostics);
  const merged = mergeInputs(found.pipeline.value, sources);
  for (const { diagnostic, source } of merged.findings) {
    const document = source === undefined ? found.pipeline : loaded[source];
    // Values from --set have no file: their diagnostics name `--set` as their subject instead.
    diagnostics.push(document ? { ...diagnostic, location: placeOf(document, diagnostic.path) } : diagnostic);
  }
  const format = options.format ?? 'yaml';
  const output = format === 'mermaid' ? flowchart(merged.document) : toYaml(merged.document);
  const inputs = merged.inputs.map((input) => rendered(input, sources, loaded));
  return { ...described(found), inputs, format, output, diagnostics, ok: !hasErrors(diagnostics) };
}

/** The output folder: the option, else the config's outDir (loaded only when there is a config), else `out`. */
async function outDir(option: string | undefined): Promise<string> {
  if (option) return option;
  const { configOutDir, loadConfig } = await import('../compile/load-config.js');
  return configOutDir(await loadConfig());
}

/** The platform refuses to save an input set that sets a field the pipeline fixes: said here too. */
function misfits({ pipeline, inputSets }: RenderDocuments): Diagnostic[] {
  const inputs = runtimeInputs(pipeline.value);
  const pipelineName = pipeline.key?.identifier ?? 'pipeline';
  return inputSets.flatMap(({ inputSet }) =>
    inputSetFit(inputSet.value, inputs, pipelineName)
      .filter((diagnostic) => diagnostic.code === 'input-set-not-an-input')
      .map((diagnostic) => ({ ...diagnostic, location: placeOf(inputSet, diagnostic.path) })),
  );
}

/** The value sources in merge order (the input sets, then the values), and the document of each. */
function sourcesOf(
  { pipeline, inputSets }: RenderDocuments,
  values: readonly Assignment[],
  diagnostics: Diagnostic[],
): { sources: ValueSource[]; loaded: Array<Loaded | undefined> } {
  const sources: ValueSource[] = inputSets.map(({ inputSet }) =>
    inputSetSource(`input set "${inputSet.key.identifier}"`, inputSet.value),
  );
  const loaded: Array<Loaded | undefined> = inputSets.map(({ inputSet }) => inputSet);
  if (values.length === 0) return { sources, loaded };
  const { source, unknown, mistyped } = assignmentSource(pipeline.value, values);
  diagnostics.push(...mistyped);
  sources.push(source);
  loaded.push(undefined);
  const names = runtimeInputNames(pipeline.value);
  for (const { name } of unknown) {
    const suggestion = closest(name.startsWith('pipeline.') ? name : `pipeline.${name}`, names);
    diagnostics.push(
      diagnosticOf('unknown-input', 'error', {
        message: `pipeline "${pipeline.key.identifier}" has no runtime input ${name}`,
        path: [],
        subject: '--set',
        hint: suggestion
          ? `did you mean "${suggestion}"?`
          : names.length
            ? `its runtime inputs: ${names.join(', ')}`
            : 'the pipeline has no runtime inputs (<+input>)',
      }),
    );
  }
  return { sources, loaded };
}

/** A pipeline document's stages and steps as a mermaid flowchart (`--format mermaid`; run's job summary draws it too). */
export function flowchart(document: unknown): string {
  const root = lift('pipeline', document);
  const pipelineNode =
    root.kind === 'pipeline' ? root : (root.children.find((child) => child.node.kind === 'pipeline')?.node ?? root);
  return mermaidFlowchart(pipelineNode);
}

/** One runtime input as a result lists it. */
function rendered(
  input: MergedInput,
  sources: readonly ValueSource[],
  loaded: ReadonlyArray<Loaded | undefined>,
): RenderedInput {
  const source = input.source === undefined ? undefined : loaded[input.source];
  return {
    name: input.name,
    status: input.status,
    input: input.input,
    ...(input.value !== undefined ? { value: input.value } : {}),
    ...(input.source !== undefined ? { from: sources[input.source]!.label } : {}),
    ...(source && input.sourcePath ? { location: placeOf(source, input.sourcePath) } : {}),
  };
}

function described({ pipeline, inputSets }: RenderDocuments): Pick<RenderResult, 'pipeline' | 'inputSets'> {
  const { key } = pipeline;
  return {
    pipeline: {
      identifier: key.identifier,
      ...(key.org ? { org: key.org } : {}),
      ...(key.project ? { project: key.project } : {}),
      file: pipeline.file,
    },
    inputSets: inputSets.map(({ inputSet, overlay }) => ({
      identifier: inputSet.key.identifier,
      file: inputSet.file,
      ...(overlay ? { overlay: overlay.key.identifier } : {}),
    })),
  };
}
