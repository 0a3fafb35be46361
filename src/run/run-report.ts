import type { MergedInput } from '../check/merge-inputs.js';
import type { ExecutionNode, ExecutionSnapshot, ExecutionStep } from '../platform/executions.js';
import type { RunResult } from './run.js';

/** How a run is shown: a line per change (CI logs), the live view's lines (a terminal), the end, and Markdown. */

const seconds = (start?: number, end?: number): string =>
  start && end && end >= start ? ` (${Math.max(0, Math.round((end - start) / 100) / 10)} s)` : '';

/** `stage "Deploy" Running`, `step deploy/rollout Failed (3.1 s): message` */
export function changeLine(stage: ExecutionNode, step?: ExecutionStep): string {
  const node = step ?? stage;
  const what = step ? `step ${stage.identifier}/${step.identifier}` : `stage ${stage.identifier}`;
  const message = node.message && node.status !== 'Success' ? `: ${oneLine(node.message)}` : '';
  return `${what} ${node.status}${seconds(node.startTs, node.endTs)}${message}`;
}

/** Where a person acts: the approval or intervention the execution waits for, and its page. */
export function waitingLine(status: string, url: string, stage?: ExecutionNode, step?: ExecutionStep): string {
  const what =
    status === 'ApprovalWaiting'
      ? 'an approval'
      : status === 'InterventionWaiting'
        ? 'a manual intervention'
        : status === 'InputWaiting'
          ? 'runtime inputs'
          : status;
  const where = [stage && `stage ${stage.identifier}`, step && `step ${step.identifier}`].filter(Boolean).join(', ');
  return `waiting for ${what}${where ? ` (${where})` : ''}: act at ${url}`;
}

/** The live view: every stage and its steps with their status, for a terminal (redrawn at each read). */
export function liveLines(snapshot: ExecutionSnapshot): string[] {
  const lines = [`execution ${snapshot.planExecutionId}: ${snapshot.status}`];
  for (const stage of snapshot.stages) {
    lines.push(`  ${mark(stage.status)} ${stage.name} ${stage.status}${seconds(stage.startTs, stage.endTs)}`);
    for (const step of snapshot.steps.filter((s) => s.stage === stage.identifier))
      lines.push(`      ${mark(step.status)} ${step.name} ${step.status}${seconds(step.startTs, step.endTs)}`);
  }
  return lines;
}

function mark(status: string): string {
  if (status === 'Success' || status === 'IgnoreFailed') return '✓';
  if (['Failed', 'Errored', 'Aborted', 'Expired', 'ApprovalRejected', 'AbortedByFreeze'].includes(status)) return '✗';
  if (status === 'NotStarted' || status === 'Skipped') return '·';
  return '…';
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `Failed: stage deploy, step rollout: exit status 1`, or `Success in 12.3 s`. */
export function endLine(result: RunResult): string {
  const head = `execution ${result.planExecutionId} of pipeline "${result.pipeline.identifier}"`;
  switch (result.outcome) {
    case 'succeeded':
      return `${head}: ${result.status}${seconds(result.startedAt, result.endedAt)}`;
    case 'started':
      return `${head} started; follow it at ${result.url}`;
    case 'detached':
      return `${head} left running (--detach): ${result.url}`;
    default:
      return `${head}: ${outcomeWord(result)}${failureText(result)}`;
  }
}

function outcomeWord(result: RunResult): string {
  if (result.outcome !== 'timed-out') return result.status;
  return `timed out (--timeout)${result.aborted ? ', so pipewright aborted it' : ', left running (--detach)'}`;
}

/** `: stage deploy, step rollout Failed: exit status 1` */
export function failureText(result: RunResult): string {
  const { failed } = result;
  if (!failed) return '';
  const where = [failed.stage && `stage ${failed.stage}`, failed.step && `step ${failed.step}`].filter(Boolean);
  return `${where.length ? ` at ${where.join(', ')} (${failed.status})` : ''}${failed.message ? `: ${oneLine(failed.message)}` : ''}`;
}

/** `3 runtime inputs: 2 given, 1 by default` */
export function inputsLine(inputs: readonly MergedInput[], from: 'project' | 'platform'): string {
  const count = (status: MergedInput['status']) => inputs.filter((input) => input.status === status).length;
  const parts = [
    count('given') && `${count('given')} given`,
    count('default') && `${count('default')} by default`,
    count('execution') && `${count('execution')} asked during the run`,
  ].filter(Boolean);
  const source = from === 'project' ? "the project's compiled pipeline" : "the platform's runtime-input template";
  return `${inputs.length} runtime input${inputs.length === 1 ? '' : 's'} checked against ${source}${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/** Markdown text: `|` and line breaks would break a table cell; `<` would open HTML. */
const cell = (text: string) => oneLine(text).replace(/\|/g, '\\|').replace(/</g, '&lt;');

const ICON: Readonly<Record<string, string>> = {
  succeeded: '✅',
  started: '▶️',
  detached: '▶️',
};

/** The run as a CI job summary: the outcome, the stages as a coloured flowchart, and a table of stages and steps. */
export function markdownReport(result: RunResult): string {
  const { pipeline } = result;
  const lines = [
    `### ${ICON[result.outcome] ?? '❌'} pipewright run: \`${pipeline.identifier}\` ${cell(result.status)}`,
    '',
    `[Execution ${result.planExecutionId}](${result.url}) of ${pipeline.org}/${pipeline.project}/${pipeline.identifier}${pipeline.branch ? ` (branch ${cell(pipeline.branch)})` : ''}${seconds(result.startedAt, result.endedAt)}`,
  ];
  const failure = failureText(result);
  if (result.outcome !== 'succeeded' && failure) lines.push('', `**${cell(result.outcome)}** ${cell(failure)}`);
  if (result.picture) lines.push('', '```mermaid', result.picture.trimEnd(), '```');
  if (result.stages.length) {
    lines.push('', '| stage | step | status | time | message |', '|---|---|---|---|---|');
    for (const stage of result.stages) {
      lines.push(row(stage.name, '', stage));
      for (const step of stage.steps) lines.push(row('', step.name, step));
    }
  }
  return `${lines.join('\n')}\n`;
}

const row = (stage: string, step: string, node: ExecutionNode) =>
  `| ${cell(stage)} | ${cell(step)} | ${cell(node.status)} | ${seconds(node.startTs, node.endTs).replace(/[()]/g, '').trim()} | ${cell(node.message ?? '')} |`;
