import type { DocPath } from '../core/document-path.js';
import type { Diagnostic } from '../core/diagnostics.js';
import { ruleError, ruleWarning } from './rule-kit.js';
import { isRuntimeInput } from './runtime-input.js';
import type { SeenInput } from './walk.js';
import { isRecord } from '../core/is-record.js';
import { fieldKeysAt, fieldsOf, nameOfKey } from './input-fields.js';

/**
 * An input set against the pipeline it fills, when both are compiled: the platform refuses an input set that
 * sets a field the pipeline does not take as `<+input>` (it merges input sets into the pipeline by stage, step
 * and variable identity, and rejects what lands on a fixed value); a runtime input without a default that no
 * value fills only fails when a run starts with this input set alone, so that is a warning.
 */

/** Fields an input set repeats only to say which stage or step it means. */
const IDENTITY_FIELDS = new Set(['identifier', 'type', 'name']);

/** A field a pipeline takes as `<+input>`: keyed as the platform keys it (`fieldsOf`), and whether it has a default. */
export interface RuntimeInput {
  /** The field's key (`pipeline/stages/stage[identifier:build]/...`), or that of the one-piece field holding it. */
  readonly key: string;
  readonly path: DocPath;
  /** `<+input>.default(...)` or `.executionInput()`: a run without a value for it does not stop. */
  readonly optional: boolean;
}

/**
 * The runtime inputs of a pipeline document: what an input set of it may fill. `seen` are those the document
 * check's walk passed (compile keeps them for every pipeline it builds: no second walk); without them, the
 * document is walked for them here.
 */
export function runtimeInputs(pipelineDocument: unknown, seen?: readonly SeenInput[]): RuntimeInput[] {
  const found: RuntimeInput[] = [];
  const inputs = seen ?? inputsIn(pipelineDocument, [], []);
  const body = isRecord(pipelineDocument) ? pipelineDocument.pipeline : undefined;
  const keyAt = fieldKeysAt(body);
  for (const { path, text } of inputs) {
    if (path[0] !== 'pipeline') continue;
    found.push({ key: keyAt(path.slice(1)), path, optional: /\.default\(|\.executionInput\(\)/.test(text) });
  }
  // A pipeline made from a template takes the template's inputs under `template.templateInputs`: the template is
  // another document, not read here, so any value there is taken (none is required).
  if (isRecord(body) && isRecord(body.template))
    found.push({
      key: keyAt(['template', 'templateInputs']),
      path: ['pipeline', 'template', 'templateInputs'],
      optional: true,
    });
  return found;
}

/** The runtime inputs under `value`, in document order (the walk's order). */
function inputsIn(value: unknown, path: Array<string | number>, into: SeenInput[]): SeenInput[] {
  if (typeof value === 'string') {
    if (isRuntimeInput(value)) into.push({ path: [...path], text: value });
  } else if (Array.isArray(value))
    value.forEach((item, index) => {
      path.push(index);
      inputsIn(item, path, into);
      path.pop();
    });
  else if (isRecord(value))
    for (const [key, item] of Object.entries(value)) {
      path.push(key);
      inputsIn(item, path, into);
      path.pop();
    }
  return into;
}

/** A field's name as an input set's values give it (`variables.tag`, `stages.build.spec...`). */
const withoutRoot = (name: string) => name.replace(/^pipeline\./, '');

/**
 * An input set's document against the runtime inputs of its pipeline (`pipeline`, its identifier for messages):
 * a value for a field that is no input is an error, an input without a default left unset a warning.
 */
export function inputSetFit(
  inputSetDocument: unknown,
  inputs: readonly RuntimeInput[],
  pipeline: string,
): Diagnostic[] {
  const inputSet =
    isRecord(inputSetDocument) && isRecord(inputSetDocument.inputSet) ? inputSetDocument.inputSet : undefined;
  if (!inputSet || !isRecord(inputSet.pipeline)) return [];
  const filled = fieldsOf(inputSet.pipeline, ['inputSet', 'pipeline']).filter(
    (field) => field.leaf && !IDENTITY_FIELDS.has(String(field.path.at(-1))),
  );
  const takes = (key: string) => inputs.some((input) => key === input.key || key.startsWith(`${input.key}/`));
  const found: Diagnostic[] = [];
  for (const leaf of filled)
    if (!takes(leaf.key))
      found.push(
        ruleError(
          inputSetDocument,
          leaf.path,
          'input-set-not-an-input',
          `${withoutRoot(leaf.name)} is not a runtime input of pipeline "${pipeline}"`,
          'the platform refuses an input set that sets a field the pipeline fixes; make the field <+input> in the pipeline, or remove it here',
        ),
      );
  for (const input of inputs) {
    if (input.optional || filled.some((leaf) => leaf.key === input.key || leaf.key.startsWith(`${input.key}/`)))
      continue;
    found.push(
      ruleWarning(
        inputSetDocument,
        ['inputSet', 'pipeline'],
        'input-set-missing-input',
        `leaves ${withoutRoot(nameOfKey(input.key))} of pipeline "${pipeline}" unset, and it has no default`,
        'a run started with this input set alone stops and asks for it; give a value here, or a .default(...) in the pipeline',
      ),
    );
  }
  return found;
}
