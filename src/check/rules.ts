import type { IrNode } from '../ir/node.js';
import type { DocPath } from '../core/document-path.js';
import type { AnyRule, Rule } from './walk.js';
import { STAGE_TYPES, STEP_TYPES } from '../catalog/catalog.js';
import { stageSpecs, stepSpecs } from '../schema/index.js';
import { describePath } from '../core/document-path.js';
import { unknownKeys } from './key-typos.js';
import { stepPlacement } from './rules-placement.js';
import { placeholders } from './rules-placeholders.js';
import { expressionReferences, stageNameReferences } from './rules-references.js';
import { runtimeInputs } from './rules-inputs.js';
import { scopeWarnings } from './rules-scope.js';
import { apiPathIdentifiers } from './rules-api-paths.js';
import { list, pipelineBody, ruleError, ruleWarning, scanExpressions } from './rule-kit.js';
import { secretWarnings } from './secret-scan.js';
import { notificationDelivery } from './rules-notifications.js';
import { closest, didYouMean } from '../core/suggest.js';
import { isRecord } from '../core/is-record.js';

/** `steps[2].parallel[0]`: where an element sits in its list, for naming both places of a duplicate. */
const placeIn = (base: DocPath, path: DocPath): string =>
  path
    .slice(base.length - 1)
    .filter((key) => key !== 'step' && key !== 'stepGroup' && key !== 'stage')
    .reduce<string>(
      (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : String(key)),
      '',
    );

/**
 * Identifiers unique as the platform counts them, by fully qualified name: the stages of a pipeline (parallel
 * ones included) form one scope, and each step list (`execution.steps`, `execution.rollbackSteps`, a step
 * group's `steps`) forms its own, parallel blocks included. The platform's own SSH and Elastigroup samples use
 * the same step group identifier in `steps` and in `rollbackSteps`, and a step group may hold a step with its
 * own identifier: both have distinct names on the platform.
 */
interface Scopes {
  readonly byKey: Map<string, Map<string, DocPath>>;
  /** The list path asked last and its scope: siblings share one path object, so it is joined into a key once per list. */
  last?: { readonly base: DocPath; readonly seen: Map<string, DocPath> };
}

const uniqueIdentifiers: Rule<Scopes> = {
  code: 'duplicate-identifier',
  kinds: ['pipeline'],
  init: () => ({ byKey: new Map() }),
  stage(stage, at, scopes) {
    check(scopes, stage, at, 'stage', ['pipeline', 'stages'], 'this pipeline');
  },
  stepGroup(group, at, scopes) {
    if (at.list) check(scopes, group, at, 'step group', at.list.path, at.list.label);
  },
  step(step, at, scopes) {
    if (at.list) check(scopes, step, at, 'step', at.list.path, at.list.label);
  },
};

function check(
  scopes: Scopes,
  node: IrNode,
  at: Parameters<NonNullable<Rule['step']>>[1],
  what: string,
  base: DocPath,
  scope: string,
) {
  const id = node.identifier;
  if (typeof id !== 'string') return;
  const seen = scopeOf(scopes, base);
  const path = at.path;
  const first = seen.get(id);
  if (!first) {
    seen.set(id, path);
    return;
  }
  at.report(
    ruleError(
      at.document,
      [...path, 'identifier'],
      'duplicate-identifier',
      `${what} identifier "${id}" is used twice in ${scope}: ${placeIn(base, first)} and ${placeIn(base, path)}`,
      `identifiers must be unique within ${scope}; rename one (a step used twice needs its own identifier in each place)`,
    ),
  );
}

/** The identifiers seen in the scope of `base`: the same list reached by another path object is the same scope. */
function scopeOf(scopes: Scopes, base: DocPath): Map<string, DocPath> {
  if (scopes.last?.base === base) return scopes.last.seen;
  const scopeKey = base.join('\u0000');
  const seen = scopes.byKey.get(scopeKey) ?? new Map<string, DocPath>();
  scopes.byKey.set(scopeKey, seen);
  scopes.last = { base, seen };
  return seen;
}

const STAGE_TYPE_NAMES = () => [...new Set([...STAGE_TYPES, ...Object.keys(stageSpecs)])];
const STEP_TYPE_NAMES = () => [...new Set([...STEP_TYPES, ...Object.keys(stepSpecs)])];
let knownTypes: { stage: string[]; step: string[] } | undefined;
let knownTypeSets: { stage: ReadonlySet<string>; step: ReadonlySet<string> } | undefined;

/** Types that are not known but one edit from a known one are typos, not new types. */
const typeTypos: Rule = {
  code: 'unknown-type',
  kinds: ['pipeline'],
  stage(stage, at) {
    typeTypo(stage, at, 'stage');
  },
  step(step, at) {
    typeTypo(step, at, 'step');
  },
};

function typeTypo(node: IrNode, at: Parameters<NonNullable<Rule['step']>>[1], what: 'stage' | 'step') {
  const type = node.type;
  knownTypes ??= { stage: STAGE_TYPE_NAMES(), step: STEP_TYPE_NAMES() };
  // Every stage and step asks: a set answers at once where the list of some hundred types was searched.
  knownTypeSets ??= { stage: new Set(knownTypes.stage), step: new Set(knownTypes.step) };
  const known = knownTypes[what];
  if (typeof type !== 'string' || knownTypeSets[what].has(type)) return;
  const suggestion = closest(type, known);
  if (suggestion)
    at.report(
      ruleError(
        at.document,
        [...at.path, 'type'],
        'unknown-type',
        `unknown ${what} type "${type}"`,
        didYouMean(suggestion),
      ),
    );
}

/** Finds an unbalanced `<+`, an empty `<+>` or an unclosed quote in a string; returns a message or undefined. */
export function expressionProblem(text: string): string | undefined {
  const scan = scanExpressions(text);
  if (scan.empty) return 'has an empty expression "<+>"';
  if (scan.openQuote) return 'has an expression with an unclosed quote';
  return scan.unclosed > 0 ? `has an unclosed expression: ${scan.unclosed} "<+" without a closing ">"` : undefined;
}

/** Every `<+...>` in every string value is balanced. */
const balancedExpressions: Rule = {
  code: 'unbalanced-expression',
  string(text, at) {
    if (!text.includes('<+')) return;
    const problem = expressionProblem(text);
    if (!problem) return;
    const path = at.path;
    const { field } = describePath(at.document, path);
    at.report(
      ruleWarning(
        at.document,
        path,
        'unbalanced-expression',
        `${field} ${JSON.stringify(text)} ${problem}`,
        'write expressions as <+path.to.value>, each "<+" closed by ">"',
      ),
    );
  },
};

/**
 * A Barrier step waits at a barrier the pipeline declares in flowControl.barriers. A warning: the platform saves
 * the pipeline and checks this when a run starts, which then fails, "Barrier Identifier .. was not present in
 * flowControl" (harness-core `pipeline-service/modules/orchestration-steps/.../barriers/service/visitor/BarrierVisitor.java`
 * L124-131, from `BarrierInitializer.java` L38-62, an OrchestrationStartObserver).
 */
const barrierReferences: Rule<Set<unknown>> = {
  code: 'unknown-barrier',
  kinds: ['pipeline'],
  init: () => new Set(),
  document(_root, at, declared) {
    const body = pipelineBody(at.document);
    for (const barrier of list(isRecord(body.flowControl) ? body.flowControl.barriers : undefined))
      if (isRecord(barrier)) declared.add(barrier.identifier);
  },
  step(step, at, declared) {
    const spec = isRecord(step.body) ? step.body.spec : undefined;
    if (step.type !== 'Barrier' || !isRecord(spec) || typeof spec.barrierRef !== 'string') return;
    if (spec.barrierRef.includes('<+') || declared.has(spec.barrierRef)) return;
    const suggestion = closest(
      spec.barrierRef,
      [...declared].filter((id): id is string => typeof id === 'string'),
    );
    at.report(
      ruleWarning(
        at.document,
        [...at.path, 'spec', 'barrierRef'],
        'unknown-barrier',
        `spec.barrierRef "${spec.barrierRef}" names no barrier of this pipeline`,
        suggestion ? didYouMean(suggestion) : 'declare it under pipeline.flowControl.barriers with this identifier',
      ),
    );
  },
};

/** A CI stage that clones the codebase needs the pipeline to say which one (`properties.ci.codebase`). */
const codebaseForCloning: Rule<{ hasCodebase: boolean }> = {
  code: 'clone-without-codebase',
  kinds: ['pipeline'],
  init: () => ({ hasCodebase: false }),
  document(_root, at, state) {
    const body = pipelineBody(at.document);
    const properties = isRecord(body.properties) ? body.properties : {};
    state.hasCodebase = isRecord(properties.ci) && properties.ci.codebase !== undefined;
  },
  stage(stage, at, { hasCodebase }) {
    const spec = isRecord(stage.body) ? stage.body.spec : undefined;
    if (hasCodebase || stage.type !== 'CI' || !isRecord(spec) || spec.cloneCodebase !== true) return;
    at.report(
      ruleWarning(
        at.document,
        [...at.path, 'spec', 'cloneCodebase'],
        'clone-without-codebase',
        'cloneCodebase is true but the pipeline has no properties.ci.codebase to clone',
        'add properties.ci.codebase (connectorRef, repoName, build) to the pipeline, or set cloneCodebase: false',
      ),
    );
  },
};

/**
 * A CI stage names where it runs: Harness Cloud or a local runner (`runtime`, `platform`) or its own
 * infrastructure. Without any, the platform's schema takes the stage and the platform saves it; it fails when it
 * runs (no infrastructure to start the build on). A warning.
 */
const buildInfrastructure: Rule = {
  code: 'no-build-infrastructure',
  kinds: ['pipeline'],
  stage(stage, at) {
    const spec = isRecord(stage.body) ? stage.body.spec : undefined;
    if (
      stage.type !== 'CI' ||
      !isRecord(spec) ||
      ['runtime', 'platform', 'infrastructure'].some((key) => spec[key] !== undefined)
    )
      return;
    at.report(
      ruleWarning(
        at.document,
        [...at.path, 'spec'],
        'no-build-infrastructure',
        'this CI stage says neither where it runs (runtime, platform) nor on what infrastructure',
        'add runtime: { type: Cloud, spec: {} } with platform: { os: Linux, arch: Amd64 } for Harness Cloud, or infrastructure (a Kubernetes cluster or VM pool)',
      ),
    );
  },
};

/**
 * Every rule a schema cannot express, in the order their findings are listed. Each is called during the one
 * walk of a document's IR (`src/check/walk.ts`); a project config can switch the configurable ones off.
 */
export const RULES: readonly AnyRule[] = [
  balancedExpressions,
  unknownKeys,
  runtimeInputs,
  uniqueIdentifiers,
  typeTypos,
  stepPlacement,
  expressionReferences,
  stageNameReferences,
  barrierReferences,
  codebaseForCloning,
  buildInfrastructure,
  notificationDelivery,
  placeholders,
  scopeWarnings,
  apiPathIdentifiers,
  secretWarnings,
];
