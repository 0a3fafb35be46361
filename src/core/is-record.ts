/** A JSON object: what a document's maps are once read (never an array, never null). */
export type JsonRecord = Record<string, unknown>;

/** Whether `value` is an object with keys (not an array, not null): the one test every reader of documents uses. */
export const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
