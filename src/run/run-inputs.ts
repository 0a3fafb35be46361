import { fieldsOf } from '../check/input-fields.js';
import {
  assignmentSource,
  inputSetSource,
  mergeInputs,
  runtimeInputNames,
  type Assignment,
  type MergedInput,
  type ValueSource,
} from '../check/merge-inputs.js';
import { isRuntimeInput } from '../check/runtime-input.js';
import { DiagnosticError, diagnosticOf, type Diagnostic } from '../core/diagnostics.js';
import { isRecord } from '../core/is-record.js';
import { closest } from '../core/suggest.js';
import { placeOf, type Loaded } from '../render/render-inputs.js';
import { toYaml } from '../yaml/emit-yaml.js';
import { readYamlFile } from '../yaml/read-yaml-file.js';
import { readYaml } from '../yaml/read-yaml.js';
import { inputSkeleton } from './input-skeleton.js';

/**
 * The inputs of a run, checked before the execute request as `render` checks them (check's merge, the same
 * messages): the input sets in order, then the `--inputs` file, then the `--set` values, merged into the
 * pipeline's runtime inputs; every runtime input must end with a value (or a default, or be asked during the run)
 * within its allowedValues and regex. What is sent is the merged runtime-input YAML.
 */

/** An input set as the platform holds it (its document, `inputSet:`), to merge in order. */
export interface InputSetDocument {
  readonly identifier: string;
  readonly document: unknown;
}

export interface RunInputs {
  /** The runtime-input YAML to send: empty when the pipeline has no runtime input. */
  readonly yaml: string;
  readonly inputs: readonly MergedInput[];
}

/** An `--inputs` file read: its values, the file (to locate a diagnostic), and whether it is written under `pipeline:`. */
export interface InputsFile {
  readonly source: ValueSource;
  readonly loaded: Loaded;
  /** A `pipeline:` file: paths of the input set form (`inputSet.pipeline...`) are one level deeper than in the file. */
  readonly underPipeline: boolean;
}

/** The document of an `--inputs` file: an input set (`inputSet:`) or the runtime-input YAML itself (`pipeline:`). */
export function readInputsFile(file: string): InputsFile {
  const text = readYamlFile(file);
  if ('refused' in text) throw new DiagnosticError([text.refused]);
  const read = readYaml(text.text, file);
  const errors = read.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length) throw new DiagnosticError(errors);
  const first = read.documents[0];
  const value = first?.value;
  const document = isRecord(value) && isRecord(value.pipeline) ? { inputSet: { pipeline: value.pipeline } } : value;
  if (!first || !isRecord(document) || !isRecord(document.inputSet))
    throw DiagnosticError.of(
      'usage',
      `--inputs ${file} is neither runtime-input YAML (pipeline:) nor an input set (inputSet:)`,
      'write the values under pipeline: as the platform\'s "Run" form shows them in YAML, or pass an input set file',
    );
  const loaded: Loaded = {
    kind: 'inputSet',
    key: { kind: 'inputSet', identifier: file },
    value,
    file,
    node: first.node,
    lines: read.lines,
  };
  return {
    source: inputSetSource(`--inputs ${file}`, document),
    loaded,
    underPipeline: isRecord(value) && isRecord(value.pipeline),
  };
}

/**
 * `--set` values typed by the runtime input's declared type: a variable of `type: Number` takes a number (refused
 * when the text is not one); everything else stays text, as the platform's form sends it.
 */
export function typedAssignments(pipelineDocument: unknown, assignments: readonly Assignment[]): Assignment[] {
  const body = isRecord(pipelineDocument) ? pipelineDocument.pipeline : undefined;
  const fields = isRecord(body) ? fieldsOf(body, ['pipeline']) : [];
  const problems: Diagnostic[] = [];
  const typed = assignments.map((assignment) => {
    const name = assignment.name.startsWith('pipeline.') ? assignment.name : `pipeline.${assignment.name}`;
    const field = fields.find(
      (candidate) => candidate.leaf && candidate.name === name && isRuntimeInput(candidate.value),
    );
    if (!field || typeof assignment.value !== 'string' || field.path.at(-1) !== 'value') return assignment;
    const owner = field.path
      .slice(0, -1)
      .reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], pipelineDocument);
    if (!isRecord(owner) || owner.type !== 'Number') return assignment;
    const number = Number(assignment.value.trim());
    if (assignment.value.trim() !== '' && Number.isFinite(number)) return { ...assignment, value: number };
    problems.push(
      diagnosticOf('input-value-not-allowed', 'error', {
        message: `${name}: ${JSON.stringify(assignment.value)} is not a number, and the variable is of type Number`,
        path: [],
        subject: '--set',
        hint: `give a number, e.g. --set ${name}=3`,
      }),
    );
    return assignment;
  });
  if (problems.length) throw new DiagnosticError(problems);
  return typed;
}

/** `--set` names that are no runtime input of the pipeline, as render words them. */
function unknownNames(pipelineDocument: unknown, identifier: string, unknown: readonly Assignment[]): Diagnostic[] {
  const names = runtimeInputNames(pipelineDocument);
  return unknown.map(({ name }) => {
    const suggestion = closest(name.startsWith('pipeline.') ? name : `pipeline.${name}`, names);
    return diagnosticOf('unknown-input', 'error', {
      message: `pipeline "${identifier}" has no runtime input ${name}`,
      path: [],
      subject: '--set',
      hint: suggestion
        ? `did you mean "${suggestion}"?`
        : names.length
          ? `its runtime inputs: ${names.join(', ')}`
          : 'the pipeline has no runtime inputs (<+input>)',
    });
  });
}

/**
 * The inputs merged and checked; a DiagnosticError with every problem when a runtime input is left without a value
 * or given one it refuses (nothing is sent then).
 */
export function runInputs(
  pipelineDocument: unknown,
  identifier: string,
  inputSets: readonly InputSetDocument[],
  inputsFile: InputsFile | undefined,
  values: readonly Assignment[],
): RunInputs {
  const skeleton = inputSkeleton(pipelineDocument);
  const sources: ValueSource[] = inputSets.map((set) => inputSetSource(`input set "${set.identifier}"`, set.document));
  const files: Array<InputsFile | undefined> = inputSets.map(() => undefined);
  if (inputsFile) {
    sources.push(inputsFile.source);
    files.push(inputsFile);
  }
  const diagnostics: Diagnostic[] = [];
  if (values.length) {
    const { source, unknown } = assignmentSource(pipelineDocument, typedAssignments(pipelineDocument, values));
    sources.push(source);
    files.push(undefined);
    diagnostics.push(...unknownNames(pipelineDocument, identifier, unknown));
  }
  if (!skeleton) {
    if (diagnostics.length) throw new DiagnosticError(diagnostics);
    return { yaml: '', inputs: [] };
  }
  const merged = mergeInputs(skeleton, sources);
  for (const { diagnostic, source } of merged.findings) {
    const file = source === undefined ? undefined : files[source];
    diagnostics.push(file ? { ...diagnostic, location: placeIn(file, diagnostic.path) } : diagnostic);
  }
  if (diagnostics.some((diagnostic) => diagnostic.severity === 'error')) throw new DiagnosticError(diagnostics);
  return { yaml: toYaml(numbersTyped(merged.document)), inputs: merged.inputs };
}

/**
 * Values of variables declared `type: Number` as numbers: a default (`<+input>.default(2)`) and an input set's
 * value arrive as text, and the platform's form sends a number for them.
 */
function numbersTyped(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(numbersTyped);
  if (!isRecord(value)) return value;
  const typed = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, numbersTyped(child)]));
  const text = typed.value;
  if (typed.type === 'Number' && typeof text === 'string' && text.trim() !== '' && Number.isFinite(Number(text)))
    typed.value = Number(text);
  return typed;
}

/** Where a diagnostic's path is in an `--inputs` file (a `pipeline:` file holds it one level up). */
const placeIn = (file: InputsFile, path: Diagnostic['path']) =>
  placeOf(file.loaded, file.underPipeline && path[0] === 'inputSet' ? path.slice(1) : path);
