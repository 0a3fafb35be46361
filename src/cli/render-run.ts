import type { Assignment } from '../check/merge-inputs.js';
import { DiagnosticError, formatDiagnostics } from '../core/diagnostics.js';
import { render, type RenderFormat, type RenderResult } from '../render/render.js';
import { readYaml } from '../yaml/read-yaml.js';
import { EXIT, useColor } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { stderr, stdout } from './output.js';

export interface RenderFlags {
  readonly inputSet?: readonly string[];
  readonly set?: readonly string[];
  readonly format: RenderFormat;
  readonly out?: string;
  readonly json?: boolean;
}

/** `name=value`: the value is text, except `[...]` and `{...}`, read as YAML (a list for a list-valued input). */
export function parseAssignment(text: string): Assignment {
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

const describeSet = (set: RenderResult['inputSets'][number]) =>
  `${set.identifier}${set.overlay ? ` (from overlay ${set.overlay})` : ''}`;

/** `4 runtime inputs: 2 given, 1 default, 1 asked during the run` */
function inputCounts(inputs: RenderResult['inputs']): string {
  const count = (status: RenderResult['inputs'][number]['status']) =>
    inputs.filter((input) => input.status === status).length;
  const parts = [
    count('given') && `${count('given')} given`,
    count('default') && `${count('default')} by default`,
    count('execution') && `${count('execution')} asked during the run`,
    count('unsatisfied') && `${count('unsatisfied')} unsatisfied`,
  ].filter(Boolean);
  return `${inputs.length} runtime input${inputs.length === 1 ? '' : 's'}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/**
 * `pipewright render`: render, then the result on stdout (YAML, or a mermaid flowchart) and, on stderr, each
 * runtime input left unsatisfied or given a value its validator refuses; 1 when there is any.
 */
export async function runRender(pipelineArg: string, flags: RenderFlags): Promise<number> {
  const values = (flags.set ?? []).map(parseAssignment);
  const result = await render({
    pipeline: pipelineArg,
    inputSets: flags.inputSet ?? [],
    values,
    format: flags.format,
    outDir: flags.out,
  });
  const exit = result.ok ? EXIT.ok : EXIT.failed;
  if (flags.json) {
    const { pipeline, inputSets, inputs, format, output } = result;
    printEnvelope('render', result.ok, result.diagnostics, { pipeline, inputSets, inputs, format, output });
    return exit;
  }
  stdout(result.output);
  if (result.diagnostics.length) stderr(formatDiagnostics(result.diagnostics, { color: useColor(process.stderr) }));
  const sets = result.inputSets;
  const withSets = sets.length
    ? ` with input set${sets.length === 1 ? '' : 's'} ${sets.map(describeSet).join(', ')}`
    : '';
  const withValues = values.length
    ? `${withSets ? ' and' : ' with'} ${values.length} --set value${values.length === 1 ? '' : 's'}`
    : '';
  stderr(
    `pipeline "${result.pipeline.identifier}" (${result.pipeline.file})${withSets}${withValues}: ${inputCounts(result.inputs)}\n`,
  );
  return exit;
}
