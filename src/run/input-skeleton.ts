import { fieldsOf } from '../check/input-fields.js';
import { isRuntimeInput } from '../check/runtime-input.js';
import type { DocPath } from '../core/document-path.js';
import { isRecord } from '../core/is-record.js';

/**
 * A pipeline document cut down to its runtime inputs: the form of the platform's runtime-input template
 * (`/inputSets/template`) and of the YAML an execute request carries. Every map and list on the way to a `<+input>`
 * stays, and a list element keeps the fields that identify it (identifier, name, type), so the platform finds
 * the field a value is for; everything else goes. Undefined when the pipeline has no runtime input.
 */
export function inputSkeleton(pipelineDocument: unknown): Record<string, unknown> | undefined {
  if (!isRecord(pipelineDocument) || !isRecord(pipelineDocument.pipeline)) return undefined;
  const paths = fieldsOf(pipelineDocument.pipeline, ['pipeline'])
    .filter((field) => field.leaf && isRuntimeInput(field.value))
    .map((field) => field.path);
  if (paths.length === 0) return undefined;
  const skeleton: Record<string, unknown> = {};
  // Where each list element of the pipeline landed in the skeleton's copy of its list.
  const placed = new Map<unknown, number>();
  for (const path of paths) copyPath(pipelineDocument, skeleton, path, placed);
  return skeleton;
}

/** What identifies a list element (or the map a wrapper key holds): kept beside the runtime inputs. */
const IDENTITY = ['identifier', 'name', 'type'];

function copyPath(
  source: unknown,
  into: Record<string, unknown> | unknown[],
  path: DocPath,
  placed: Map<unknown, number>,
): void {
  let from = source as Record<string | number, unknown>;
  let to = into as Record<string | number, unknown>;
  for (const [depth, step] of path.entries()) {
    const value = from[step];
    const last = depth === path.length - 1;
    let key: string | number = step;
    if (Array.isArray(from)) {
      // A list element goes where its copy already is, else at the end of the copy.
      const list = to as unknown as unknown[];
      key = placed.get(value) ?? list.length;
      placed.set(value, key);
    }
    if (last) {
      to[key] = value;
      return;
    }
    if (to[key] === undefined) {
      to[key] = Array.isArray(value) ? [] : identity(value);
    }
    from = value as Record<string | number, unknown>;
    to = to[key] as Record<string | number, unknown>;
  }
}

/** A new map with the identity fields of `value` (and, for a wrapper such as `{ stage: {...} }`, nothing yet). */
function identity(value: unknown): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  if (isRecord(value)) for (const key of IDENTITY) if (typeof value[key] === 'string') kept[key] = value[key];
  return kept;
}
