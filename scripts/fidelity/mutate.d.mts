/** Types of mutate.mjs, for test/fidelity.test.ts. */
export const MUTATION_CLASSES: readonly string[];
export { seededRandom } from '../seeded-random.mjs';
export interface Mutant {
  mutation: string;
  variant?: string;
  path: Array<string | number>;
  make: () => unknown;
}
export interface CorpusTypes {
  steps: Map<string, Record<string, unknown>>;
  stepStages: Map<string, Set<string>>;
  stages: Map<string, boolean>;
}
export function mutantsOf(
  document: unknown,
  mutation: string,
  context: { random: () => number; enums: Set<string>; types: CorpusTypes; rootKey: string },
): Generator<Mutant>;
export function typesOf(documents: unknown[]): CorpusTypes;
export function enumValuesOf(schema: unknown): Set<string>;
export function placeOf(document: unknown, path: Array<string | number>): string;
