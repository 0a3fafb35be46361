import type { IrNode } from '../ir/node.js';
import type { DocPath } from '../core/document-path.js';
import type { Rule } from './walk.js';
import { describePath } from '../core/document-path.js';
import { expressionsIn, list, ruleWarning } from './rule-kit.js';
import { closest, didYouMean } from '../core/suggest.js';
import { isRecord } from '../core/is-record.js';
/** What one stage makes visible to expressions: its step and step-group identifiers. */
interface StageIds {
  readonly path: DocPath;
  readonly steps: Set<string>;
  /** True when some of its steps come from a template, so an unknown step id proves nothing. */
  opaque: boolean;
  readonly looped: boolean;
}

/**
 * A looped stage or step runs as ID_0, ID_1, ...: those names are as good as the identifier. Read from the end by a
 * scan: `/(_\d+)+$/` tried from every position of a long name of `_1_1_1...` backtracked quadratically.
 */
function baseOf(id: string): string {
  let end = id.length;
  for (;;) {
    let at = end;
    while (at > 0 && id.charCodeAt(at - 1) >= 48 && id.charCodeAt(at - 1) <= 57) at--;
    if (at === end || at === 0 || id[at - 1] !== '_') return id.slice(0, end);
    end = at - 1;
  }
}

/** `pipeline.stages.X`, `stages.X`, `execution.steps.X`, `steps.X` at the start of a path, not after another name. */
const REFERENCE =
  /(?<![\w.])(pipeline\.stages|stages|execution\.steps|steps)\.([A-Za-z_][A-Za-z0-9_]*)(?:\.spec\.execution\.steps\.([A-Za-z_][A-Za-z0-9_]*))?/g;

interface References {
  readonly byStage: Map<string, StageIds>;
  /** The stage being walked, by its node: its ids are collected as its steps are visited. */
  current?: { node: IrNode; ids: { steps: Set<string>; opaque: boolean } };
  readonly strings: Array<{ text: string; path: DocPath; home: StageIds | undefined }>;
}

/**
 * `<+pipeline.stages.X...>`, `<+stages.X...>`, `<+execution.steps.X...>` and `<+steps.X...>` must name a stage
 * or step that exists: a typo there only shows up at run time, as an unresolved expression. The walk collects the
 * identifiers and the expressions; the check runs when every identifier is known.
 */
export const expressionReferences: Rule<References> = {
  code: 'unknown-reference',
  kinds: ['pipeline'],
  init: () => ({ byStage: new Map(), strings: [] }),
  stage(stage, at, state) {
    const body = isRecord(stage.body) ? stage.body : {};
    const ids = {
      path: at.path,
      steps: new Set<string>(),
      opaque: body.template !== undefined,
      looped: body.strategy !== undefined,
    };
    state.current = { node: stage, ids };
    if (typeof stage.identifier === 'string') state.byStage.set(stage.identifier, ids);
  },
  stepGroup(group, at, state) {
    const ids = at.stage && state.current?.node === at.stage.node ? state.current.ids : undefined;
    if (!ids) return;
    if (typeof group.identifier === 'string') ids.steps.add(group.identifier);
    if (isRecord(group.body) && group.body.template !== undefined) ids.opaque = true;
  },
  step(step, at, state) {
    const ids = at.stage && state.current?.node === at.stage.node ? state.current.ids : undefined;
    if (ids && typeof step.identifier === 'string') ids.steps.add(step.identifier);
  },
  string(text, at, state) {
    // Only text naming `stages.` or `steps.` can hold a reference `end` checks (REFERENCE needs one of them).
    if (!text.includes('<+') || !(text.includes('stages.') || text.includes('steps.'))) return;
    const stage = at.stage;
    const path = at.path;
    // Strings under a Pipeline stage's `spec.inputs` and `spec.outputs` belong to the child pipeline, whose ids are not here.
    if (stage && stage.node.type === 'Pipeline') {
      const after = path[stage.path.length + 1];
      if (path[stage.path.length] === 'spec' && (after === 'inputs' || after === 'outputs')) return;
    }
    const home =
      stage && typeof stage.node.identifier === 'string' ? state.byStage.get(stage.node.identifier) : undefined;
    state.strings.push({
      text,
      path,
      home: home && home.path.every((key, index) => path[index] === key) ? home : undefined,
    });
  },
  end(at, { byStage, strings }) {
    const { document } = at;
    if (byStage.size === 0) return;
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
    for (const { text, path, home } of strings)
      for (const expression of expressionsIn(text))
        for (const match of expression.matchAll(REFERENCE)) {
          const [, root, name, nestedStep] = match as unknown as [string, string, string, string | undefined];
          const problem = (what: string, candidates: Iterable<string>) => {
            const suggestion = closest(name, candidates);
            at.report(
              ruleWarning(
                document,
                path,
                'unknown-reference',
                `${describePath(document, path).field} refers to ${what} "${name}", which is not a ${what} of this ${what === 'stage' ? 'pipeline' : 'stage'}`,
                suggestion
                  ? didYouMean(suggestion)
                  : `the platform resolves <+${match[0]}...> only at run time, and it fails unless a ${what} with that identifier runs in the same execution`,
              ),
            );
          };
          if (root === 'pipeline.stages' || root === 'stages') {
            const target = stageNamed(name);
            if (!target) problem('stage', byStage.keys());
            else if (nestedStep && !target.opaque && !stepKnown(target, nestedStep)) {
              const suggestion = closest(nestedStep, target.steps);
              at.report(
                ruleWarning(
                  document,
                  path,
                  'unknown-reference',
                  `${describePath(document, path).field} refers to step "${nestedStep}" of stage "${name}", which does not exist`,
                  suggestion ? didYouMean(suggestion) : undefined,
                ),
              );
            }
          } else {
            const scope = home ?? allSteps();
            if (!scope.opaque && !stepKnown(scope, name)) problem('step', scope.steps);
          }
        }
  },
};

interface StageNames {
  readonly stages: Array<{ node: IrNode; path: DocPath }>;
}

/**
 * Stage identifiers written as plain values: `service.useFromStage.stage` and CI `infrastructure.useFromStage`
 * name an earlier stage; a notification rule's `forStages` names stages (or AllStages).
 */
export const stageNameReferences: Rule<StageNames> = {
  code: 'unknown-reference',
  kinds: ['pipeline'],
  init: () => ({ stages: [] }),
  stage(stage, at, state) {
    state.stages.push({ node: stage, path: at.path });
  },
  end(at, { stages }) {
    const { document } = at;
    const ids = stages.map((stage) => stage.node.identifier).filter((id): id is string => typeof id === 'string');
    const check = (name: unknown, path: DocPath, earlierThan?: number) => {
      if (typeof name !== 'string' || name.includes('<+')) return;
      const known = earlierThan === undefined ? ids : ids.slice(0, earlierThan);
      if (known.includes(name)) return;
      const what = earlierThan === undefined ? 'stage' : 'earlier stage';
      const suggestion = closest(name, known);
      at.report(
        ruleWarning(
          document,
          path,
          'unknown-reference',
          `${describePath(document, path).field} names ${what} "${name}", which does not exist`,
          suggestion
            ? didYouMean(suggestion)
            : earlierThan === undefined
              ? undefined
              : 'a stage can reuse only what a stage before it set up',
        ),
      );
    };
    stages.forEach((stage, index) => {
      const body = isRecord(stage.node.body) ? stage.node.body : {};
      const spec = isRecord(body.spec) ? body.spec : {};
      const service = isRecord(spec.service) ? spec.service : {};
      if (isRecord(service.useFromStage))
        check(service.useFromStage.stage, [...stage.path, 'spec', 'service', 'useFromStage', 'stage'], index);
      const infrastructure = isRecord(spec.infrastructure) ? spec.infrastructure : {};
      if (body.type === 'CI' && infrastructure.useFromStage !== undefined)
        check(infrastructure.useFromStage, [...stage.path, 'spec', 'infrastructure', 'useFromStage'], index);
    });
    const pipeline = isRecord(document) && isRecord(document.pipeline) ? document.pipeline : {};
    for (const [ruleIndex, rule] of list(pipeline.notificationRules).entries())
      if (isRecord(rule))
        for (const [eventIndex, event] of list(rule.pipelineEvents).entries())
          if (isRecord(event))
            for (const [stageIndex, name] of list(event.forStages).entries())
              if (name !== 'AllStages')
                check(name, [
                  'pipeline',
                  'notificationRules',
                  ruleIndex,
                  'pipelineEvents',
                  eventIndex,
                  'forStages',
                  stageIndex,
                ]);
  },
};
