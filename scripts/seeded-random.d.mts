/** Types of seeded-random.mjs, for the tests and their support. */
export function seededRandom(seed: number): () => number;
