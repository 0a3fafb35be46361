/**
 * Fault injection for the platform emulator: a seeded choice per request, so a failing run can be replayed.
 */
import { seededRandom } from '../../scripts/seeded-random.mjs';

export type FaultKind =
  /** 500 with the platform's JSON error envelope (and a correlationId). */
  | 'error-500-json'
  /** 503 with an empty body, as a load balancer answers. */
  | 'error-503-empty'
  /** 502 with an HTML page from a proxy. */
  | 'error-502-html'
  /** The connection is reset before anything is processed. */
  | 'reset'
  /** The request is processed (a write is applied) and then the connection is dropped without an answer. */
  | 'drop-after-write'
  /** The answer comes late (`delayMs`), but it comes. */
  | 'delay'
  /** No answer ever; only the client's timeout ends it. */
  | 'hang'
  /** 429 TOO_MANY_REQUESTS, as the rate limit answers: a seeded one, whatever the timing (not in ALL_FAULTS). */
  | 'too-many-requests';

export const ALL_FAULTS: readonly FaultKind[] = [
  'error-500-json',
  'error-503-empty',
  'error-502-html',
  'reset',
  'drop-after-write',
  'delay',
  'hang',
];

export interface FaultPlan {
  /** Probability in [0, 1] that a matching request gets a fault. */
  readonly rate: number;
  readonly kinds: readonly FaultKind[];
  readonly seed?: number;
  readonly delayMs?: number;
  /** Which requests may fail; default every /gateway/ request. */
  readonly match?: (request: { method: string; path: string; body: string }) => boolean;
}

export class FaultInjector {
  readonly plan: FaultPlan;
  readonly #random: () => number;
  /** How many of each were injected. */
  readonly injected = new Map<FaultKind, number>();

  constructor(plan: FaultPlan) {
    this.plan = plan;
    this.#random = seededRandom(plan.seed ?? 1);
  }

  pick(method: string, path: string, body: string): FaultKind | undefined {
    if (this.plan.match && !this.plan.match({ method, path, body })) return undefined;
    if (this.#random() >= this.plan.rate) return undefined;
    const kind = this.plan.kinds[Math.floor(this.#random() * this.plan.kinds.length)];
    if (kind) this.injected.set(kind, (this.injected.get(kind) ?? 0) + 1);
    return kind;
  }

  get total(): number {
    return [...this.injected.values()].reduce((a, b) => a + b, 0);
  }
}
