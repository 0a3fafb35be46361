import { randomUUID } from 'node:crypto';
import { parse, stringify } from 'yaml';
import type { Answer } from './emulator-rest.js';
import { errorBody } from './emulator-rest.js';
import type { Store } from './emulator-store.js';

/**
 * Executions, as the platform runs them (docs/run.md has the sources): an execute request starts one, whose stages
 * and steps progress over time, one step after another, each taking `stepMs`. What a step does comes from the
 * pipeline the emulator holds: a `HarnessApproval` step waits for a person (forever, here), and a step whose script
 * or command holds `emulator:fail` fails, `emulator:expire` expires. The interrupt endpoint aborts. Status reads,
 * interrupts and execute requests are recorded with the server's time, so a test checks the polling rate on the
 * server's clock rather than its own.
 */

export interface ExecutionOptions {
  /** How long each step runs; default 40 ms. */
  readonly stepMs?: number;
}

type Behaviour = 'succeed' | 'fail' | 'approval' | 'expire';

interface StepPlan {
  readonly identifier: string;
  readonly name: string;
  readonly type: string;
  readonly behaviour: Behaviour;
}

interface StagePlan {
  readonly identifier: string;
  readonly name: string;
  readonly type: string;
  readonly steps: readonly StepPlan[];
}

export interface EmulatedExecution {
  readonly id: string;
  readonly org: string;
  readonly project: string;
  readonly pipeline: string;
  readonly startedAt: number;
  readonly stages: readonly StagePlan[];
  /** The runtime-input YAML the run was started with (the body, or `lastYamlToMerge`). */
  readonly inputs: string;
  readonly inputSets: readonly string[];
  abortedAt?: number;
  /** The key of the execute request, for an echo in a failure message (the hostile `echoKey` platform). */
  readonly echo?: string;
}

export interface StatusRead {
  readonly id: string;
  readonly at: number;
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);

/** The steps of a step list, step groups and parallel blocks flattened in the order they run. */
function stepsOf(list: unknown): StepPlan[] {
  const found: StepPlan[] = [];
  for (const element of Array.isArray(list) ? list : []) {
    const item = asRecord(element);
    if (!item) continue;
    if (Array.isArray(item.parallel)) found.push(...stepsOf(item.parallel));
    const group = asRecord(item.stepGroup);
    if (group) found.push(...stepsOf(group.steps));
    const step = asRecord(item.step);
    if (!step) continue;
    const type = text(step.type) ?? 'Unknown';
    const marker = JSON.stringify(step.spec ?? {});
    const behaviour: Behaviour = marker.includes('emulator:fail')
      ? 'fail'
      : marker.includes('emulator:expire')
        ? 'expire'
        : type === 'HarnessApproval'
          ? 'approval'
          : 'succeed';
    const identifier = text(step.identifier) ?? '?';
    found.push({ identifier, name: text(step.name) ?? identifier, type, behaviour });
  }
  return found;
}

/** The stages of a pipeline body in the order they run (a parallel block's one after the other, here). */
function stagesOf(list: unknown): StagePlan[] {
  const found: StagePlan[] = [];
  for (const element of Array.isArray(list) ? list : []) {
    const item = asRecord(element);
    if (!item) continue;
    if (Array.isArray(item.parallel)) found.push(...stagesOf(item.parallel));
    const stage = asRecord(item.stage);
    if (!stage) continue;
    const identifier = text(stage.identifier) ?? '?';
    const execution = asRecord(asRecord(stage.spec)?.execution);
    found.push({
      identifier,
      name: text(stage.name) ?? identifier,
      type: text(stage.type) ?? 'Custom',
      steps: stepsOf(execution?.steps),
    });
  }
  return found;
}

/** The runtime inputs of a pipeline body as the platform's template lists them: only what leads to a `<+input>`. */
function inputTemplate(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith('<+input>') ? value : undefined;
  if (Array.isArray(value)) {
    const kept = value.map(inputTemplate).filter((item) => item !== undefined);
    return kept.length ? kept : undefined;
  }
  const record = asRecord(value);
  if (!record) return undefined;
  const kept: Record<string, unknown> = {};
  let inputs = false;
  for (const [key, child] of Object.entries(record)) {
    const inner = inputTemplate(child);
    if (inner !== undefined) {
      kept[key] = inner;
      inputs = true;
    }
  }
  if (!inputs) return undefined;
  // The identity of a list element stays, as in the platform's template.
  for (const key of ['identifier', 'name', 'type'])
    if (typeof record[key] === 'string' && !(key in kept)) kept[key] = record[key];
  return kept;
}

/** Runtime inputs still unanswered in a runtime-input YAML: `<+input>` without a default or `.executionInput()`. */
function unanswered(value: unknown, path: string, into: string[]): void {
  if (typeof value === 'string') {
    if (value.startsWith('<+input>') && !value.includes('.default(') && !value.includes('.executionInput()'))
      into.push(path);
    return;
  }
  if (Array.isArray(value)) value.forEach((item, index) => unanswered(item, `${path}[${index}]`, into));
  else for (const [key, child] of Object.entries(asRecord(value) ?? {})) unanswered(child, `${path}.${key}`, into);
}

interface NodeState {
  readonly status: string;
  readonly startTs?: number;
  readonly endTs?: number;
  readonly message?: string;
}

/** The state of every step at `now`: steps run one after another, `stepMs` each, until one fails or waits. */
function stepStates(run: EmulatedExecution, now: number, stepMs: number): Map<StepPlan, NodeState> {
  const clock = Math.min(now, run.abortedAt ?? Infinity);
  const states = new Map<StepPlan, NodeState>();
  let at = run.startedAt;
  for (const stage of run.stages)
    for (const step of stage.steps) {
      if (clock < at) return states;
      const end = at + stepMs;
      const aborted = run.abortedAt !== undefined && run.abortedAt < end;
      if (step.behaviour === 'approval') {
        // An approval waits until someone acts: an abort at any time after it began ends it.
        const stopped = run.abortedAt !== undefined;
        states.set(
          step,
          stopped ? { status: 'Aborted', startTs: at, endTs: clock } : { status: 'ApprovalWaiting', startTs: at },
        );
        return states;
      }
      if (clock < end) {
        states.set(
          step,
          aborted ? { status: 'Aborted', startTs: at, endTs: clock } : { status: 'Running', startTs: at },
        );
        return states;
      }
      if (step.behaviour === 'fail') {
        const message = `Shell Script execution failed: exit status 1${run.echo ? ` (token ${run.echo})` : ''}`;
        states.set(step, { status: 'Failed', startTs: at, endTs: end, message });
        return states;
      }
      if (step.behaviour === 'expire') {
        states.set(step, { status: 'Expired', startTs: at, endTs: end, message: 'Step timed out' });
        return states;
      }
      states.set(step, { status: 'Success', startTs: at, endTs: end });
      at = end;
    }
  return states;
}

/** A stage's or the pipeline's status from its steps' states. */
function rollUp(states: readonly (NodeState | undefined)[], total: number): NodeState | undefined {
  const seen = states.filter((state): state is NodeState => state !== undefined);
  if (seen.length === 0) return undefined;
  const last = seen.at(-1)!;
  const startTs = seen[0]!.startTs;
  const ended = (status: string, message?: string): NodeState => ({
    status,
    ...(startTs ? { startTs } : {}),
    ...(last.endTs ? { endTs: last.endTs } : {}),
    ...(message ? { message } : {}),
  });
  if (last.status !== 'Success') return ended(last.status, last.message);
  return seen.length === total ? ended('Success') : { status: 'Running', ...(startTs ? { startTs } : {}) };
}

export class Executions {
  readonly runs = new Map<string, EmulatedExecution>();
  readonly statusReads: StatusRead[] = [];
  readonly interrupts: { readonly id: string; readonly type: string; readonly at: number }[] = [];
  readonly executes: { readonly pipeline: string; readonly path: string; readonly body: string }[] = [];
  readonly templateReads: string[] = [];
  readonly #stepMs: number;

  constructor(options: ExecutionOptions = {}) {
    this.#stepMs = options.stepMs ?? 40;
  }

  /** The answer to an execution request, or undefined when the path is not one. */
  answer(
    store: Store,
    request: {
      method: string;
      path: string;
      query: URLSearchParams;
      body: string;
      contentType: string | undefined;
      accountId: string;
      correlationId: string;
      canWrite: boolean;
      echo?: string;
    },
  ): Answer | undefined {
    const { method, path, query, correlationId } = request;
    const execute = /^\/pipeline\/api\/pipeline\/execute\/([^/]+)(\/inputSetList)?$/.exec(path);
    const detail = /^\/pipeline\/api\/pipelines\/execution\/v2\/([^/]+)$/.exec(path);
    const interrupt = /^\/pipeline\/api\/pipeline\/execute\/interrupt\/([^/]+)$/.exec(path);
    const template = path === '/pipeline/api/inputSets/template';
    if (!execute && !detail && !interrupt && !template) return undefined;
    const bad = (message: string): Answer => ({
      status: 400,
      body: errorBody('INVALID_REQUEST', message, correlationId),
      violation: message,
    });
    const expected = execute
      ? [
          'POST',
          ['branch', 'repoIdentifier', 'moduleType', 'useFQNIfError', 'notifyOnlyUser', 'notesForPipelineExecution'],
        ]
      : detail
        ? ['GET', ['renderFullBottomGraph', 'stageNodeId', 'stageNodeExecutionId', 'childStageNodeId']]
        : interrupt
          ? ['PUT', ['interruptType']]
          : ['POST', ['pipelineIdentifier', 'branch', 'repoIdentifier']];
    const [verb, optional] = expected as [string, string[]];
    if (method !== verb) return bad(`${method} on ${path}: use ${verb}`);
    for (const name of query.keys())
      if (!['accountIdentifier', 'orgIdentifier', 'projectIdentifier', ...optional].includes(name))
        return bad(`unexpected query parameter ${name}`);
    for (const name of ['accountIdentifier', 'orgIdentifier', 'projectIdentifier'])
      if (!query.get(name)) return bad(`query parameter ${name} is required`);
    if (query.get('accountIdentifier') !== request.accountId)
      return {
        status: 401,
        body: errorBody('INVALID_CREDENTIAL', 'The API key does not belong to this account', correlationId),
      };
    const org = query.get('orgIdentifier')!;
    const project = query.get('projectIdentifier')!;
    const ok = (data: unknown): Answer => ({
      status: 200,
      body: { status: 'SUCCESS', data, metaData: null, correlationId },
    });
    const notFound = (what: string): Answer => ({
      status: 404,
      body: errorBody('ENTITY_NOT_FOUND', what, correlationId),
    });
    if (template) {
      const pipelineId = query.get('pipelineIdentifier');
      if (!pipelineId) return bad('query parameter pipelineIdentifier is required');
      this.templateReads.push(pipelineId);
      const pipeline = store.get('pipeline', org, project, pipelineId);
      if (!pipeline)
        return notFound(
          `Pipeline [${pipelineId}] under Project[${project}], Organization [${org}] doesn't exist or has been deleted.`,
        );
      const kept = inputTemplate(pipeline.body);
      const yaml = kept === undefined ? '' : stringify({ pipeline: kept });
      return ok({ inputSetTemplateYaml: yaml, modules: ['pms'], hasInputSets: false });
    }
    if (execute) {
      if (!request.canWrite)
        return {
          status: 403,
          body: errorBody('NG_ACCESS_DENIED', 'Missing permission core_pipeline_execute on pipeline', correlationId),
        };
      const pipelineId = decodeURIComponent(execute[1]!);
      const withSets = execute[2] !== undefined;
      const mime = request.contentType?.split(';')[0]!.trim().toLowerCase();
      const wanted = withSets ? 'application/json' : 'application/yaml';
      if (mime !== wanted) return bad(`content type ${request.contentType ?? '(none)'}: send ${wanted}`);
      this.executes.push({ pipeline: pipelineId, path, body: request.body });
      const pipeline = store.get('pipeline', org, project, pipelineId);
      if (!pipeline)
        return notFound(
          `Pipeline [${pipelineId}] under Project[${project}], Organization [${org}] doesn't exist or has been deleted.`,
        );
      let inputs = request.body;
      let inputSets: string[] = [];
      if (withSets) {
        const json = asRecord(
          (() => {
            try {
              return JSON.parse(request.body) as unknown;
            } catch {
              return undefined;
            }
          })(),
        );
        if (!json || !Array.isArray(json.inputSetReferences)) return bad('the body must be a MergeInputSetRequest');
        inputSets = json.inputSetReferences.map(String);
        inputs = typeof json.lastYamlToMerge === 'string' ? json.lastYamlToMerge : '';
        for (const set of inputSets)
          if (!store.get('inputSet', org, project, set, { parent: pipelineId }))
            return {
              status: 400,
              body: errorBody(
                'INVALID_REQUEST',
                `Input Set [${set}] of pipeline [${pipelineId}] doesn't exist or has been deleted`,
                correlationId,
              ),
            };
      }
      let document: unknown;
      try {
        document = inputs.trim() ? parse(inputs) : undefined;
      } catch (error) {
        return bad(`Invalid yaml: ${(error as Error).message.split('\n')[0]}`);
      }
      if (document !== undefined && text(asRecord(asRecord(document)?.pipeline)?.identifier) !== pipelineId)
        return bad('the runtime-input YAML must be pipeline: with the identifier of the pipeline run');
      const missing: string[] = [];
      if (!withSets) unanswered(document, '', missing);
      if (missing.length)
        return {
          status: 400,
          body: errorBody('INVALID_REQUEST', `Runtime inputs without a value: ${missing.join(', ')}`, correlationId),
        };
      const id = randomUUID().replace(/-/g, '').slice(0, 22);
      const run: EmulatedExecution = {
        id,
        org,
        project,
        pipeline: pipelineId,
        startedAt: Date.now(),
        stages: stagesOf(pipeline.body.stages),
        inputs,
        inputSets,
        ...(request.echo ? { echo: request.echo } : {}),
      };
      this.runs.set(id, run);
      return ok({ planExecution: { uuid: id, status: 'RUNNING', planId: randomUUID(), startTs: run.startedAt } });
    }
    const id = decodeURIComponent((detail ?? interrupt)![1]!);
    const run = this.runs.get(id);
    if (!run || run.org !== org || run.project !== project) return notFound(`Plan Execution with id [${id}] not found`);
    if (interrupt) {
      const type = query.get('interruptType');
      if (type !== 'AbortAll') return bad(`interruptType ${type}: this client sends AbortAll`);
      this.interrupts.push({ id, type, at: Date.now() });
      if (!this.isFinal(run)) run.abortedAt = Date.now();
      return ok({ id: randomUUID(), type, planExecutionId: id });
    }
    this.statusReads.push({ id, at: Date.now() });
    return ok(this.detail(run));
  }

  /** Whether the execution has ended. */
  isFinal(run: EmulatedExecution, now = Date.now()): boolean {
    const status = this.detail(run, now).pipelineExecutionSummary.status;
    return !['Running', 'ApprovalWaiting'].includes(status);
  }

  /** The status an execution shows now (for tests). */
  statusOf(id: string): string {
    return this.detail(this.runs.get(id)!).pipelineExecutionSummary.status;
  }

  /** PipelineExecutionDetailDTO: the summary with its stage layout, and the graph of steps. */
  detail(run: EmulatedExecution, now = Date.now()) {
    const states = stepStates(run, now, this.#stepMs);
    const layoutNodeMap: Record<string, unknown> = {};
    const nodeMap: Record<string, unknown> = {};
    const stageStates: (NodeState | undefined)[] = [];
    for (const [index, stage] of run.stages.entries()) {
      const state = rollUp(
        stage.steps.map((step) => states.get(step)),
        stage.steps.length,
      );
      const aborted = state === undefined && run.abortedAt !== undefined;
      stageStates.push(state);
      layoutNodeMap[`stage-${index}`] = {
        nodeType: stage.type,
        nodeGroup: 'STAGE',
        nodeIdentifier: stage.identifier,
        name: stage.name,
        nodeUuid: `stage-${index}`,
        status: state?.status ?? (aborted ? 'Aborted' : 'NotStarted'),
        module: 'pms',
        startTs: state?.startTs ?? 0,
        endTs: state?.endTs ?? 0,
        ...(state?.message
          ? {
              failureInfo: { message: state.message },
              failureInfoDTO: { message: state.message, failureTypeList: [], responseMessages: [] },
            }
          : {}),
      };
      for (const [at, step] of stage.steps.entries()) {
        const stepState = states.get(step);
        if (!stepState) continue;
        nodeMap[`step-${index}-${at}`] = {
          uuid: `step-${index}-${at}`,
          name: step.name,
          identifier: step.identifier,
          baseFqn: `pipeline.stages.${stage.identifier}.spec.execution.steps.${step.identifier}`,
          stepType: step.type,
          status: stepState.status,
          startTs: stepState.startTs ?? 0,
          endTs: stepState.endTs ?? 0,
          ...(stepState.message
            ? { failureInfo: { message: stepState.message, failureTypeList: [], responseMessages: [] } }
            : {}),
        };
      }
    }
    const pipelineState = rollUp(
      stageStates.filter((state) => state !== undefined),
      run.stages.length,
    );
    const status =
      run.abortedAt !== undefined &&
      (!pipelineState || ['Running', 'ApprovalWaiting', 'Aborted'].includes(pipelineState.status))
        ? 'Aborted'
        : (pipelineState?.status ?? 'Running');
    return {
      pipelineExecutionSummary: {
        pipelineIdentifier: run.pipeline,
        planExecutionId: run.id,
        name: run.pipeline,
        status,
        layoutNodeMap,
        startingNodeId: 'stage-0',
        startTs: run.startedAt,
        ...(pipelineState?.endTs && status !== 'Running' && status !== 'ApprovalWaiting'
          ? { endTs: pipelineState.endTs }
          : {}),
        ...(pipelineState?.message ? { executionErrorInfo: { message: pipelineState.message } } : {}),
        runSequence: [...this.runs.keys()].indexOf(run.id) + 1,
        totalStagesCount: run.stages.length,
      },
      executionGraph: { rootNodeId: 'step-0-0', nodeMap, nodeAdjacencyListMap: {} },
    };
  }
}
