import type { DocPath } from '../ir/node.js';
import type { Diagnostic } from './diagnostics.js';
import { describePath } from './document-path.js';
import { expressionsIn, isNode, list, ruleWarning, stringsOf, type Node } from './rule-kit.js';
import { closest } from './suggest.js';

/** What one stage makes visible to expressions: its step and step-group identifiers. */
interface StageIds {
  readonly path: DocPath;
  readonly steps: Set<string>;
  /** True when some of its steps come from a template, so an unknown step id proves nothing. */
  readonly opaque: boolean;
  readonly looped: boolean;
}

const collectSteps = (steps: unknown, into: Set<string>): boolean => {
  let opaque = false;
  for (const element of list(steps)) {
    if (!isNode(element)) continue;
    if (isNode(element.step) && typeof element.step.identifier === 'string') into.add(element.step.identifier);
    if (isNode(element.stepGroup)) {
      const group = element.stepGroup;
      if (typeof group.identifier === 'string') into.add(group.identifier);
      if (group.template !== undefined) opaque = true;
      opaque = collectSteps(group.steps, into) || opaque;
    }
    if (Array.isArray(element.parallel)) opaque = collectSteps(element.parallel, into) || opaque;
  }
  return opaque;
};

/** A looped stage or step runs as ID_0, ID_1, ...: those names are as good as the identifier. */
const baseOf = (id: string) => id.replace(/(_\d+)+$/, '');

/** `pipeline.stages.X`, `stages.X`, `execution.steps.X`, `steps.X` at the start of a path, not after another name. */
const REFERENCE = /(?<![\w.])(pipeline\.stages|stages|execution\.steps|steps)\.([A-Za-z_][A-Za-z0-9_]*)(?:\.spec\.execution\.steps\.([A-Za-z_][A-Za-z0-9_]*))?/g;

/**
 * `<+pipeline.stages.X...>`, `<+stages.X...>`, `<+execution.steps.X...>` and `<+steps.X...>` must name a stage
 * or step that exists: a typo there only shows up at run time, as an unresolved expression.
 */
export function expressionReferences(document: Node, stages: Iterable<{ node: Node; path: DocPath }>): Diagnostic[] {
  const found: Diagnostic[] = [];
  const byStage = new Map<string, StageIds>();
  for (const stage of stages) {
    const id = stage.node.identifier;
    if (typeof id !== 'string') continue;
    const steps = new Set<string>();
    const spec = isNode(stage.node.spec) ? stage.node.spec : {};
    const execution = isNode(spec.execution) ? spec.execution : {};
    const opaque = collectSteps(execution.steps, steps) || collectSteps(execution.rollbackSteps, steps) || stage.node.template !== undefined;
    byStage.set(id, { path: stage.path, steps, opaque, looped: stage.node.strategy !== undefined });
  }
  if (byStage.size === 0) return found;
  const stageNamed = (name: string) => {
    const exact = byStage.get(name);
    if (exact) return exact;
    const looped = byStage.get(baseOf(name));
    return looped?.looped ? looped : undefined;
  };
  const allSteps = () => {
    const all = new Set<string>();
    let opaque = false;
    for (const ids of byStage.values()) {
      ids.steps.forEach((s) => all.add(s));
      opaque ||= ids.opaque;
    }
    return { steps: all, opaque };
  };
  const stepKnown = (ids: { steps: Set<string> }, name: string) => ids.steps.has(name) || ids.steps.has(baseOf(name));

  for (const { text, path } of stringsOf(document, [])) {
    if (!text.includes('<+') || insideChildPipelineInputs(document, path)) continue;
    const home = [...byStage.values()].find((ids) => ids.path.every((key, index) => path[index] === key));
    for (const expression of expressionsIn(text))
      for (const match of expression.matchAll(REFERENCE)) {
        const [, root, name, nestedStep] = match as unknown as [string, string, string, string | undefined];
        const problem = (what: string, candidates: Iterable<string>) => {
          const suggestion = closest(name, candidates);
          found.push(
            ruleWarning(document, path, 'unknown-reference', `${describePath(document, path).field} refers to ${what} "${name}", which is not a ${what} of this ${what === 'stage' ? 'pipeline' : 'stage'}`,
              suggestion
                ? `did you mean "${suggestion}"?`
                : `the platform resolves <+${match[0]}...> only at run time, and it fails unless a ${what} with that identifier runs in the same execution`),
          );
        };
        if (root === 'pipeline.stages' || root === 'stages') {
          const target = stageNamed(name);
          if (!target) problem('stage', byStage.keys());
          else if (nestedStep && !target.opaque && !stepKnown(target, nestedStep)) {
            const suggestion = closest(nestedStep, target.steps);
            found.push(
              ruleWarning(document, path, 'unknown-reference',
                `${describePath(document, path).field} refers to step "${nestedStep}" of stage "${name}", which does not exist`,
                suggestion ? `did you mean "${suggestion}"?` : undefined),
            );
          }
        } else {
          const scope = home ?? allSteps();
          if (!scope.opaque && !stepKnown(scope, name)) problem('step', scope.steps);
        }
      }
  }
  return found;
}

/** Strings under a Pipeline stage's `spec.inputs` and `spec.outputs` belong to the child pipeline, whose ids are not here. */
function insideChildPipelineInputs(document: Node, path: DocPath): boolean {
  let node: unknown = document;
  for (let i = 0; i < path.length; i++) {
    if (isNode(node) && path[i] === 'spec' && node.type === 'Pipeline' && (path[i + 1] === 'inputs' || path[i + 1] === 'outputs')) return true;
    node = isNode(node) || Array.isArray(node) ? (node as Record<string | number, unknown>)[path[i]!] : undefined;
  }
  return false;
}

/**
 * Stage identifiers written as plain values: `service.useFromStage.stage` and CI `infrastructure.useFromStage`
 * name an earlier stage; a notification rule's `forStages` names stages (or AllStages).
 */
export function stageNameReferences(document: Node, stages: ReadonlyArray<{ node: Node; path: DocPath }>): Diagnostic[] {
  const found: Diagnostic[] = [];
  const ids = stages.map((stage) => stage.node.identifier).filter((id): id is string => typeof id === 'string');
  const check = (name: unknown, path: DocPath, earlierThan?: number) => {
    if (typeof name !== 'string' || name.includes('<+')) return;
    const known = earlierThan === undefined ? ids : ids.slice(0, earlierThan);
    if (known.includes(name)) return;
    const what = earlierThan === undefined ? 'stage' : 'earlier stage';
    const suggestion = closest(name, known);
    found.push(
      ruleWarning(document, path, 'unknown-reference', `${describePath(document, path).field} names ${what} "${name}", which does not exist`,
        suggestion ? `did you mean "${suggestion}"?` : earlierThan === undefined ? undefined : 'a stage can reuse only what a stage before it set up'),
    );
  };
  stages.forEach((stage, index) => {
    const spec = isNode(stage.node.spec) ? stage.node.spec : {};
    const service = isNode(spec.service) ? spec.service : {};
    if (isNode(service.useFromStage)) check(service.useFromStage.stage, [...stage.path, 'spec', 'service', 'useFromStage', 'stage'], index);
    const infrastructure = isNode(spec.infrastructure) ? spec.infrastructure : {};
    if (stage.node.type === 'CI' && infrastructure.useFromStage !== undefined)
      check(infrastructure.useFromStage, [...stage.path, 'spec', 'infrastructure', 'useFromStage'], index);
  });
  const body = isNode(document.pipeline) ? document.pipeline : {};
  for (const [ruleIndex, rule] of list(body.notificationRules).entries())
    if (isNode(rule))
      for (const [eventIndex, event] of list(rule.pipelineEvents).entries())
        if (isNode(event))
          for (const [stageIndex, name] of list(event.forStages).entries())
            if (name !== 'AllStages')
              check(name, ['pipeline', 'notificationRules', ruleIndex, 'pipelineEvents', eventIndex, 'forStages', stageIndex]);
  return found;
}
