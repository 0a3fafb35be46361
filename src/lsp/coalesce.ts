/**
 * Runs a task once for a burst of requests: `request()` (re)starts a short wait, and the task runs when no request
 * came for `settleMs`, or `maxWaitMs` after the first request of the burst (typing without a pause still sees its
 * diagnostics). The language server checks its documents this way: 500 quick edits are checked a few times, not
 * 500 times, and the last check is of the newest text.
 */
export class Coalesce {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #first: number | undefined;

  constructor(
    private readonly task: () => void,
    private readonly settleMs: number,
    private readonly maxWaitMs: number,
  ) {}

  request(): void {
    const now = Date.now();
    this.#first ??= now;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(
      () => this.#run(),
      Math.max(0, Math.min(this.settleMs, this.#first + this.maxWaitMs - now)),
    );
  }

  #run(): void {
    this.#timer = undefined;
    this.#first = undefined;
    this.task();
  }
}
