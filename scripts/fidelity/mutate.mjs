// Mutations of real documents, for differential testing against the platform's schema (issue 27, docs/fidelity.md).
// Each mutant is one small change to one document: the same mistake a person makes by hand (a key left out or
// misspelt, text where a number goes, a step where it may not run). Deterministic for a seed.

import { seededRandom } from '../seeded-random.mjs';

/** The same seed gives the same mutants on every machine. */
export { seededRandom };

/** The mutation classes, in the order they are tried and reported. */
export const MUTATION_CLASSES = [
  'drop-key',
  'retype-scalar',
  'misspell-key',
  'misspell-enum',
  'empty-list',
  'unknown-key',
  'expression',
  'swap-type',
  'nest-step',
];

const isMap = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const pick = (random, list) => list[Math.floor(random() * list.length)];

/** Every node of a document: `{ path, value }`, the root first, children in document order. */
function nodesOf(document) {
  const nodes = [];
  const visit = (value, path) => {
    nodes.push({ path, value });
    if (Array.isArray(value)) value.forEach((item, index) => visit(item, [...path, index]));
    else if (isMap(value)) for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
  };
  visit(document, []);
  return nodes;
}

const parentOf = (root, path) => path.slice(0, -1).reduce((node, key) => node[key], root);

/** The document with the value at `path` replaced (`undefined`: removed); the original is left as it was. */
function withValue(document, path, change) {
  const copy = structuredClone(document);
  const parent = parentOf(copy, path);
  const key = path[path.length - 1];
  change(parent, key);
  return copy;
}

/** The map at `path` with one key renamed, keeping the key order (so a typo sits where the key was). */
function renameKey(document, path, to) {
  const copy = structuredClone(document);
  const parent = parentOf(copy, path);
  const entries = Object.entries(parent);
  for (const [key] of entries) delete parent[key];
  for (const [key, value] of entries) parent[key === path[path.length - 1] ? to : key] = value;
  return copy;
}

/** One edit a hand makes: two letters swapped, one dropped or doubled, or a letter's case changed. */
function misspell(random, word) {
  if (word.length < 2) return `${word}x`;
  const at = Math.floor(random() * (word.length - 1));
  const edits = [
    () => word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2),
    () => word.slice(0, at) + word.slice(at + 1),
    () => word.slice(0, at) + word[at] + word.slice(at),
    () =>
      word.slice(0, at) +
      (word[at] === word[at].toUpperCase() ? word[at].toLowerCase() : word[at].toUpperCase()) +
      word.slice(at + 1),
  ];
  for (let tries = 0; tries < 8; tries++) {
    const out = pick(random, edits)();
    if (out !== word && out.length > 0) return out;
  }
  return `${word}x`;
}

/** The scalar put in place of one of another type: what a person types where the platform wants something else. */
function retyped(random, value) {
  if (typeof value === 'boolean')
    return pick(random, [
      { variant: 'boolean>text', value: 'nope' },
      { variant: 'boolean>number', value: 1 },
    ]);
  if (typeof value === 'number')
    return pick(random, [
      { variant: 'number>text', value: 'one' },
      { variant: 'number>boolean', value: true },
    ]);
  if (typeof value === 'string')
    return pick(random, [
      { variant: 'string>number', value: 42 },
      { variant: 'string>boolean', value: true },
      { variant: 'string>map', value: { value } },
      { variant: 'string>list', value: [value] },
    ]);
  return undefined;
}

/** Where a step is: `…steps[i].step` (also in step groups and parallel blocks), with its list. */
const isStepPath = (path) => path[path.length - 1] === 'step' && typeof path[path.length - 2] === 'number';
const isStagePath = (path) => path[path.length - 1] === 'stage' && typeof path[path.length - 2] === 'number';

/**
 * Every mutant of one document's class `mutation`, as `{ mutation, variant, path, make }` (`make()` builds the mutated copy). `types` holds the step
 * and stage types seen across the corpus (`{ steps: Map<type, example step>, stages: Map<type, stage types a
 * step was seen in> }`) and `enums` the enum values of the platform's schema.
 */
export function* mutantsOf(document, mutation, { random, enums, types, rootKey }) {
  const nodes = nodesOf(document);
  const inBody = nodes.filter((node) => node.path.length >= 2 || (node.path.length === 1 && node.path[0] !== rootKey));
  const keyed = inBody.filter((node) => typeof node.path[node.path.length - 1] === 'string');
  switch (mutation) {
    case 'drop-key':
      for (const node of keyed)
        yield {
          mutation,
          path: node.path,
          make: () => withValue(document, node.path, (parent, key) => delete parent[key]),
        };
      return;
    case 'retype-scalar':
      for (const node of inBody) {
        const to = retyped(random, node.value);
        if (to)
          yield {
            mutation,
            variant: to.variant,
            path: node.path,
            make: () => withValue(document, node.path, (parent, key) => (parent[key] = to.value)),
          };
      }
      return;
    case 'misspell-key':
      for (const node of keyed) {
        const key = node.path[node.path.length - 1];
        const to = misspell(random, key);
        const parent = parentOf(document, node.path);
        if (Object.hasOwn(parent, to)) continue;
        yield { mutation, path: node.path, make: () => renameKey(document, node.path, to) };
      }
      return;
    case 'misspell-enum':
      for (const node of inBody)
        if (typeof node.value === 'string' && enums.has(node.value)) {
          let to = misspell(random, node.value);
          if (enums.has(to)) to = `${node.value}x`;
          yield {
            mutation,
            path: node.path,
            make: () => withValue(document, node.path, (parent, key) => (parent[key] = to)),
          };
        }
      return;
    case 'empty-list':
      for (const node of inBody)
        if (Array.isArray(node.value) && node.value.length > 0)
          yield {
            mutation,
            path: node.path,
            make: () => withValue(document, node.path, (parent, key) => (parent[key] = [])),
          };
      return;
    case 'unknown-key':
      for (const node of nodes)
        if (isMap(node.value) && node.path.length >= 1) {
          const path = [...node.path, 'colourScheme'];
          yield { mutation, path, make: () => withValue(document, path, (parent, key) => (parent[key] = 'blue')) };
        }
      return;
    case 'expression':
      for (const node of inBody)
        if (node.value === null || typeof node.value !== 'object') {
          const [variant, text] = pick(random, [
            ['input', '<+input>'],
            ['expression', '<+pipeline.variables.value>'],
          ]);
          if (node.value === text) continue;
          yield {
            mutation,
            variant,
            path: node.path,
            make: () => withValue(document, node.path, (parent, key) => (parent[key] = text)),
          };
        }
      return;
    case 'swap-type':
      for (const node of inBody) {
        const holder = node.path[node.path.length - 2];
        if (node.path[node.path.length - 1] !== 'type' || typeof node.value !== 'string') continue;
        const owner = node.path.slice(0, -1);
        const pool = isStepPath(owner)
          ? [...types.steps.keys()]
          : isStagePath(owner)
            ? [...types.stages.keys()]
            : undefined;
        if (!pool || holder === undefined) continue;
        const to = pick(
          random,
          pool.filter((type) => type !== node.value),
        );
        if (to)
          yield {
            mutation,
            variant: isStepPath(owner) ? 'step' : 'stage',
            path: node.path,
            make: () => withValue(document, node.path, (parent, key) => (parent[key] = to)),
          };
      }
      return;
    case 'nest-step':
      for (const node of inBody) {
        // A stage's step list: add a step of a type seen only in other stage types.
        if (node.path[node.path.length - 1] !== 'steps' || !Array.isArray(node.value)) continue;
        const stageAt = node.path.findLastIndex((key, i) => key === 'stage' && typeof node.path[i - 1] === 'number');
        const stage = stageAt >= 0 ? node.path.slice(0, stageAt + 1).reduce((at, key) => at[key], document) : undefined;
        const stageType = isMap(stage) ? stage.type : undefined;
        if (typeof stageType !== 'string') continue;
        const foreign = [...types.steps.entries()].filter(
          ([type]) => !(types.stepStages.get(type) ?? new Set()).has(stageType),
        );
        if (foreign.length === 0) continue;
        const [type, example] = pick(random, foreign);
        yield {
          mutation,
          variant: `${type} in ${stageType}`,
          path: [...node.path, node.value.length],
          make: () =>
            withValue(
              document,
              node.path,
              (parent, key) => (parent[key] = [...parent[key], { step: structuredClone(example) }]),
            ),
        };
      }
      return;
    default:
      throw new Error(`no mutation class ${mutation}`);
  }
}

/** The step and stage types the documents use, each step type with one example and the stage types it ran in. */
export function typesOf(documents) {
  const steps = new Map();
  const stepStages = new Map();
  const stages = new Map();
  const visit = (value, stageType) => {
    if (Array.isArray(value)) return value.forEach((item) => visit(item, stageType));
    if (!isMap(value)) return;
    if (isMap(value.stage) && typeof value.stage.type === 'string') {
      stages.set(value.stage.type, true);
      return visit(value.stage.spec, value.stage.type);
    }
    if (isMap(value.step) && typeof value.step.type === 'string' && stageType) {
      if (!steps.has(value.step.type) && typeof value.step.identifier === 'string')
        steps.set(value.step.type, { ...value.step, identifier: 'added_step', name: 'added step' });
      if (!stepStages.has(value.step.type)) stepStages.set(value.step.type, new Set());
      stepStages.get(value.step.type).add(stageType);
    }
    for (const item of Object.values(value)) visit(item, stageType);
  };
  for (const document of documents) visit(document, undefined);
  return { steps, stepStages, stages };
}

/** Every string value an `enum` of the schema lists (type names too): the values `misspell-enum` changes. */
export function enumValuesOf(schema) {
  const values = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isMap(node)) return;
    if (Array.isArray(node.enum))
      for (const value of node.enum)
        if (typeof value === 'string' && /^[A-Za-z][A-Za-z0-9_-]{1,40}$/.test(value)) values.add(value);
    for (const item of Object.values(node)) visit(item);
  };
  visit(schema);
  return values;
}

/**
 * The class of a disagreement: its mutation (and variant), which side refused, and where, as a path with list
 * positions dropped and each stage and step named by its type (`pipeline.stages.stage(CI).spec...step(Run).spec.shell`).
 */
export function placeOf(document, path) {
  const parts = [];
  let at = document;
  for (const key of path) {
    const here = at;
    at = at === undefined || at === null ? undefined : at[key];
    if (typeof key === 'number') continue;
    const typed =
      (key === 'stage' || key === 'step' || key === 'connector') && isMap(at) && typeof at.type === 'string';
    parts.push(typed ? `${key}(${at.type})` : key);
    if (here === undefined) break;
  }
  return parts.join('.');
}
