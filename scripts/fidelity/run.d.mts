/** Types of run.mjs, for test/fidelity.test.ts. */
export interface Verdict {
  refused: boolean;
  first?: string;
}
export type Judge = (document: unknown) => Verdict;
export interface DisagreementClass {
  name: string;
  mutation: string;
  direction: 'false-error' | 'miss';
  place: string;
  count: number;
  sample: { file: string; path: string; variant?: string; pipewright?: string; official?: string };
}
export interface FidelityResult {
  tally: Map<string, { mutants: number; agree: number }>;
  classes: DisagreementClass[];
  skipped: Array<{ file: string; official: boolean; pipewright: boolean }>;
}
export const JUDGED_KINDS: Readonly<Record<string, { schema: string; rootKey: string }>>;
export function loadOfficial(options: {
  sharedDir: string;
  Ajv: unknown;
  kinds?: string[];
}): Promise<{ official: Record<string, Judge>; schemas: Record<string, unknown> }>;
export function runFidelity(options: {
  corpusRoot: string;
  readYaml: (
    text: string,
    file: string,
  ) => { documents: Array<{ value: unknown }>; diagnostics: Array<{ severity: string }> };
  pipewright: Judge;
  official: Record<string, Judge>;
  schemas: Record<string, unknown>;
  seed?: number;
  perClass?: number;
  kinds?: string[];
  only?: string;
}): FidelityResult;
export function documentedPatterns(markdown: string): string[];
export function matchesPattern(name: string, pattern: string): boolean;
export function rate(agree: number, total: number): string;
