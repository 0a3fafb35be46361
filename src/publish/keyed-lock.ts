/**
 * Runs tasks one at a time per key, in the order they ask; tasks of different keys run side by side. Publish
 * uses it where the platform serialises badly: Git writes to one repository and branch, webhook trigger creates.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    const result = before.then(task, task);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    // The map forgets a key once its last task is done, so a long run does not keep every key.
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
