import type { Endpoint } from './endpoints.js';
import { asRecord, asText, asTrimmedText, dataObject, describeValue, malformed } from './answers.js';

/**
 * The platform's execution API, as its own clients call it (docs/run.md has the sources): start a pipeline with
 * runtime-input YAML or input set references, read the execution's summary and graph, send an interrupt, and read
 * a pipeline's runtime-input template. Endpoints and answer shapes only; the client sends them.
 */

/** Where a pipeline lives, and the Git branch to run it from (Git-stored pipelines). */
export interface PipelineScope {
  readonly org: string;
  readonly project: string;
  readonly pipeline: string;
  readonly branch?: string;
}

/** Where an execution lives. */
export interface ExecutionScope {
  readonly org: string;
  readonly project: string;
  readonly planExecutionId: string;
}

const id = encodeURIComponent;
const scopeQuery = (account: string, scope: { org: string; project: string }) => ({
  accountIdentifier: account,
  orgIdentifier: scope.org,
  projectIdentifier: scope.project,
});

/**
 * POST `/pipeline/execute/{identifier}` with the runtime-input YAML as the body (`application/yaml`, empty when the
 * pipeline has no runtime inputs); or `/pipeline/execute/{identifier}/inputSetList` with a JSON body naming input
 * sets (`inputSetReferences`) and the YAML merged after them (`lastYamlToMerge`).
 */
export function executeEndpoint(account: string, scope: PipelineScope, inputSets: readonly string[]): Endpoint {
  const withSets = inputSets.length > 0;
  return {
    method: 'POST',
    path: `/gateway/pipeline/api/pipeline/execute/${id(scope.pipeline)}${withSets ? '/inputSetList' : ''}`,
    query: { ...scopeQuery(account, scope), ...(scope.branch ? { branch: scope.branch } : {}) },
    contentType: withSets ? 'application/json' : 'application/yaml',
  };
}

/** The body of an execute request: the YAML itself, or the input set list with the YAML merged last. */
export function executeBody(inputSets: readonly string[], runtimeInputYaml: string): string {
  if (inputSets.length === 0) return runtimeInputYaml;
  return JSON.stringify({
    inputSetReferences: inputSets,
    ...(runtimeInputYaml ? { lastYamlToMerge: runtimeInputYaml } : {}),
  });
}

/** GET `/pipelines/execution/v2/{planExecutionId}` with the whole step graph (`renderFullBottomGraph=true`). */
export const executionEndpoint = (account: string, scope: ExecutionScope): Endpoint => ({
  method: 'GET',
  path: `/gateway/pipeline/api/pipelines/execution/v2/${id(scope.planExecutionId)}`,
  query: { ...scopeQuery(account, scope), renderFullBottomGraph: 'true' },
});

/** PUT `/pipeline/execute/interrupt/{planExecutionId}?interruptType=AbortAll`: stops every node of the execution. */
export const abortEndpoint = (account: string, scope: ExecutionScope): Endpoint => ({
  method: 'PUT',
  path: `/gateway/pipeline/api/pipeline/execute/interrupt/${id(scope.planExecutionId)}`,
  query: { ...scopeQuery(account, scope), interruptType: 'AbortAll' },
});

/** POST `/inputSets/template?pipelineIdentifier=`: the pipeline's runtime inputs as an input set YAML (JSON body). */
export const inputTemplateEndpoint = (account: string, scope: PipelineScope): Endpoint => ({
  method: 'POST',
  path: '/gateway/pipeline/api/inputSets/template',
  query: {
    ...scopeQuery(account, scope),
    pipelineIdentifier: scope.pipeline,
    ...(scope.branch ? { branch: scope.branch } : {}),
  },
  contentType: 'application/json',
});

/**
 * Statuses that end an execution (StatusUtils.FINAL_STATUSES, as ExecutionStatus names them); `Success`,
 * `IgnoreFailed` and `Skipped` count as success.
 */
export const FINAL_STATUSES: ReadonlySet<string> = new Set([
  'Success',
  'Failed',
  'Errored',
  'Aborted',
  'Expired',
  'ApprovalRejected',
  'AbortedByFreeze',
  'IgnoreFailed',
  'Skipped',
  'Suspended',
]);
export const SUCCESS_STATUSES: ReadonlySet<string> = new Set(['Success', 'IgnoreFailed', 'Skipped']);
/** Statuses in which the execution waits for a person: an approval, a manual intervention, runtime inputs. */
export const WAITING_STATUSES: ReadonlySet<string> = new Set([
  'ApprovalWaiting',
  'InterventionWaiting',
  'InputWaiting',
]);

/** What the platform said about one stage or step. */
export interface ExecutionNode {
  readonly identifier: string;
  readonly name: string;
  readonly status: string;
  readonly startTs?: number;
  readonly endTs?: number;
  /** The step type (`ShellScript`), or the stage type (`Deployment`). */
  readonly type?: string;
  /** Why it failed, as the platform words it. */
  readonly message?: string;
}

export interface ExecutionStep extends ExecutionNode {
  /** The identifier of the stage the step runs in. */
  readonly stage: string;
}

/** One read of an execution. */
export interface ExecutionSnapshot {
  readonly planExecutionId: string;
  readonly status: string;
  readonly startTs?: number;
  readonly endTs?: number;
  readonly message?: string;
  /** In the order the platform lays them out. */
  readonly stages: readonly ExecutionNode[];
  readonly steps: readonly ExecutionStep[];
}

/** `data.planExecution.uuid` of an execute answer: the execution's id (PlanExecutionResponseDto). */
export function startedExecution(data: unknown, request: string, correlationId?: string): string {
  const record = dataObject(data, request, correlationId);
  const planExecution = asRecord(record.planExecution);
  const uuid = asText(planExecution?.uuid);
  if (!uuid)
    throw malformed(
      request,
      planExecution ? 'data.planExecution has no uuid' : `data.planExecution is ${describeValue(record.planExecution)}`,
      correlationId,
    );
  return uuid;
}

/** `data.inputSetTemplateYaml`: empty when the pipeline has no runtime inputs. */
export function inputTemplateOf(data: unknown, request: string, correlationId?: string): string {
  const record = dataObject(data, request, correlationId);
  const yaml = record.inputSetTemplateYaml;
  if (yaml === undefined || yaml === null || yaml === '') return '';
  if (typeof yaml !== 'string')
    throw malformed(request, `data.inputSetTemplateYaml is ${describeValue(yaml)}, not YAML text`, correlationId);
  return yaml;
}

const time = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;

const failureMessage = (node: Record<string, unknown>): string | undefined =>
  asTrimmedText(asRecord(node.failureInfo)?.message) ?? asTrimmedText(asRecord(node.failureInfoDTO)?.message);

/** A node of the answer: an object with a status; else the answer is malformed. */
function nodeOf(
  value: unknown,
  where: string,
  request: string,
  correlationId?: string,
): { record: Record<string, unknown>; node: ExecutionNode } {
  const record = asRecord(value);
  const status = asText(record?.status);
  if (!record || !status)
    throw malformed(
      request,
      record ? `${where} has no status` : `${where} is ${describeValue(value)}, not an object`,
      correlationId,
    );
  const identifier = asText(record.nodeIdentifier) ?? asText(record.identifier) ?? '?';
  const start = time(record.startTs);
  const end = time(record.endTs);
  const type = asText(record.nodeType) ?? asText(record.stepType);
  const message = failureMessage(record);
  return {
    record,
    node: {
      identifier,
      name: asTrimmedText(record.name) ?? identifier,
      status,
      ...(start ? { startTs: start } : {}),
      ...(end ? { endTs: end } : {}),
      ...(type ? { type } : {}),
      ...(message ? { message } : {}),
    },
  };
}

/** The stage a step's `baseFqn` names (`pipeline.stages.<stage>.spec.execution...`). */
const stageOfFqn = (fqn: string | undefined): string | undefined => /^pipeline\.stages\.([^.]+)\./.exec(fqn ?? '')?.[1];

/**
 * An answer of the execution read (PipelineExecutionDetailDTO): the summary's status and its stages
 * (`layoutNodeMap`, nodes of group `STAGE`), and the steps of the graph (`executionGraph.nodeMap`, nodes whose
 * `baseFqn` is a step's). A summary without a status, or a node that is not an object with one, is malformed.
 */
export function executionSnapshot(data: unknown, request: string, correlationId?: string): ExecutionSnapshot {
  const record = dataObject(data, request, correlationId);
  const summary = asRecord(record.pipelineExecutionSummary);
  if (!summary)
    throw malformed(
      request,
      `data.pipelineExecutionSummary is ${describeValue(record.pipelineExecutionSummary)}`,
      correlationId,
    );
  const status = asText(summary.status);
  const planExecutionId = asText(summary.planExecutionId);
  if (!status || !planExecutionId)
    throw malformed(request, 'data.pipelineExecutionSummary has no status or planExecutionId', correlationId);
  const layout = summary.layoutNodeMap ?? {};
  if (!asRecord(layout))
    throw malformed(request, `layoutNodeMap is ${describeValue(layout)}, not an object`, correlationId);
  const stages: ExecutionNode[] = [];
  for (const [key, value] of Object.entries(layout as Record<string, unknown>)) {
    const { record: raw, node } = nodeOf(value, `layoutNodeMap.${key}`, request, correlationId);
    if (asText(raw.nodeGroup)?.toUpperCase() === 'STAGE') stages.push(node);
  }
  const graph = asRecord(record.executionGraph);
  const nodeMap = graph?.nodeMap ?? {};
  if (!asRecord(nodeMap))
    throw malformed(request, `executionGraph.nodeMap is ${describeValue(nodeMap)}, not an object`, correlationId);
  const steps: ExecutionStep[] = [];
  for (const [key, value] of Object.entries(nodeMap as Record<string, unknown>)) {
    const { record: raw, node } = nodeOf(value, `executionGraph.nodeMap.${key}`, request, correlationId);
    const fqn = asText(raw.baseFqn);
    const stage = stageOfFqn(fqn);
    // Steps only: the graph also holds the stage, its execution section and step groups as nodes.
    if (stage && fqn && /\.steps\.[^.]+$/.test(fqn) && asText(raw.stepType)) steps.push({ ...node, stage });
  }
  const start = time(summary.startTs);
  const end = time(summary.endTs);
  const message = asTrimmedText(asRecord(summary.executionErrorInfo)?.message);
  return {
    planExecutionId,
    status,
    ...(start ? { startTs: start } : {}),
    ...(end ? { endTs: end } : {}),
    ...(message ? { message } : {}),
    stages,
    steps,
  };
}

/** The execution's page in the platform's UI (the shape its own links have). */
export function executionUrl(baseUrl: string, account: string, scope: ExecutionScope & { pipeline: string }): string {
  const base = baseUrl.replace(/\/$/, '');
  return `${base}/ng/account/${id(account)}/all/orgs/${id(scope.org)}/projects/${id(scope.project)}/pipelines/${id(scope.pipeline)}/executions/${id(scope.planExecutionId)}/pipeline`;
}
