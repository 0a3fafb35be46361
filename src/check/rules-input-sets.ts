import type { Diagnostic } from '../core/diagnostics.js';
import { ruleError, ruleWarning } from './rule-kit.js';
import { keyString, type ResourceKey } from './check-document.js';
import { isRecord } from '../core/is-record.js';
import { fieldsOf } from './input-fields.js';
import { isRuntimeInput, runtimeInputSpec } from './runtime-input.js';

/**
 * An input set against the pipeline it fills, when both are compiled: the platform refuses an input set that
 * sets a field the pipeline does not take as `<+input>` (it merges input sets into the pipeline by stage, step
 * and variable identity, and rejects what lands on a fixed value); a runtime input without a default that no
 * value fills only fails when a run starts with this input set alone, so that is a warning.
 */

/** Fields an input set repeats only to say which stage or step it means. */
const IDENTITY_FIELDS = new Set(['identifier', 'type', 'name']);

/** The key (`keyString`) of the pipeline an input set fills: same org and project, its parent's identifier. */
export const pipelineKeyOf = (inputSet: ResourceKey): string | undefined =>
  inputSet.parent === undefined ? undefined : keyString({ kind: 'pipeline', org: inputSet.org, project: inputSet.project, identifier: inputSet.parent });

export function inputSetFit(inputSetDocument: unknown, pipelineDocument: unknown): Diagnostic[] {
  const inputSet = isRecord(inputSetDocument) && isRecord(inputSetDocument.inputSet) ? inputSetDocument.inputSet : undefined;
  const pipeline = isRecord(pipelineDocument) && isRecord(pipelineDocument.pipeline) ? pipelineDocument.pipeline : undefined;
  if (!inputSet || !pipeline || !isRecord(inputSet.pipeline)) return [];
  const inputs = fieldsOf(pipeline, ['pipeline']).filter((field) => field.leaf && isRuntimeInput(field.value));
  const filled = fieldsOf(inputSet.pipeline, ['inputSet', 'pipeline']).filter((field) => field.leaf && !IDENTITY_FIELDS.has(String(field.path.at(-1))));
  const takes = (key: string) => inputs.some((input) => key === input.key || key.startsWith(`${input.key}/`));
  const found: Diagnostic[] = [];
  for (const leaf of filled)
    if (!takes(leaf.key))
      found.push(
        ruleError(inputSetDocument, leaf.path, 'input-set-not-an-input', `${leaf.path.slice(2).join('.')} is not a runtime input of pipeline "${String(pipeline.identifier)}"`,
          'the platform refuses an input set that sets a field the pipeline fixes; make the field <+input> in the pipeline, or remove it here'),
      );
  for (const input of inputs) {
    const spec = runtimeInputSpec(String(input.value));
    if (spec.default !== undefined || spec.executionInput || filled.some((leaf) => leaf.key === input.key || leaf.key.startsWith(`${input.key}/`))) continue;
    found.push(
      ruleWarning(inputSetDocument, ['inputSet', 'pipeline'], 'input-set-missing-input', `leaves ${input.path.slice(1).join('.')} of pipeline "${String(pipeline.identifier)}" unset, and it has no default`,
        'a run started with this input set alone stops and asks for it; give a value here, or a .default(...) in the pipeline'),
    );
  }
  return found;
}
