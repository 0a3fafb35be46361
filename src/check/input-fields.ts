import type { DocPath } from '../core/document-path.js';
import { isRecord } from '../core/is-record.js';

/**
 * The fields of a pipeline body (or of the pipeline part of an input set) keyed as the platform keys them when it
 * merges input sets into a pipeline: by stage, step and step group identifier, by a variable's name, never by list
 * position, and with a parallel block adding no position either. The platform builds the same keys (its "FQN
 * map": FQNMapGenerator and FQNHelper in harness-core's 953-yaml-commons); fields of two documents with one key
 * are one field.
 */
export interface Field {
  /** Identity, as the platform writes it: `pipeline/stages/stage[identifier:build]/spec/...`, `pipeline/variables/[name:env]/value`. */
  readonly key: string;
  /** The name expressions use: `pipeline.stages.build.spec.execution.steps.run.spec.image`, `pipeline.variables.env`. */
  readonly name: string;
  /** Where it is in the document. */
  readonly path: DocPath;
  readonly value: unknown;
  /**
   * A value the platform keys as one piece: a scalar, an empty list or map, a list without identities (a list of
   * strings), or any field of a list element keyed by its name. The rest are maps and lists holding fields.
   */
  readonly leaf: boolean;
}

/** Map keys the platform leaves out of expression names (FQN.getExpressionFqn). */
const UNNAMED = new Set(['step', 'parallel']);

/** Fields that identify a list element, in the order the platform tries them (FQNHelper.possibleUUIDs). */
const IDENTITY_KEYS = ['identifier', 'id', 'name', 'key', 'commandType', 'serviceRef', 'environmentRef'];
/** Of those, the ones whose element is looked into; the others' fields are each one piece (a variable's `value`). */
const LOOKED_INTO = new Set(['identifier', 'id', 'serviceRef', 'environmentRef']);

const identityKeyOf = (value: unknown): string | undefined =>
  isRecord(value) ? IDENTITY_KEYS.find((key) => key in value) : undefined;

type ElementIdentity =
  { readonly wrapper: string; readonly by: string } | { readonly wrapper?: undefined; readonly by: string };

/**
 * How the platform keys one list element (FQNMapGenerator.generateFQNMapFromListInternal): under its one wrapper key
 * (`- step: {identifier: x}`, `- parallel: [...]`) by the identifier inside, or by an identity field of its own
 * (`- name: env`); undefined when it has neither, and then the whole list is one value.
 */
function elementIdentity(element: unknown): ElementIdentity | undefined {
  if (!isRecord(element)) return undefined;
  const own = identityKeyOf(element);
  const wrapper =
    Object.keys(element).find((key) => identityKeyOf(element[key]) !== undefined) ??
    ('parallel' in element ? 'parallel' : undefined);
  if (wrapper !== undefined && own === undefined) {
    if (wrapper === 'parallel') return { wrapper, by: 'parallel' };
    const inner = element[wrapper] as Record<string, unknown>;
    const by = ['identifier', 'id'].find((key) => key in inner);
    return by ? { wrapper, by } : undefined;
  }
  return own === undefined ? undefined : { by: own };
}

/** A list element's key under its list's `key`: `stage[identifier:build]` by its wrapper, `[name:env]` by its own field. */
const elementKey = (key: string, { wrapper, by }: ElementIdentity, element: Record<string, unknown>): string =>
  wrapper === undefined
    ? `${key}/[${by}:${String(element[by])}]`
    : `${key}/${wrapper}[${by}:${String((element[wrapper] as Record<string, unknown>)[by])}]`;

/** The identities of a list's elements, or undefined when the platform keys the whole list as one value. */
function listIdentities(list: readonly unknown[]): ElementIdentity[] | undefined {
  if (list.length === 0) return undefined;
  const identities = list.map(elementIdentity);
  return identities.every((identity) => identity !== undefined) ? (identities as ElementIdentity[]) : undefined;
}

/** Every field under `body` (which sits at `at` in its document), maps and lists before what they hold. */
export function fieldsOf(body: unknown, at: DocPath): Field[] {
  const into: Field[] = [];
  visit(body, 'pipeline', ['pipeline'], at, into);
  return into;
}

function visit(value: unknown, key: string, name: readonly string[], path: DocPath, into: Field[]): void {
  const identities = Array.isArray(value) ? listIdentities(value) : undefined;
  const nested = identities !== undefined || (isRecord(value) && Object.keys(value).length > 0);
  into.push({ key, name: name.join('.'), path, value, leaf: !nested });
  if (!nested) return;
  if (identities) visitList(value as unknown[], identities, key, name, path, into);
  else
    for (const [field, item] of Object.entries(value as Record<string, unknown>))
      visit(item, `${key}/${field}`, UNNAMED.has(field) ? name : [...name, field], [...path, field], into);
}

function visitList(
  list: readonly unknown[],
  identities: readonly ElementIdentity[],
  key: string,
  name: readonly string[],
  path: DocPath,
  into: Field[],
): void {
  list.forEach((item, index) => {
    const element = item as Record<string, unknown>;
    const { wrapper, by } = identities[index]!;
    if (wrapper === 'parallel') {
      // A parallel block is no field of its own: its elements are keyed as if they stood in the outer list.
      const inner = Array.isArray(element.parallel) ? element.parallel : [];
      const innerIdentities = listIdentities(inner);
      if (innerIdentities)
        visitList(inner, innerIdentities, `${key}/parallel`, name, [...path, index, 'parallel'], into);
      else
        into.push({
          key: `${key}/parallel`,
          name: name.join('.'),
          path: [...path, index, 'parallel'],
          value: element.parallel,
          leaf: true,
        });
      return;
    }
    if (wrapper !== undefined) {
      const id = String((element[wrapper] as Record<string, unknown>)[by]);
      visit(
        element[wrapper],
        elementKey(key, identities[index]!, element),
        [...name, id],
        [...path, index, wrapper],
        into,
      );
      return;
    }
    const id = String(element[by]);
    const ownKey = elementKey(key, identities[index]!, element);
    if (LOOKED_INTO.has(by)) {
      visit(element, ownKey, [...name, id], [...path, index], into);
      return;
    }
    // A variable's `value` is named by the variable alone (`pipeline.variables.env`): FQN.getExpressionFqn.
    into.push({ key: ownKey, name: [...name, id].join('.'), path: [...path, index], value: element, leaf: false });
    for (const [field, value] of Object.entries(element))
      into.push({
        key: `${ownKey}/${field}`,
        name: [...name, id, ...(by === 'name' && field === 'value' ? [] : [field])].join('.'),
        path: [...path, index, field],
        value,
        leaf: true,
      });
  });
}

/**
 * The name expressions use for the field with a key (`pipeline/variables/[name:tag]/value` ->
 * `pipeline.variables.tag`, as `fieldsOf` names it): messages name a field this way, whichever form the value
 * was written in.
 */
export function nameOfKey(key: string): string {
  const parts = key.split('/');
  const name: string[] = [];
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    const element = /^([^[]*)\[([^:\]]+):(.*)\]$/.exec(part);
    if (element) {
      name.push(element[3]!);
      // A variable's `value` is named by the variable alone (FQN.getExpressionFqn).
      if (element[1] === '' && element[2] === 'name' && parts[index + 1] === 'value') index++;
    } else if (index === 0 || !UNNAMED.has(part)) name.push(part);
  }
  return name.join('.');
}

/** Fields by key; where a key repeats (the platform refuses that document), the first. */
export function fieldMap(fields: readonly Field[]): Map<string, Field> {
  const map = new Map<string, Field>();
  for (const field of fields) if (!map.has(field.key)) map.set(field.key, field);
  return map;
}

/** A walk down one path: the key of the fields passed so far, and the value reached. */
interface Walked {
  readonly key: string;
  readonly value: unknown;
}

/**
 * One step of a walk down `path` from `at` (which holds `path[index]`): where it leads and the index of the next
 * step (a wrapper or a parallel block takes two segments), or `done` when the place is inside a field the platform
 * keys as one piece (a list without identities, a variable's `value`), whose key it is.
 */
function walkStep(
  at: Walked,
  path: DocPath,
  index: number,
  identities: Map<readonly unknown[], readonly ElementIdentity[] | undefined>,
): { readonly walked: Walked; readonly next: number } | { readonly done: string } {
  const step = path[index]!;
  const { key, value } = at;
  if (Array.isArray(value)) {
    if (!identities.has(value)) identities.set(value, listIdentities(value));
    const identity = typeof step === 'number' ? identities.get(value)?.[step] : undefined;
    if (identity === undefined) return { done: key };
    const element = value[step as number] as Record<string, unknown>;
    if (identity.wrapper === 'parallel')
      // `[..., 3, 'parallel', 0, ...]`: the block adds `/parallel` and no position; its list is walked next.
      return path[index + 1] === 'parallel'
        ? { walked: { key: `${key}/parallel`, value: element.parallel }, next: index + 2 }
        : { done: key };
    const own = elementKey(key, identity, element);
    if (identity.wrapper !== undefined)
      return path[index + 1] === identity.wrapper
        ? { walked: { key: own, value: element[identity.wrapper] }, next: index + 2 }
        : { done: own };
    // A variable's fields are each one piece.
    if (!LOOKED_INTO.has(identity.by))
      return { done: typeof path[index + 1] === 'string' ? `${own}/${path[index + 1] as string}` : own };
    return { walked: { key: own, value: element }, next: index + 1 };
  }
  if (isRecord(value) && typeof step === 'string' && Object.keys(value).length > 0)
    return { walked: { key: `${key}/${step}`, value: value[step] }, next: index + 1 };
  return { done: key };
}

/**
 * The key `fieldsOf` gives the field at a path below `body` (`['stages', 0, 'stage', 'spec', ...]`), or, when that
 * place is inside a field the platform keys as one piece (a list without identities, a variable's `value`), the
 * key of that field. For a few paths into a large pipeline (its runtime inputs) without keying every field:
 * the returned function walks only each path, from where it leaves the path before it (paths in document order
 * share most of their steps).
 */
export function fieldKeysAt(body: unknown): (path: DocPath) => string {
  const identities = new Map<readonly unknown[], readonly ElementIdentity[] | undefined>();
  let last: DocPath = [];
  /** `walked[i]`: where the last path's walk was before its step at `i` (absent where a step took two segments). */
  const walked: Array<Walked | undefined> = [{ key: 'pipeline', value: body }];
  return (path) => {
    let same = 0;
    while (same < last.length && same < path.length && last[same] === path[same]) same++;
    let index = same;
    while (walked[index] === undefined) index--;
    walked.length = index + 1;
    last = path;
    let at = walked[index]!;
    while (index < path.length) {
      const found = walkStep(at, path, index, identities);
      if ('done' in found) return found.done;
      ({ walked: at, next: index } = found);
      walked[index] = at;
    }
    return at.key;
  };
}
