import { valueAt, type DocPath } from '../core/document-path.js';
import { diagnosticOf, type Diagnostic } from '../core/diagnostics.js';
import { isRecord } from '../core/is-record.js';
import { isNumberText } from '../schema/common.js';
import { fieldMap, fieldsOf, type Field } from './input-fields.js';
import { ruleError } from './rule-kit.js';
import {
  isRuntimeInput,
  runtimeInputSpec,
  splitAllowedValues,
  validatorProblem,
  type RuntimeInputSpec,
} from './runtime-input.js';

/**
 * The pipeline that will run: input sets (and values given on the command line) merged into a pipeline as the
 * platform merges them before a run, each runtime input then given, defaulted, left to be asked during the run, or
 * unsatisfied. The platform's rules, with their sources, are in docs/render.md:
 * - values land only on the pipeline's runtime inputs, matched by field identity (input-fields.ts);
 * - of several sources, the last that has a field wins, except that a source giving `<+input>` again gives nothing;
 * - a source with fields under a runtime input that the pipeline takes whole (`serviceInputs: <+input>`) gives the
 *   whole map or list, from the last source that has any;
 * - under `service`, `environment`, `template`, `services`, `environments` and `environmentGroup`, a field the
 *   pipeline does not have at all is added from the sources (service inputs for a service chosen at run time);
 * - a runtime input left with a `.default(x)` runs with x; one with `.executionInput()` is asked during the run.
 */

/** Values for runtime inputs from one place: an input set, or the command line. */
export interface ValueSource {
  /** How messages name it: `input set "prod"`, `--set`. */
  readonly label: string;
  /** The document the values are in, for the subject of a diagnostic; none for the command line. */
  readonly document?: unknown;
  readonly fields: ReadonlyMap<string, Field>;
}

/** An input set document's values (under `inputSet.pipeline`) as a source. */
export function inputSetSource(label: string, document: unknown): ValueSource {
  const body = isRecord(document) && isRecord(document.inputSet) ? document.inputSet.pipeline : undefined;
  return { label, document, fields: fieldMap(isRecord(body) ? fieldsOf(body, ['inputSet', 'pipeline']) : []) };
}

export interface Assignment {
  /** A runtime input's name (`pipeline.variables.env`; the leading `pipeline.` may be left out). */
  readonly name: string;
  readonly value: unknown;
}

/** The names a runtime input of the pipeline can be given by: every runtime input's `name`, in document order. */
export const runtimeInputNames = (pipelineDocument: unknown): string[] =>
  runtimeInputFields(pipelineDocument).map((field) => field.name);

const runtimeInputFields = (pipelineDocument: unknown): Field[] =>
  isRecord(pipelineDocument) && isRecord(pipelineDocument.pipeline)
    ? fieldsOf(pipelineDocument.pipeline, ['pipeline']).filter((field) => field.leaf && isRuntimeInput(field.value))
    : [];

/**
 * `--set name=value` values as a source, applied after every input set as the platform applies the values given
 * with a run; names that are no runtime input of the pipeline come back in `unknown`. A name given twice: the last.
 * Text given to a Number variable becomes a number, as the platform reads it (NumberNGVariable's `value` is a
 * ParameterField<Double>); text that is neither a number nor an expression comes back in `mistyped`.
 */
export function assignmentSource(
  pipelineDocument: unknown,
  assignments: readonly Assignment[],
): { source: ValueSource; unknown: Assignment[]; mistyped: Diagnostic[] } {
  const inputs = runtimeInputFields(pipelineDocument);
  const fields = new Map<string, Field>();
  const unknown: Assignment[] = [];
  const mistyped: Diagnostic[] = [];
  for (const assignment of assignments) {
    const name = assignment.name.startsWith('pipeline.') ? assignment.name : `pipeline.${assignment.name}`;
    const targets = inputs.filter((input) => input.name === name);
    if (targets.length === 0) unknown.push(assignment);
    for (const target of targets) {
      const typed = typedValue(pipelineDocument, target.path, assignment.value);
      if ('problem' in typed)
        mistyped.push(
          diagnosticOf('input-value-wrong-type', 'error', {
            message: `${name} is a Number variable: ${JSON.stringify(assignment.value)} is ${typed.problem}`,
            path: [],
            subject: '--set',
            hint: `write a number (--set ${name}=5) or an expression (<+pipeline.sequenceId>)`,
          }),
        );
      else fields.set(target.key, { key: target.key, name, path: [], value: typed.value, leaf: true });
    }
  }
  return { source: { label: '--set', fields }, unknown, mistyped };
}

/**
 * A value given on the command line (text) typed as the field it lands on declares: the `value` of a variable of
 * `type: Number` a number. Other fields stay text, as the platform's runtime input form sends them.
 */
function typedValue(
  pipelineDocument: unknown,
  path: DocPath,
  value: unknown,
): { value: unknown } | { problem: string } {
  if (typeof value !== 'string' || path.at(-1) !== 'value') return { value };
  const variable = valueAt(pipelineDocument, path.slice(0, -1));
  if (!isRecord(variable) || variable.type !== 'Number') return { value };
  const text = value.trim();
  // The schema's pattern for the value's text: a number, or an expression or nothing, both kept as text.
  if (!isNumberText(text)) return { problem: 'not a number' };
  return text === '' || text.startsWith('<+') ? { value } : { value: Number(text) };
}

type InputStatus = 'given' | 'default' | 'execution' | 'unsatisfied';

/** One runtime input of the merged pipeline and what became of it. */
export interface MergedInput {
  /** `pipeline.variables.env`: what `--set` takes. */
  readonly name: string;
  /** Where it is in the merged document. */
  readonly path: DocPath;
  /** The runtime input as written (`<+input>.allowedValues(dev,prod)`). */
  readonly input: string;
  /** given: a source gave it; default: it runs with its default; execution: asked during the run; unsatisfied. */
  readonly status: InputStatus;
  readonly value?: unknown;
  /** The source (index) that gave the value, or that brought the runtime input itself in a map it gave. */
  readonly source?: number;
  /** Where in that source's document (empty for the command line). */
  readonly sourcePath?: DocPath;
}

/** A diagnostic about the pipeline's document (no `source`) or about a source's (`source` is its index). */
interface Finding {
  readonly diagnostic: Diagnostic;
  readonly source?: number;
}

export interface MergeResult {
  /** The pipeline document that will run. */
  readonly document: unknown;
  /** Every runtime input of it, in document order. */
  readonly inputs: MergedInput[];
  readonly findings: Finding[];
}

/** Fields under which a source may add what the pipeline does not have (MergeHelper.acceptAllChildrenKeys). */
const ACCEPT_ALL_CHILDREN = new Set([
  'service',
  'environment',
  'template',
  'services',
  'environments',
  'environmentGroup',
]);

/** A place in the merged document a source filled, and where the value was in the source. */
interface Given {
  readonly at: DocPath;
  readonly source: number;
  readonly sourcePath: DocPath;
  /** The pipeline's runtime input the value replaced; none for a field added under `service` and the like. */
  readonly input?: string;
}

function setAt(document: unknown, path: DocPath, value: unknown): void {
  let node = document as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
}

const startsWith = (path: DocPath, prefix: DocPath) =>
  prefix.length <= path.length && prefix.every((key, index) => path[index] === key);

/** The value for the field `key`: the last source that has it (or fields under it), skipping a bare `<+input>`. */
function valueFor(key: string, sources: readonly ValueSource[]): { source: number; field: Field } | undefined {
  for (let source = sources.length - 1; source >= 0; source--) {
    const field = sources[source]!.fields.get(key);
    if (!field) continue;
    if (field.leaf && isRuntimeInput(field.value) && !runtimeInputSpec(field.value).executionInput) continue;
    return { source, field };
  }
  return undefined;
}

const quoted = (values: readonly string[]) => values.map((value) => JSON.stringify(value)).join(', ');

export function mergeInputs(pipelineDocument: unknown, sources: readonly ValueSource[]): MergeResult {
  const document = structuredClone(pipelineDocument);
  const findings: Finding[] = [];
  const given: Given[] = [];
  const body = isRecord(document) ? document.pipeline : undefined;
  if (!isRecord(body)) return { document, inputs: [], findings };
  const pipelineFields = fieldsOf(body, ['pipeline']);

  /** A diagnostic in a source's document (or about the command line), or in the pipeline's when `source` is undefined. */
  const finding = (
    source: number | undefined,
    path: DocPath,
    code: 'input-value-not-allowed' | 'unsatisfied-input',
    message: string,
    hint: string,
  ): Finding => {
    if (source === undefined) return { diagnostic: ruleError(pipelineDocument, path, code, message, hint) };
    const { document: sourceDocument, label } = sources[source]!;
    const diagnostic =
      sourceDocument === undefined
        ? diagnosticOf(code, 'error', { message, path: [], subject: label, hint })
        : ruleError(sourceDocument, path, code, message, hint);
    return { diagnostic, source };
  };

  for (const field of pipelineFields) {
    if (!field.leaf || !isRuntimeInput(field.value)) continue;
    const found = valueFor(field.key, sources);
    if (!found) continue;
    setAt(document, field.path, structuredClone(found.field.value));
    given.push({ at: field.path, source: found.source, sourcePath: found.field.path, input: field.value });
    const spec = runtimeInputSpec(field.value);
    const problem = validatorProblem(spec, found.field.value);
    if (problem)
      findings.push(
        finding(
          found.source,
          found.field.path,
          'input-value-not-allowed',
          notAllowedMessage(field.name, problem, spec),
          notAllowedHint(field.value, problem.kind),
        ),
      );
  }

  addAcceptedChildren(document, pipelineFields, sources, given);

  const inputs: MergedInput[] = [];
  for (const field of fieldsOf(body, ['pipeline'])) {
    const from = given.filter((entry) => startsWith(field.path, entry.at)).at(-1);
    const origin = from
      ? { source: from.source, sourcePath: [...from.sourcePath, ...field.path.slice(from.at.length)] }
      : {};
    if (!isRuntimeInput(field.value)) {
      if (from?.input !== undefined && from.at.length === field.path.length)
        inputs.push({
          name: field.name,
          path: field.path,
          input: from.input,
          status: 'given',
          value: field.value,
          ...origin,
        });
      continue;
    }
    const spec = runtimeInputSpec(field.value);
    const input = { name: field.name, path: field.path, input: field.value, ...origin };
    if (spec.executionInput)
      inputs.push({ ...input, status: 'execution', ...(spec.default !== undefined ? { value: spec.default } : {}) });
    else if (spec.default !== undefined) {
      setAt(document, field.path, spec.default);
      inputs.push({ ...input, status: 'default', value: spec.default });
    } else {
      inputs.push({ ...input, status: 'unsatisfied' });
      const message = `runtime input ${field.name} gets no value (${sources.length ? 'no input set or --set gives one' : 'no input set or --set is given'}) and has no default`;
      const hint = `give it a value in an input set, or with --set ${field.name}=VALUE, or a default in the pipeline: <+input>.default(VALUE)`;
      findings.push(finding(from?.source, origin.sourcePath ?? field.path, 'unsatisfied-input', message, hint));
    }
  }
  return { document, inputs, findings };
}

function notAllowedMessage(
  name: string,
  problem: { kind: 'allowedValues' | 'regex'; rejected: string[] },
  spec: RuntimeInputSpec,
): string {
  const one = problem.rejected.length === 1;
  return problem.kind === 'allowedValues'
    ? `${name}: ${quoted(problem.rejected)} ${one ? 'is' : 'are'} not among its allowed values ${splitAllowedValues(spec.validator!.args).join(', ')}`
    : `${name}: ${quoted(problem.rejected)} ${one ? 'does' : 'do'} not match its pattern ${spec.validator!.args}`;
}

const notAllowedHint = (input: string, kind: 'allowedValues' | 'regex') =>
  kind === 'allowedValues'
    ? `the pipeline takes only those values (${input}); give one of them, or add the value to allowedValues in the pipeline`
    : `the platform matches the whole value against the pattern (${input}); give a value that matches it from start to end`;

/**
 * What a source has under `service`, `environment`, ... that the pipeline lacks altogether is added there, from
 * the last source that has it (MergeHelper.getNonIgnorableKeys and addNonIgnorableBaseKeys).
 */
function addAcceptedChildren(
  document: unknown,
  pipelineFields: readonly Field[],
  sources: readonly ValueSource[],
  given: Given[],
): void {
  const bases = new Map<string, Field>();
  for (const field of pipelineFields) {
    if (!field.leaf) continue;
    const index = field.path.findIndex((key, i) => i > 0 && typeof key === 'string' && ACCEPT_ALL_CHILDREN.has(key));
    if (index < 0) continue;
    const base = pipelineFields.find(
      (candidate) => candidate.path.length === index + 1 && startsWith(field.path, candidate.path),
    );
    if (base && isRecord(base.value)) bases.set(base.key, base);
  }
  for (const base of bases.values()) {
    const have = new Set(Object.keys(base.value as Record<string, unknown>));
    for (let source = sources.length - 1; source >= 0; source--)
      for (const field of sources[source]!.fields.values()) {
        const rest = field.key.startsWith(`${base.key}/`) ? field.key.slice(base.key.length + 1) : undefined;
        const child = field.path.at(-1);
        if (rest === undefined || rest.includes('/') || typeof child !== 'string' || have.has(child)) continue;
        have.add(child);
        setAt(document, [...base.path, child], structuredClone(field.value));
        given.push({ at: [...base.path, child], source, sourcePath: field.path });
      }
  }
}
