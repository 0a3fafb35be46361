import type { Client } from '../platform/client.js';
import { systemClock, type Clock } from '../platform/clock.js';
import {
  FINAL_STATUSES,
  WAITING_STATUSES,
  type ExecutionNode,
  type ExecutionScope,
  type ExecutionSnapshot,
  type ExecutionStep,
} from '../platform/executions.js';
import { pollDelay, type PollPacing } from './poll-delay.js';

/** What following an execution reports as it goes. */
export type FollowEvent =
  /** A stage or step started, or its status changed. */
  | { readonly type: 'change'; readonly stage: ExecutionNode; readonly step?: ExecutionStep }
  /** The execution waits for a person (an approval, a manual intervention, runtime inputs asked during the run). */
  | { readonly type: 'waiting'; readonly status: string; readonly stage?: ExecutionNode; readonly step?: ExecutionStep }
  /** A read of the execution, with the whole snapshot (a live view redraws from it). */
  | { readonly type: 'snapshot'; readonly snapshot: ExecutionSnapshot };

/** How following ended. */
export type FollowEnd =
  | { readonly by: 'final'; readonly snapshot: ExecutionSnapshot }
  /** `timeoutMs` passed: the execution was aborted (unless `detach`), `snapshot` is the last read. */
  | { readonly by: 'timeout'; readonly snapshot: ExecutionSnapshot; readonly aborted: boolean }
  /** The signal fired (Ctrl-C, SIGTERM): aborted unless `detach`. */
  | { readonly by: 'signal'; readonly snapshot: ExecutionSnapshot; readonly aborted: boolean };

export interface FollowOptions {
  readonly client: Client;
  readonly scope: ExecutionScope;
  /** Ends the wait this long after following began; the execution is aborted unless `detach`. */
  readonly timeoutMs?: number;
  /** Stop following on this signal (and abort the execution unless `detach`). */
  readonly signal?: AbortSignal;
  /** Leave the execution running when the wait ends early. */
  readonly detach?: boolean;
  readonly pacing?: PollPacing;
  readonly clock?: Clock;
  readonly onEvent?: (event: FollowEvent) => void;
}

const stepKey = (step: ExecutionStep) => `${step.stage}/${step.identifier}`;

/**
 * Reads the execution until it ends, the timeout passes or the signal fires, waiting `pollDelay` between reads (the
 * client's rate limiter spaces them further when other requests share the key). Each change of a stage or step is
 * an event, and so is each wait for a person, once per waiting node.
 */
export async function followExecution(options: FollowOptions): Promise<FollowEnd> {
  const { client, scope } = options;
  const clock = options.clock ?? systemClock;
  const began = clock.now();
  const deadline = options.timeoutMs === undefined ? Infinity : began + options.timeoutMs;
  const seen = new Map<string, string>();
  const waitedOn = new Set<string>();
  const emit = options.onEvent ?? (() => undefined);
  let snapshot: ExecutionSnapshot | undefined;

  const stop = async (by: 'timeout' | 'signal'): Promise<FollowEnd> => {
    if (options.detach) return { by, snapshot: snapshot!, aborted: false };
    await client.abort(scope);
    // One more read, so the report shows what the abort left (the platform answers Aborted, or still Discontinuing).
    const after = await client.execution(scope).catch(() => snapshot!);
    return { by, snapshot: after, aborted: true };
  };

  for (;;) {
    snapshot = await client.execution(scope);
    emit({ type: 'snapshot', snapshot });
    for (const stage of snapshot.stages) {
      if (seen.get(stage.identifier) !== stage.status && stage.status !== 'NotStarted') emit({ type: 'change', stage });
      seen.set(stage.identifier, stage.status);
      for (const step of snapshot.steps.filter((s) => s.stage === stage.identifier)) {
        if (seen.get(stepKey(step)) !== step.status) emit({ type: 'change', stage, step });
        seen.set(stepKey(step), step.status);
      }
    }
    if (FINAL_STATUSES.has(snapshot.status)) return { by: 'final', snapshot };
    const waitingStep = snapshot.steps.find((step) => WAITING_STATUSES.has(step.status));
    const waitingStage = snapshot.stages.find((stage) => WAITING_STATUSES.has(stage.status));
    if (waitingStep || waitingStage || WAITING_STATUSES.has(snapshot.status)) {
      const key = waitingStep ? stepKey(waitingStep) : (waitingStage?.identifier ?? '');
      if (!waitedOn.has(key)) {
        waitedOn.add(key);
        const stage = waitingStep ? snapshot.stages.find((s) => s.identifier === waitingStep.stage) : waitingStage;
        emit({
          type: 'waiting',
          status: waitingStep?.status ?? waitingStage?.status ?? snapshot.status,
          ...(stage ? { stage } : {}),
          ...(waitingStep ? { step: waitingStep } : {}),
        });
      }
    }
    if (options.signal?.aborted) return stop('signal');
    const now = clock.now();
    if (now >= deadline) return stop('timeout');
    const wait = Math.min(pollDelay(now - began, options.pacing), deadline - now);
    try {
      await clock.sleep(wait, options.signal);
    } catch (error) {
      if (options.signal?.aborted) return stop('signal');
      throw error;
    }
  }
}
