import type { Assignment, MergedInput } from '../check/merge-inputs.js';
import { DEFAULT_OUT_DIR, type PipewrightConfig } from '../compile/config.js';
import { DiagnosticError } from '../core/diagnostics.js';
import { isRecord } from '../core/is-record.js';
import type { Client } from '../platform/client.js';
import { ApiError } from '../platform/envelope.js';
import {
  executionUrl,
  SUCCESS_STATUSES,
  type ExecutionNode,
  type ExecutionScope,
  type ExecutionSnapshot,
  type PipelineScope,
} from '../platform/executions.js';
import { asUserError, connect, requestFailed, type ConnectOptions } from '../publish/connect.js';
import { tuningFromEnv } from '../publish/settings.js';
import { renderDocuments } from '../render/render-inputs.js';
import { flowchart } from '../render/render.js';
import { readYaml } from '../yaml/read-yaml.js';
import { followExecution, type FollowEnd, type FollowEvent } from './follow.js';
import { DEFAULT_PACING } from './poll-delay.js';
import { readInputsFile, runInputs, type InputSetDocument } from './run-inputs.js';
import { stageColours } from './stage-colours.js';

/** What `run` is asked to do: the `pipewright run` arguments, as options. */
export interface RunOptions extends ConnectOptions {
  /** The pipeline: its identifier, project/identifier, org/project/identifier, or a pipeline YAML file. */
  readonly pipeline: string;
  readonly org?: string | undefined;
  readonly project?: string | undefined;
  /** Input sets on the platform, merged in this order (later ones win), before the file and the values. */
  readonly inputSets?: readonly string[] | undefined;
  /** A file of runtime-input YAML (`pipeline:`) or an input set (`inputSet:`), merged after the input sets. */
  readonly inputsFile?: string | undefined;
  /** Values for single runtime inputs, merged last. */
  readonly values?: readonly Assignment[] | undefined;
  /** The Git branch of a pipeline stored in Git. */
  readonly branch?: string | undefined;
  /** False: return once the execution has started. Default true: follow it to its end. */
  readonly wait?: boolean | undefined;
  /** Stop waiting after this long (and abort, unless `detach`). */
  readonly timeoutMs?: number | undefined;
  /** Stop waiting when this fires (Ctrl-C), and abort unless `detach`. */
  readonly signal?: AbortSignal | undefined;
  /** Leave the execution running when the wait ends early. */
  readonly detach?: boolean | undefined;
  /** Draw the stages as a mermaid flowchart coloured by outcome (`--format markdown`). */
  readonly picture?: boolean | undefined;
  /** The compiled output folder; default: the config's outDir, else `out`. */
  readonly outDir?: string | undefined;
  readonly config?: PipewrightConfig | undefined;
  readonly onEvent?: ((event: RunEvent) => void) | undefined;
}

export type RunEvent =
  | { readonly type: 'checked'; readonly inputs: readonly MergedInput[]; readonly from: 'project' | 'platform' }
  | { readonly type: 'started'; readonly planExecutionId: string; readonly url: string }
  | FollowEvent;

/**
 * How the run ended for pipewright: the execution's outcome, or `timed-out`, `started` (`--no-wait`), `detached`
 * (the wait ended early and the execution was left running).
 */
export type RunOutcome =
  'succeeded' | 'failed' | 'aborted' | 'expired' | 'rejected' | 'timed-out' | 'started' | 'detached';

export interface RunStep extends ExecutionNode {
  readonly stage: string;
}
export interface RunStage extends ExecutionNode {
  readonly steps: readonly RunStep[];
}

export interface RunResult {
  readonly pipeline: {
    readonly identifier: string;
    readonly org: string;
    readonly project: string;
    readonly branch?: string;
  };
  readonly planExecutionId: string;
  readonly url: string;
  /** The platform's last word on the execution (`Success`, `Failed`, `ApprovalWaiting`, ...). */
  readonly status: string;
  readonly outcome: RunOutcome;
  /** True when the execution succeeded, or started with `wait: false`. */
  readonly ok: boolean;
  /** The wait ended early (timeout, signal) and pipewright aborted the execution. */
  readonly aborted: boolean;
  readonly stages: readonly RunStage[];
  /** The stage and step that failed first, and the platform's message. */
  readonly failed?: {
    readonly stage?: string;
    readonly step?: string;
    readonly status: string;
    readonly message?: string;
  };
  /** Where the runtime inputs were read from: the project's compiled pipeline, or the platform's template. */
  readonly inputsFrom: 'project' | 'platform';
  readonly inputs: readonly MergedInput[];
  readonly startedAt?: number;
  readonly endedAt?: number;
  /** The stages as a mermaid flowchart coloured by outcome (with `picture`). */
  readonly picture?: string;
}

const OUTCOMES: Readonly<Record<string, RunOutcome>> = {
  Success: 'succeeded',
  IgnoreFailed: 'succeeded',
  Skipped: 'succeeded',
  Failed: 'failed',
  Errored: 'failed',
  Suspended: 'failed',
  Aborted: 'aborted',
  AbortedByFreeze: 'aborted',
  Expired: 'expired',
  ApprovalRejected: 'rejected',
};

/** Statuses of a node that ended the run badly: the first such step (else stage) is named in the report. */
const BAD = new Set(['Failed', 'Errored', 'Expired', 'ApprovalRejected', 'Aborted', 'AbortedByFreeze']);

/**
 * Runs a pipeline on the platform as `pipewright run` does: finds it (in the compiled output, else on the platform),
 * checks the inputs against its runtime inputs before anything is started, starts it, and follows it to its end.
 */
export async function runPipeline(options: RunOptions): Promise<RunResult> {
  const { configOutDir, loadConfig } = await import('../compile/load-config.js');
  const loaded = options.config ? undefined : await loadConfig();
  const config = options.config ?? loaded!.config;
  // From a subfolder of the project, the config's outDir is beside the config (configOutDir).
  const outDir = options.outDir ?? (loaded ? configOutDir(loaded) : (config.outDir ?? DEFAULT_OUT_DIR));
  const local = await localPipeline({ ...options, outDir }, config);
  const scope = pipelineScope(options, local);
  const tuning = tuningFromEnv();
  let client: Client;
  try {
    ({ client } = await connect(options, config, tuning));
  } catch (error) {
    throw asUserError(error);
  }
  const doing = (what: string) => (error: unknown) => {
    if (error instanceof ApiError) throw requestFailed(error, what, adviceFor(error));
    throw error;
  };
  const pipelineDocument =
    local ??
    (await client
      .inputTemplate(scope)
      .then(templateDocument(scope.pipeline), doing(`reading the runtime inputs of pipeline "${scope.pipeline}"`)));
  const inputSets = await readInputSets(client, scope, options.inputSets ?? []).catch(
    doing(`reading the input sets of pipeline "${scope.pipeline}"`),
  );
  const inputsFile = options.inputsFile === undefined ? undefined : readInputsFile(options.inputsFile);
  const checked = runInputs(pipelineDocument, scope.pipeline, inputSets, inputsFile, options.values ?? []);
  const from = local ? 'project' : 'platform';
  options.onEvent?.({ type: 'checked', inputs: checked.inputs, from });
  if (options.signal?.aborted)
    throw DiagnosticError.of(
      'run-failed',
      `interrupted before pipeline "${scope.pipeline}" was started: nothing was started`,
      'run it again',
    );
  const planExecutionId = await client
    .execute(scope, checked.yaml, options.inputSets ?? [])
    .catch(doing(`starting pipeline "${scope.pipeline}"`));
  const executionScope: ExecutionScope = { org: scope.org, project: scope.project, planExecutionId };
  const url = executionUrl(client.baseUrl, client.accountId, { ...executionScope, pipeline: scope.pipeline });
  options.onEvent?.({ type: 'started', planExecutionId, url });
  const base = {
    pipeline: {
      identifier: scope.pipeline,
      org: scope.org,
      project: scope.project,
      ...(scope.branch ? { branch: scope.branch } : {}),
    },
    planExecutionId,
    url,
    inputsFrom: from,
    inputs: checked.inputs,
  } as const;
  if (options.wait === false)
    return { ...base, status: 'Running', outcome: 'started', ok: true, aborted: false, stages: [] };
  const end = await followExecution({
    client,
    scope: executionScope,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.detach ? { detach: true } : {}),
    pacing: { ...DEFAULT_PACING, ...(tuning.pollMs !== undefined ? { minMs: tuning.pollMs } : {}) },
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  }).catch(doing(`following execution ${planExecutionId} of pipeline "${scope.pipeline}"`));
  const result = ended(base, end);
  if (!options.picture) return result;
  const drawn =
    local ??
    (
      await client
        .read(
          { kind: 'pipeline', org: scope.org, project: scope.project, identifier: scope.pipeline },
          scope.branch ? { branch: scope.branch } : {},
        )
        .catch(() => undefined)
    )?.document;
  return drawn ? { ...result, picture: stageColours(flowchart(drawn), drawn, result.stages) } : result;
}

/** The report of an execution followed until `end`. */
function ended(base: Omit<RunResult, 'status' | 'outcome' | 'ok' | 'aborted' | 'stages'>, end: FollowEnd): RunResult {
  const { snapshot } = end;
  const stages = stagesOf(snapshot);
  const outcome: RunOutcome =
    end.by === 'final'
      ? (OUTCOMES[snapshot.status] ?? 'failed')
      : end.by === 'timeout'
        ? 'timed-out'
        : end.aborted
          ? 'aborted'
          : 'detached';
  const failed = outcome === 'succeeded' || outcome === 'detached' ? undefined : failure(snapshot, stages, end);
  return {
    ...base,
    status: snapshot.status,
    outcome,
    ok: SUCCESS_STATUSES.has(snapshot.status) && end.by === 'final',
    aborted: end.by !== 'final' && end.aborted,
    stages,
    ...(failed ? { failed } : {}),
    ...(snapshot.startTs ? { startedAt: snapshot.startTs } : {}),
    ...(snapshot.endTs ? { endedAt: snapshot.endTs } : {}),
  };
}

const stagesOf = (snapshot: ExecutionSnapshot): RunStage[] =>
  snapshot.stages.map((stage) => ({
    ...stage,
    steps: snapshot.steps.filter((step) => step.stage === stage.identifier),
  }));

/** The first step that failed (or waits, when the wait timed out), else the first such stage. */
function failure(snapshot: ExecutionSnapshot, stages: readonly RunStage[], end: FollowEnd): RunResult['failed'] {
  const bad = (node: ExecutionNode) =>
    BAD.has(node.status) || (end.by !== 'final' && node.status !== 'Success' && node.status !== 'NotStarted');
  for (const stage of stages) {
    const step = stage.steps.find(bad);
    if (step)
      return {
        stage: stage.identifier,
        step: step.identifier,
        status: step.status,
        ...((step.message ?? stage.message ?? snapshot.message)
          ? { message: step.message ?? stage.message ?? snapshot.message }
          : {}),
      };
    if (bad(stage))
      return {
        stage: stage.identifier,
        status: stage.status,
        ...((stage.message ?? snapshot.message) ? { message: stage.message ?? snapshot.message } : {}),
      };
  }
  return { status: snapshot.status, ...(snapshot.message ? { message: snapshot.message } : {}) };
}

/** The pipeline in the project's compiled output (or a YAML file given), when it is there; else undefined. */
async function localPipeline(options: RunOptions, config: PipewrightConfig): Promise<unknown> {
  const parts = options.pipeline.split('/');
  const named =
    /\.ya?ml$/i.test(options.pipeline) || parts.length > 1
      ? options.pipeline
      : [options.org, options.project, options.pipeline].filter((part) => part !== undefined).join('/');
  try {
    const found = await renderDocuments(named, [], async () => options.outDir ?? config.outDir ?? DEFAULT_OUT_DIR);
    const key = found.pipeline.key;
    if ((options.org && key.org !== options.org) || (options.project && key.project !== options.project))
      return undefined;
    return found.pipeline.value;
  } catch (error) {
    if (
      error instanceof DiagnosticError &&
      error.diagnostics.every((d) => d.code === 'not-compiled-output' || d.code === 'unknown-pipeline')
    )
      return undefined;
    throw error;
  }
}

/** Organization, project and identifier: from the flags, the argument, or the compiled pipeline. */
function pipelineScope(options: RunOptions, local: unknown): PipelineScope {
  const body = isRecord(local) && isRecord(local.pipeline) ? local.pipeline : undefined;
  const parts = /\.ya?ml$/i.test(options.pipeline) ? [] : options.pipeline.split('/').reverse();
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  const identifier = text(body?.identifier) ?? parts[0] ?? options.pipeline;
  const project = options.project ?? parts[1] ?? text(body?.projectIdentifier);
  const org = options.org ?? parts[2] ?? text(body?.orgIdentifier);
  if (!org || !project)
    throw DiagnosticError.of(
      'usage',
      `pipeline "${options.pipeline}" is not in the compiled output, and no ${org ? 'project' : project ? 'organization' : 'organization and project'} is given to find it on the platform`,
      'name it as org/project/identifier, or pass --org and --project (or compile the project first)',
    );
  return { org, project, pipeline: identifier, ...(options.branch ? { branch: options.branch } : {}) };
}

/** The platform's runtime-input template as a pipeline document (`{ pipeline: { identifier } }` when it has none). */
const templateDocument =
  (identifier: string) =>
  (yaml: string): unknown => {
    if (!yaml.trim()) return { pipeline: { identifier } };
    const read = readYaml(yaml, 'the runtime-input template');
    const value = read.documents[0]?.value;
    if (read.diagnostics.some((d) => d.severity === 'error') || !isRecord(value) || !isRecord(value.pipeline))
      throw new ApiError('the runtime-input template the platform answered is not a pipeline: YAML document', {
        kind: 'rejected',
        request: 'POST /gateway/pipeline/api/inputSets/template',
      });
    return value;
  };

/** Each input set as the platform holds it, overlays expanded into theirs; one missing is an error before the run. */
async function readInputSets(
  client: Client,
  scope: PipelineScope,
  identifiers: readonly string[],
): Promise<InputSetDocument[]> {
  const found: InputSetDocument[] = [];
  const missing: string[] = [];
  const read = async (identifier: string): Promise<void> => {
    const key = {
      kind: 'inputSet' as const,
      org: scope.org,
      project: scope.project,
      parent: scope.pipeline,
      identifier,
    };
    const remote = await client.read(key, scope.branch ? { branch: scope.branch } : {});
    if (!remote) {
      missing.push(identifier);
      return;
    }
    const overlay = remote.document.overlayInputSet;
    if (isRecord(overlay) && Array.isArray(overlay.inputSetReferences)) {
      for (const reference of overlay.inputSetReferences) if (typeof reference === 'string') await read(reference);
      return;
    }
    found.push({ identifier, document: remote.document });
  };
  for (const identifier of identifiers) await read(identifier);
  if (missing.length)
    throw DiagnosticError.of(
      'unknown-input-set',
      `pipeline "${scope.pipeline}" in ${scope.org}/${scope.project} has no input set ${missing.map((m) => `"${m}"`).join(', ')} on the platform`,
      "publish the input set first, or check its identifier in the pipeline's Input Sets tab",
    );
  return found;
}

function adviceFor(error: ApiError): string {
  switch (error.kind) {
    case 'unauthorized':
      return 'check HARNESS_API_KEY: the platform did not accept the key (expired, rotated, or of another account)';
    case 'forbidden':
      return "the key's role needs pipeline view and execute in this project";
    default:
      return error.status === 404 || error.code === 'ENTITY_NOT_FOUND'
        ? 'check the organization, project and pipeline identifiers (and --branch for a pipeline stored in Git), and that the pipeline is published'
        : 'check the message above; nothing was started unless an execution id was printed';
  }
}
