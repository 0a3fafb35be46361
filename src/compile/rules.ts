import type { DocPath } from '../ir/node.js';
import { KNOWN_STAGE_TYPES, KNOWN_STEP_TYPES, stageSpecs, stepSpecs, type ResourceKind } from '../schema/index.js';
import type { Diagnostic } from './diagnostics.js';
import { describePath } from './document-path.js';
import { closest } from './suggest.js';
import { documentSchemas } from '../schema/index.js';
import { keyTypos } from './key-typos.js';
import { stepPlacement } from './rules-placement.js';
import { expressionReferences, stageNameReferences } from './rules-references.js';
import { runtimeInputs } from './rules-inputs.js';
import { ruleError, ruleWarning, scanExpressions, stringsOf } from './rule-kit.js';

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

interface Located<T> {
  readonly node: T;
  readonly path: DocPath;
}

/** Every stage of a pipeline, including those inside `parallel` blocks. */
export function* stagesOf(pipelineBody: unknown, base: DocPath = ['pipeline']): Generator<Located<Node>> {
  if (!isNode(pipelineBody)) return;
  for (const [index, element] of list(pipelineBody.stages).entries()) {
    if (!isNode(element)) continue;
    if (isNode(element.stage)) yield { node: element.stage, path: [...base, 'stages', index, 'stage'] };
    for (const [inner, entry] of list(element.parallel).entries())
      if (isNode(entry) && isNode(entry.stage))
        yield { node: entry.stage, path: [...base, 'stages', index, 'parallel', inner, 'stage'] };
  }
}

/** Every step and step group in a step list, depth first, through `parallel` and `stepGroup`. */
export function* stepsOf(steps: unknown, base: DocPath): Generator<Located<Node> & { key: 'step' | 'stepGroup' }> {
  for (const [index, element] of list(steps).entries()) {
    if (!isNode(element)) continue;
    const path = [...base, index];
    if (isNode(element.step)) yield { key: 'step', node: element.step, path: [...path, 'step'] };
    if (isNode(element.stepGroup)) {
      yield { key: 'stepGroup', node: element.stepGroup, path: [...path, 'stepGroup'] };
      yield* stepsOf(element.stepGroup.steps, [...path, 'stepGroup', 'steps']);
    }
    if (Array.isArray(element.parallel)) yield* stepsOf(element.parallel, [...path, 'parallel']);
  }
}

/** All steps of a stage: execution, then rollback. */
export function* stageSteps(stage: Located<Node>): Generator<Located<Node> & { key: 'step' | 'stepGroup' }> {
  const execution = isNode(stage.node.spec) && isNode(stage.node.spec.execution) ? stage.node.spec.execution : undefined;
  if (!execution) return;
  const base = [...stage.path, 'spec', 'execution'];
  yield* stepsOf(execution.steps, [...base, 'steps']);
  yield* stepsOf(execution.rollbackSteps, [...base, 'rollbackSteps']);
}

const error = ruleError;
const warning = ruleWarning;

/** `steps[2].parallel[0]`: where an element sits in its list, for naming both places of a duplicate. */
const placeIn = (base: DocPath, path: DocPath): string =>
  path
    .slice(base.length - 1)
    .filter((key) => key !== 'step' && key !== 'stepGroup' && key !== 'stage')
    .reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : String(key)), '');

/**
 * Identifiers unique as the platform counts them, by fully qualified name: the stages of a pipeline (parallel
 * ones included) form one scope, and each step list (`execution.steps`, `execution.rollbackSteps`, a step
 * group's `steps`) forms its own, parallel blocks included. The platform's own SSH and Elastigroup samples use
 * the same step group identifier in `steps` and in `rollbackSteps`, and a step group may hold a step with its
 * own identifier: both have distinct names on the platform.
 */
function uniqueIdentifiers(document: Node): Diagnostic[] {
  const found: Diagnostic[] = [];
  const check = (seen: Map<string, DocPath>, node: Node, path: DocPath, what: string, base: DocPath, scope: string) => {
    const id = node.identifier;
    if (typeof id !== 'string') return;
    const first = seen.get(id);
    if (!first) {
      seen.set(id, path);
      return;
    }
    found.push(
      error(document, [...path, 'identifier'], 'duplicate-identifier',
        `${what} identifier "${id}" is used twice in ${scope}: ${placeIn(base, first)} and ${placeIn(base, path)}`,
        `identifiers must be unique within ${scope}; rename one (a step used twice needs its own identifier in each place)`),
    );
  };
  const stepList = (steps: unknown, base: DocPath, scope: string) => {
    const seen = new Map<string, DocPath>();
    const visit = (items: unknown, path: DocPath) => {
      for (const [index, element] of list(items).entries()) {
        if (!isNode(element)) continue;
        const at = [...path, index];
        if (isNode(element.step)) check(seen, element.step, [...at, 'step'], 'step', base, scope);
        if (isNode(element.stepGroup)) {
          const group = element.stepGroup;
          check(seen, group, [...at, 'stepGroup'], 'step group', base, scope);
          const name = typeof group.identifier === 'string' ? ` "${group.identifier}"` : '';
          stepList(group.steps, [...at, 'stepGroup', 'steps'], `the steps of step group${name}`);
        }
        if (Array.isArray(element.parallel)) visit(element.parallel, [...at, 'parallel']);
      }
    };
    visit(steps, base);
  };
  const stageIds = new Map<string, DocPath>();
  for (const stage of stagesOf(document.pipeline)) {
    check(stageIds, stage.node, stage.path, 'stage', ['pipeline', 'stages'], 'this pipeline');
    const execution = isNode(stage.node.spec) && isNode(stage.node.spec.execution) ? stage.node.spec.execution : undefined;
    if (!execution) continue;
    const base = [...stage.path, 'spec', 'execution'];
    stepList(execution.steps, [...base, 'steps'], 'execution.steps');
    stepList(execution.rollbackSteps, [...base, 'rollbackSteps'], 'execution.rollbackSteps');
  }
  return found;
}

/** Types that are not known but one edit from a known one are typos, not new types. */
function typeTypos(document: Node): Diagnostic[] {
  const found: Diagnostic[] = [];
  const check = (node: Node, path: DocPath, known: readonly string[], what: string) => {
    const type = node.type;
    if (typeof type !== 'string' || known.includes(type)) return;
    const suggestion = closest(type, known);
    if (suggestion)
      found.push(error(document, [...path, 'type'], 'unknown-type', `unknown ${what} type "${type}"`, `did you mean "${suggestion}"?`));
  };
  const stageTypes = [...new Set([...KNOWN_STAGE_TYPES, ...Object.keys(stageSpecs)])];
  const stepTypes = [...new Set([...KNOWN_STEP_TYPES, ...Object.keys(stepSpecs)])];
  for (const stage of stagesOf(document.pipeline)) {
    check(stage.node, stage.path, stageTypes, 'stage');
    for (const step of stageSteps(stage)) if (step.key === 'step') check(step.node, step.path, stepTypes, 'step');
  }
  return found;
}

/** Finds an unbalanced `<+`, an empty `<+>` or an unclosed quote in a string; returns a message or undefined. */
export function expressionProblem(text: string): string | undefined {
  const scan = scanExpressions(text);
  if (scan.empty) return 'has an empty expression "<+>"';
  if (scan.openQuote) return 'has an expression with an unclosed quote';
  return scan.unclosed > 0 ? `has an unclosed expression: ${scan.unclosed} "<+" without a closing ">"` : undefined;
}

/** Every `<+...>` in every string value is balanced. */
function balancedExpressions(document: Node): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const { text, path } of stringsOf(document, [])) {
    if (!text.includes('<+')) continue;
    const problem = expressionProblem(text);
    if (!problem) continue;
    const { field } = describePath(document, path);
    found.push(
      warning(document, path, 'unbalanced-expression', `${field} ${JSON.stringify(text)} ${problem}`,
        'write expressions as <+path.to.value>, each "<+" closed by ">"'),
    );
  }
  return found;
}

/** A Barrier step waits at a barrier the pipeline declares in flowControl.barriers. */
function barrierReferences(document: Node): Diagnostic[] {
  const body = isNode(document.pipeline) ? document.pipeline : {};
  const declared = new Set(
    list(isNode(body.flowControl) ? body.flowControl.barriers : undefined)
      .filter(isNode)
      .map((barrier) => barrier.identifier),
  );
  const found: Diagnostic[] = [];
  for (const stage of stagesOf(document.pipeline))
    for (const step of stageSteps(stage)) {
      const spec = step.node.spec;
      if (step.key !== 'step' || step.node.type !== 'Barrier' || !isNode(spec) || typeof spec.barrierRef !== 'string') continue;
      if (spec.barrierRef.includes('<+') || declared.has(spec.barrierRef)) continue;
      const suggestion = closest(spec.barrierRef, [...declared].filter((id): id is string => typeof id === 'string'));
      found.push(
        error(document, [...step.path, 'spec', 'barrierRef'], 'unknown-barrier', `spec.barrierRef "${spec.barrierRef}" names no barrier of this pipeline`,
          suggestion ? `did you mean "${suggestion}"?` : 'declare it under pipeline.flowControl.barriers with this identifier'),
      );
    }
  return found;
}

/** A CI stage that clones the codebase needs the pipeline to say which one (`properties.ci.codebase`). */
function codebaseForCloning(document: Node): Diagnostic[] {
  const body = isNode(document.pipeline) ? document.pipeline : {};
  const properties = isNode(body.properties) ? body.properties : {};
  if (isNode(properties.ci) && properties.ci.codebase !== undefined) return [];
  const found: Diagnostic[] = [];
  for (const stage of stagesOf(document.pipeline)) {
    const spec = stage.node.spec;
    if (stage.node.type !== 'CI' || !isNode(spec) || spec.cloneCodebase !== true) continue;
    found.push(
      warning(document, [...stage.path, 'spec', 'cloneCodebase'], 'clone-without-codebase', 'cloneCodebase is true but the pipeline has no properties.ci.codebase to clone',
        'add properties.ci.codebase (connectorRef, repoName, build) to the pipeline, or set cloneCodebase: false'),
    );
  }
  return found;
}

/** Rules a schema cannot express, for one document of the given kind. */
export function documentRules(kind: ResourceKind, document: unknown): Diagnostic[] {
  if (!isNode(document)) return [];
  const found = [...balancedExpressions(document), ...keyTypos(documentSchemas[kind], document), ...runtimeInputs(document)];
  if (kind === 'pipeline') {
    const stages = [...stagesOf(document.pipeline)];
    found.push(
      ...uniqueIdentifiers(document),
      ...typeTypos(document),
      ...stepPlacement(document, stages),
      ...expressionReferences(document, stages),
      ...stageNameReferences(document, stages),
      ...barrierReferences(document),
      ...codebaseForCloning(document),
    );
  }
  return found;
}
