import { isRecord, type JsonRecord } from '../core/is-record.js';
import { ApiError } from './api-error.js';

/**
 * The one reader of the platform's answers. Everything the platform sends is data from outside the trust boundary:
 * a field is read only through these functions, and an answer whose shape is wrong (a list page whose `data` is
 * null, a `content` that is not an array, a total that is not a number) is an error naming the request, never an
 * empty list: an empty list would make pull's record and publish's orphan check drop resources that exist.
 */

/** The value when it is a JSON object (not null, not an array), else undefined. */
export const asRecord = (value: unknown): JsonRecord | undefined => (isRecord(value) ? value : undefined);

/** A non-empty string, else undefined (an empty field says nothing). */
export const asText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** A string with something besides blanks, trimmed (messages and names people read). */
export const asTrimmedText = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** The value when it is an array, else an empty one (for optional lists inside a checked answer). */
export const asList = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

/** The error for an answer that is not the shape the request promises. Not retried: asking again gets the same. */
export function malformed(request: string, what: string, correlationId?: string): ApiError {
  return new ApiError(
    `the platform's answer to ${request} is malformed: ${what}; nothing was read from it (a proxy or a changed API may be in between)`,
    { kind: 'rejected', request, ...(correlationId ? { correlationId } : {}) },
  );
}

/** What JSON value this is, for messages (`null`, `a string`, `an array`), never the value itself. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** `data` of a SUCCESS answer that must hold an object (every GET of one resource, every list page). */
export function dataObject(data: unknown, request: string, correlationId?: string): JsonRecord {
  const record = asRecord(data);
  if (!record) throw malformed(request, `data is ${describeValue(data)}, not an object`, correlationId);
  return record;
}

/** One page of a list, as checked: its items, and the totals it announces (NG's or Spring's names). */
export interface PageAnswer {
  readonly content: readonly unknown[];
  readonly totalPages?: number;
  readonly totalItems?: number;
  /** Spring pages say `last`; NG pages do not. */
  readonly last?: boolean;
}

const count = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * A list page's `data`: `content` must be an array, and each total, when present, a whole number (NG
 * `{content, totalItems, totalPages, pageIndex, pageSize}` or Spring `{content, totalElements, totalPages, last}`,
 * platform-facts-3.md §3).
 */
export function pageAnswer(data: unknown, request: string, correlationId?: string): PageAnswer {
  const record = dataObject(data, request, correlationId);
  if (!Array.isArray(record.content))
    throw malformed(request, `data.content is ${describeValue(record.content)}, not a list`, correlationId);
  const totals: { totalPages?: number; totalItems?: number } = {};
  for (const [field, into] of [
    ['totalPages', 'totalPages'],
    ['totalItems', 'totalItems'],
    ['totalElements', 'totalItems'],
  ] as const) {
    const value = record[field];
    if (value === undefined || value === null) continue;
    if (!count(value))
      throw malformed(request, `data.${field} is ${describeValue(value)}, not a whole number`, correlationId);
    totals[into] ??= value;
  }
  if (record.last !== undefined && record.last !== null && typeof record.last !== 'boolean')
    throw malformed(request, `data.last is ${describeValue(record.last)}, not true or false`, correlationId);
  return {
    content: record.content,
    ...totals,
    ...(typeof record.last === 'boolean' ? { last: record.last } : {}),
  };
}

/**
 * The entity of one list item (`content[i].<entity>`, or the item itself) with its identifier. An item without
 * one cannot be keyed: skipping it would lose a resource, so it is an error.
 */
export function listedEntity(
  item: unknown,
  entity: string | undefined,
  position: string,
  request: string,
  correlationId?: string,
): { entity: JsonRecord; identifier: string; data: JsonRecord } {
  const data = asRecord(item);
  const body = entity ? asRecord(data?.[entity]) : data;
  if (!data || !body)
    throw malformed(
      request,
      `${position} is ${describeValue(entity && data ? data[entity] : item)}, not ${entity ? `an object with ${entity}` : 'an object'}`,
      correlationId,
    );
  const identifier = asText(body.identifier);
  if (!identifier) throw malformed(request, `${position} has no identifier`, correlationId);
  return { entity: body, identifier, data };
}

/** The JSON object of an answer outside the NG envelope (GraphQL, policy evaluations). */
export function jsonObject(answer: unknown, request: string, what: string): JsonRecord {
  const record = asRecord(answer);
  if (!record) throw malformed(request, `the answer is ${describeValue(answer)}, not an object with ${what}`);
  return record;
}
