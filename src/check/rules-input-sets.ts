import type { DocPath } from '../core/document-path.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { ruleError, ruleWarning } from './rule-kit.js';
import { isRecord } from '../core/is-record.js';

/**
 * An input set against the pipeline it fills, when both are compiled: the platform refuses an input set that
 * sets a field the pipeline does not take as `<+input>` (it merges input sets into the pipeline by stage, step
 * and variable identity, and rejects what lands on a fixed value); a runtime input without a default that no
 * value fills only fails when a run starts with this input set alone, so that is a warning.
 */

/** Where a list element sits: by its stage, step or step group identifier, or a variable's name; else its index. */
function elementKey(element: unknown, index: number): string {
  if (!isRecord(element)) return String(index);
  for (const key of ['stage', 'step', 'stepGroup'])
    if (isRecord(element[key]) && typeof element[key].identifier === 'string') return `${key}:${element[key].identifier}`;
  if (typeof element.name === 'string') return `name:${element.name}`;
  if (typeof element.identifier === 'string') return `id:${element.identifier}`;
  return String(index);
}

interface Leaf {
  readonly key: string;
  readonly path: DocPath;
  readonly value: unknown;
}

/** Every scalar (and empty container) under `value`, keyed by identity rather than list position. */
function leaves(value: unknown, path: DocPath, key: string, into: Leaf[]): Leaf[] {
  if (Array.isArray(value) && value.length > 0) value.forEach((item, index) => leaves(item, [...path, index], `${key}/${elementKey(item, index)}`, into));
  else if (isRecord(value) && Object.keys(value).length > 0) for (const [name, item] of Object.entries(value)) leaves(item, [...path, name], `${key}/${name}`, into);
  else into.push({ key, path, value });
  return into;
}

/** Fields an input set repeats only to say which stage or step it means. */
const IDENTITY_FIELDS = new Set(['identifier', 'type', 'name']);
const isRuntimeInput = (value: string) => value.includes('<+input>') && value.trim().startsWith('<+input>');

/** A field a pipeline takes as `<+input>`: keyed by identity as `leaves` keys them, and whether it has a default. */
export interface RuntimeInput {
  readonly key: string;
  readonly path: DocPath;
  /** `<+input>.default(...)` or `.executionInput()`: a run without a value for it does not stop. */
  readonly optional: boolean;
}

/**
 * The runtime inputs of a pipeline document: what an input set of it may fill. Compile keeps them with each
 * pipeline it builds (few fields, and a pipeline is checked against its input sets without being read again).
 */
export function runtimeInputs(pipelineDocument: unknown): RuntimeInput[] {
  const pipeline = isRecord(pipelineDocument) ? pipelineDocument.pipeline : undefined;
  const found: RuntimeInput[] = [];
  if (isRecord(pipeline)) inputsIn(pipeline, ['pipeline'], [], found);
  return found;
}

/** `leaves` for the runtime inputs only, its key built only for them (most of a pipeline is not one). */
function inputsIn(value: unknown, path: Array<string | number>, keys: string[], into: RuntimeInput[]): void {
  if (typeof value === 'string') {
    if (isRuntimeInput(value)) into.push({ key: keys.join(''), path: [...path], optional: /\.default\(|\.executionInput\(\)/.test(value) });
    return;
  }
  if (Array.isArray(value))
    value.forEach((item, index) => {
      path.push(index);
      keys.push(`/${elementKey(item, index)}`);
      inputsIn(item, path, keys, into);
      keys.pop();
      path.pop();
    });
  else if (isRecord(value))
    for (const name of Object.keys(value)) {
      path.push(name);
      keys.push(`/${name}`);
      inputsIn(value[name], path, keys, into);
      keys.pop();
      path.pop();
    }
}

/**
 * An input set's document against the runtime inputs of its pipeline (`pipeline`, its identifier for messages):
 * a value for a field that is no input is an error, an input without a default left unset a warning.
 */
export function inputSetFit(inputSetDocument: unknown, inputs: readonly RuntimeInput[], pipeline: string): Diagnostic[] {
  const inputSet = isRecord(inputSetDocument) && isRecord(inputSetDocument.inputSet) ? inputSetDocument.inputSet : undefined;
  if (!inputSet || !isRecord(inputSet.pipeline)) return [];
  const filled = leaves(inputSet.pipeline, ['inputSet', 'pipeline'], '', []).filter((leaf) => !IDENTITY_FIELDS.has(String(leaf.path.at(-1))));
  const takes = (key: string) => inputs.some((input) => key === input.key || key.startsWith(`${input.key}/`));
  const found: Diagnostic[] = [];
  for (const leaf of filled)
    if (!takes(leaf.key))
      found.push(
        ruleError(inputSetDocument, leaf.path, 'input-set-not-an-input', `${leaf.path.slice(2).join('.')} is not a runtime input of pipeline "${pipeline}"`,
          'the platform refuses an input set that sets a field the pipeline fixes; make the field <+input> in the pipeline, or remove it here'),
      );
  for (const input of inputs) {
    if (input.optional || filled.some((leaf) => leaf.key === input.key || leaf.key.startsWith(`${input.key}/`))) continue;
    found.push(
      ruleWarning(inputSetDocument, ['inputSet', 'pipeline'], 'input-set-missing-input', `leaves ${input.path.slice(1).join('.')} of pipeline "${pipeline}" unset, and it has no default`,
        'a run started with this input set alone stops and asks for it; give a value here, or a .default(...) in the pipeline'),
    );
  }
  return found;
}
