import { isRecord } from '../core/is-record.js';
import type { ExecutionNode } from '../platform/executions.js';
import { trimEnd } from '../core/trim-ends.js';

/**
 * Render's flowchart of a pipeline, its stages coloured by how the run went. The flowchart draws each stage at the
 * top level of the chart (two spaces in), one after the other in document order, a parallel block's in its order;
 * the stages of the pipeline document, read in the same order, say which node is which stage.
 */

const CLASSES = {
  succeeded: 'fill:#d3f9d8,stroke:#2b8a3e,color:#1b4332',
  failed: 'fill:#ffe3e3,stroke:#c92a2a,color:#5c0000',
  waiting: 'fill:#fff3bf,stroke:#e67700,color:#5c3c00',
  running: 'fill:#d0ebff,stroke:#1864ab,color:#0b3d66',
  skipped: 'fill:#f1f3f5,stroke:#868e96,color:#343a40',
} as const;

type Outcome = keyof typeof CLASSES;

function outcomeOf(status: string | undefined): Outcome {
  switch (status) {
    case 'Success':
    case 'IgnoreFailed':
      return 'succeeded';
    case 'Failed':
    case 'Errored':
    case 'Aborted':
    case 'AbortedByFreeze':
    case 'Expired':
    case 'ApprovalRejected':
      return 'failed';
    case 'ApprovalWaiting':
    case 'InterventionWaiting':
    case 'InputWaiting':
      return 'waiting';
    case 'Running':
    case 'AsyncWaiting':
    case 'TaskWaiting':
    case 'TimedWaiting':
    case 'Discontinuing':
      return 'running';
    default:
      return 'skipped';
  }
}

/** The stage identifiers of a pipeline document, in document order (a parallel block's in its order). */
function stageIdentifiers(list: unknown): string[] {
  const found: string[] = [];
  for (const element of Array.isArray(list) ? list : []) {
    if (!isRecord(element)) continue;
    if (Array.isArray(element.parallel)) found.push(...stageIdentifiers(element.parallel));
    if (isRecord(element.stage) && typeof element.stage.identifier === 'string') found.push(element.stage.identifier);
  }
  return found;
}

/** The flowchart with a class per outcome, and each stage's node in the class of its status. */
export function stageColours(chart: string, pipelineDocument: unknown, stages: readonly ExecutionNode[]): string {
  const body = isRecord(pipelineDocument) && isRecord(pipelineDocument.pipeline) ? pipelineDocument.pipeline : {};
  const identifiers = stageIdentifiers(body.stages);
  const nodes = [...chart.matchAll(/^ {2}(?:subgraph )?(n\d+)\[/gm)].map((match) => match[1]!);
  if (nodes.length !== identifiers.length) return chart;
  const status = new Map(stages.map((stage) => [stage.identifier, stage.status]));
  const byOutcome = new Map<Outcome, string[]>();
  nodes.forEach((node, index) => {
    const outcome = outcomeOf(status.get(identifiers[index]!));
    byOutcome.set(outcome, [...(byOutcome.get(outcome) ?? []), node]);
  });
  const lines = [...byOutcome].flatMap(([outcome, ids]) => [
    `  classDef ${outcome} ${CLASSES[outcome]}`,
    `  class ${ids.join(',')} ${outcome}`,
  ]);
  return `${trimEnd(chart, '\n')}\n${lines.join('\n')}\n`;
}
