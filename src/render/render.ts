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
import { DEFAULT_OUT_DIR } from '../compile/config.js';
import { DiagnosticError, diagnosticOf, formatDiagnostics, hasErrors, type Diagnostic } from '../core/diagnostics.js';
import { closest } from '../core/suggest.js';
import { lift } from '../ir/lift.js';
import { mermaidFlowchart } from '../ir/pipeline-diagram.js';
import { toYaml } from '../yaml/emit-yaml.js';
import { readYaml } from '../yaml/read-yaml.js';
import { EXIT, useColor } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { placeOf, renderDocuments, type Chosen, type Loaded } from './render-inputs.js';

export type RenderFormat = 'yaml' | 'mermaid';

export interface RenderFlags {
  readonly inputSet?: readonly string[];
  readonly set?: readonly string[];
  readonly format: RenderFormat;
  readonly out?: string;
  readonly json?: boolean;
}

/** The output folder: --out, else the config's outDir (the config is loaded only when there is one), else `out`. */
async function outDir(flag: string | undefined): Promise<string> {
  if (flag) return flag;
  const { loadConfig } = await import('../compile/load-config.js');
  return (await loadConfig()).config.outDir ?? DEFAULT_OUT_DIR;
}

/** `name=value`: the value is text, except `[...]` and `{...}`, read as YAML (a list for a list-valued input). */
function parseAssignment(text: string): Assignment {
  const at = text.indexOf('=');
  if (at <= 0)
    throw DiagnosticError.of(
      'usage',
      `--set ${JSON.stringify(text)} has no name=value`,
      'write --set pipeline.variables.env=prod',
    );
  const name = text.slice(0, at).trim();
  const raw = text.slice(at + 1);
  if (!/^\s*[[{]/.test(raw)) return { name, value: raw };
  const read = readYaml(raw, '--set');
  const problem = read.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
  if (problem || read.documents.length !== 1)
    throw DiagnosticError.of(
      'usage',
      `--set ${name}: ${JSON.stringify(raw)} is not a YAML list or map${problem ? ` (${problem.message})` : ''}`,
      'write a list as [a, b] and a map as {key: value}',
    );
  return { name, value: read.documents[0]!.value };
}

const describeSet = (chosen: Chosen) =>
  `${chosen.inputSet.key.identifier}${chosen.overlay ? ` (from overlay ${chosen.overlay.key.identifier})` : ''}`;

/** One runtime input as `--json` lists it. */
function jsonInput(input: MergedInput, sources: readonly ValueSource[], loaded: ReadonlyArray<Loaded | undefined>) {
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

/** `4 runtime inputs: 2 given, 1 default, 1 asked during the run` */
function inputCounts(inputs: readonly MergedInput[]): string {
  const count = (status: MergedInput['status']) => inputs.filter((input) => input.status === status).length;
  const parts = [
    count('given') && `${count('given')} given`,
    count('default') && `${count('default')} by default`,
    count('execution') && `${count('execution')} asked during the run`,
    count('unsatisfied') && `${count('unsatisfied')} unsatisfied`,
  ].filter(Boolean);
  return `${inputs.length} runtime input${inputs.length === 1 ? '' : 's'}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/**
 * Merges the input sets and --set values into the pipeline as the platform does before a run, prints the result
 * (YAML, or a mermaid flowchart) on stdout and, on stderr, each runtime input left unsatisfied or given a value its
 * validator refuses; 1 when there is any.
 */
export async function runRender(pipelineArg: string, flags: RenderFlags): Promise<number> {
  const assignments = (flags.set ?? []).map(parseAssignment);
  const { pipeline, inputSets } = await renderDocuments(pipelineArg, flags.inputSet ?? [], () => outDir(flags.out));
  const diagnostics: Diagnostic[] = [];

  // The platform refuses to save an input set that sets a field the pipeline fixes: say so here too.
  const inputs = runtimeInputs(pipeline.value);
  const pipelineName = pipeline.key?.identifier ?? 'pipeline';
  for (const { inputSet } of inputSets)
    for (const diagnostic of inputSetFit(inputSet.value, inputs, pipelineName))
      if (diagnostic.code === 'input-set-not-an-input')
        diagnostics.push({ ...diagnostic, location: placeOf(inputSet, diagnostic.path) });

  const sources: ValueSource[] = inputSets.map(({ inputSet }) =>
    inputSetSource(`input set "${inputSet.key.identifier}"`, inputSet.value),
  );
  const loaded: Array<Loaded | undefined> = inputSets.map(({ inputSet }) => inputSet);
  if (assignments.length) {
    const { source, unknown } = assignmentSource(pipeline.value, assignments);
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
  }

  const merged = mergeInputs(pipeline.value, sources);
  for (const { diagnostic, source } of merged.findings) {
    const document = source === undefined ? pipeline : loaded[source];
    // Values from --set have no file: their diagnostics name `--set` as their subject instead.
    diagnostics.push(document ? { ...diagnostic, location: placeOf(document, diagnostic.path) } : diagnostic);
  }

  const root = lift('pipeline', merged.document);
  const pipelineNode =
    root.kind === 'pipeline' ? root : (root.children.find((child) => child.node.kind === 'pipeline')?.node ?? root);
  const output = flags.format === 'mermaid' ? mermaidFlowchart(pipelineNode) : toYaml(merged.document);
  const failed = hasErrors(diagnostics);

  if (flags.json) {
    const { key } = pipeline;
    printEnvelope('render', !failed, diagnostics, {
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
      inputs: merged.inputs.map((input) => jsonInput(input, sources, loaded)),
      format: flags.format,
      output,
    });
    return failed ? EXIT.failed : EXIT.ok;
  }
  process.stdout.write(output);
  if (diagnostics.length) process.stderr.write(formatDiagnostics(diagnostics, { color: useColor(process.stderr) }));
  const withSets = inputSets.length
    ? ` with input set${inputSets.length === 1 ? '' : 's'} ${inputSets.map(describeSet).join(', ')}`
    : '';
  const withValues = assignments.length
    ? `${withSets ? ' and' : ' with'} ${assignments.length} --set value${assignments.length === 1 ? '' : 's'}`
    : '';
  process.stderr.write(
    `pipeline "${pipeline.key.identifier}" (${pipeline.file})${withSets}${withValues}: ${inputCounts(merged.inputs)}\n`,
  );
  return failed ? EXIT.failed : EXIT.ok;
}
