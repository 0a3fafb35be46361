import { isRecord } from '../core/is-record.js';
import type { IrNode } from './node.js';

/** What the diagram shows beyond the path a successful run takes. */
export interface FlowchartOptions {
  /** Draw each stage's and step group's rollback steps (default true); false: the success path only. */
  readonly rollback?: boolean | undefined;
}

type Ends = { first: string[]; last: string[] };

/**
 * A pipeline's stages and steps as a mermaid flowchart (`render --format mermaid`, a pull request's summary): a
 * stage with steps is a subgraph, a step group a subgraph inside it, a parallel block fans out and joins again.
 * Rollback steps run only when a run fails, so they sit apart: a `Rollback` subgraph inside their stage or step
 * group, reached by a dotted `on failure` edge from its last step. Node ids are numbered in document order, so the
 * text is deterministic and no identifier can clash with mermaid's keywords (`end`).
 */
export function mermaidFlowchart(pipeline: IrNode, options: FlowchartOptions = {}): string {
  const lines = ['flowchart TD'];
  const showRollback = options.rollback ?? true;
  let count = 0;
  const nextId = () => `n${++count}`;

  /** Draws one element (a stage, step, step group or parallel block); its entry and exit node ids. */
  const element = (node: IrNode, indent: string): Ends | undefined => {
    if (node.kind === 'parallel') {
      const members = node.children.map((child) => element(child.node, indent)).filter((ends) => ends !== undefined);
      return members.length
        ? { first: members.flatMap((ends) => ends.first), last: members.flatMap((ends) => ends.last) }
        : undefined;
    }
    if (node.kind !== 'stage' && node.kind !== 'step' && node.kind !== 'stepGroup') return undefined;
    const id = nextId();
    const isRollback = (at: readonly (string | number)[]) => at.includes('rollbackSteps');
    const inner = node.children.filter((child) => !isRollback(child.at)).map((child) => child.node);
    const rollback = showRollback
      ? node.children.filter((child) => isRollback(child.at)).map((child) => child.node)
      : [];
    if (node.kind === 'step' || (node.kind === 'stage' && inner.length === 0 && rollback.length === 0))
      lines.push(`${indent}${id}["${label(node)}"]`);
    else {
      lines.push(`${indent}subgraph ${id}["${label(node)}"]`, `${indent}  direction TB`);
      const steps = sequence(inner, `${indent}  `);
      if (rollback.length) {
        const rollbackId = nextId();
        lines.push(`${indent}  subgraph ${rollbackId}["Rollback"]`, `${indent}    direction TB`);
        sequence(rollback, `${indent}    `);
        lines.push(`${indent}  end`);
        for (const from of steps ?? []) lines.push(`${indent}  ${from} -. on failure .-> ${rollbackId}`);
      }
      lines.push(`${indent}end`);
    }
    return { first: [id], last: [id] };
  };

  /** Draws elements one after the other, each joined to the one before; the exit ids of the last. */
  const sequence = (nodes: readonly IrNode[], indent: string): string[] | undefined => {
    const edges: string[] = [];
    let previous: string[] | undefined;
    for (const node of nodes) {
      const ends = element(node, indent);
      if (!ends) continue;
      for (const from of previous ?? []) for (const to of ends.first) edges.push(`${indent}${from} --> ${to}`);
      previous = ends.last;
    }
    lines.push(...edges);
    return previous;
  };

  sequence(
    pipeline.children.map((child) => child.node),
    '  ',
  );
  return `${lines.join('\n')}\n`;
}

/** `Build (CI)`, `Deploy (template deploy_tpl)`, `Checks (step group)`, escaped for a quoted mermaid label. */
function label(node: IrNode): string {
  const body = isRecord(node.body) ? node.body : {};
  const name = typeof body.name === 'string' && body.name ? body.name : (node.identifier ?? '?');
  const template =
    isRecord(body.template) && typeof body.template.templateRef === 'string'
      ? `template ${body.template.templateRef}`
      : undefined;
  const kind = node.kind === 'stepGroup' ? 'step group' : (node.type ?? template);
  const text = kind ? `${name} (${kind})` : name;
  return text.replace(/#/g, '#35;').replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;');
}
