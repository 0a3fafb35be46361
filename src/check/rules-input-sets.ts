import type { DocPath } from '../core/document-path.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { ruleError, ruleWarning } from './rule-kit.js';
import { keyString, type ResourceKey } from './check-document.js';
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
const isRuntimeInput = (value: unknown) => typeof value === 'string' && value.trim().startsWith('<+input>');

/** The key (`keyString`) of the pipeline an input set fills: same org and project, its parent's identifier. */
export const pipelineKeyOf = (inputSet: ResourceKey): string | undefined =>
  inputSet.parent === undefined ? undefined : keyString({ kind: 'pipeline', org: inputSet.org, project: inputSet.project, identifier: inputSet.parent });

export function inputSetFit(inputSetDocument: unknown, pipelineDocument: unknown): Diagnostic[] {
  const inputSet = isRecord(inputSetDocument) && isRecord(inputSetDocument.inputSet) ? inputSetDocument.inputSet : undefined;
  const pipeline = isRecord(pipelineDocument) && isRecord(pipelineDocument.pipeline) ? pipelineDocument.pipeline : undefined;
  if (!inputSet || !pipeline || !isRecord(inputSet.pipeline)) return [];
  const inputs = leaves(pipeline, ['pipeline'], '', []).filter((leaf) => isRuntimeInput(leaf.value));
  const filled = leaves(inputSet.pipeline, ['inputSet', 'pipeline'], '', []).filter((leaf) => !IDENTITY_FIELDS.has(String(leaf.path.at(-1))));
  const takes = (key: string) => inputs.some((input) => key === input.key || key.startsWith(`${input.key}/`));
  const found: Diagnostic[] = [];
  for (const leaf of filled)
    if (!takes(leaf.key))
      found.push(
        ruleError(inputSetDocument, leaf.path, 'input-set-not-an-input', `${leaf.path.slice(2).join('.')} is not a runtime input of pipeline "${String(pipeline.identifier)}"`,
          'the platform refuses an input set that sets a field the pipeline fixes; make the field <+input> in the pipeline, or remove it here'),
      );
  for (const input of inputs) {
    const text = String(input.value);
    if (/\.default\(|\.executionInput\(\)/.test(text) || filled.some((leaf) => leaf.key === input.key || leaf.key.startsWith(`${input.key}/`))) continue;
    found.push(
      ruleWarning(inputSetDocument, ['inputSet', 'pipeline'], 'input-set-missing-input', `leaves ${input.path.slice(1).join('.')} of pipeline "${String(pipeline.identifier)}" unset, and it has no default`,
        'a run started with this input set alone stops and asks for it; give a value here, or a .default(...) in the pipeline'),
    );
  }
  return found;
}
