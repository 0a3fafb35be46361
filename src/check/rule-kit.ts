/** Small helpers shared by the document rules. */
import type { DocPath } from '../core/document-path.js';
import type { CodeWith } from '../core/diagnostic-codes.js';
import { diagnosticOf, type Diagnostic } from '../core/diagnostics.js';
import { describePath } from '../core/document-path.js';
import { isRecord } from '../core/is-record.js';

export const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The body under a wire document's `pipeline:` key, or an empty one. */
export const pipelineBody = (document: unknown): Record<string, unknown> =>
  isRecord(document) && isRecord(document.pipeline) ? document.pipeline : {};

/** How to fix a rule's finding: a hint, or a did-you-mean with its suggestion (`didYouMean`). */
export type Help = string | { readonly hint?: string; readonly suggestion?: string } | undefined;

const helpFields = (help: Help) => (!help ? {} : typeof help === 'string' ? { hint: help } : help);

export const ruleError = (
  document: unknown,
  path: DocPath,
  code: CodeWith<'error'>,
  message: string,
  help?: Help,
): Diagnostic =>
  diagnosticOf(code, 'error', { message, path, subject: describePath(document, path).subject, ...helpFields(help) });

/**
 * A problem the platform saves without complaint but that fails (or misbehaves) at run time: an unresolvable
 * expression, a reference to a stage or step that is not there. A warning, so a valid document is never refused.
 */
export const ruleWarning = (
  document: unknown,
  path: DocPath,
  code: CodeWith<'warning'>,
  message: string,
  help?: Help,
): Diagnostic =>
  diagnosticOf(code, 'warning', { message, path, subject: describePath(document, path).subject, ...helpFields(help) });

/** What one pass over a text finds: its outermost `<+...>` expressions, and how it ends if unbalanced. */
export interface ExpressionScan {
  /** Inner text of each outermost expression (nested expressions included). */
  readonly expressions: string[];
  /** True when a `<+>` with nothing inside was seen. */
  readonly empty: boolean;
  /** `<+` still open at the end of the text. */
  readonly unclosed: number;
  /** Inside an expression, a quote still open at the end. */
  readonly openQuote: boolean;
}

/** Scans `<+...>` expressions, skipping quoted text inside them (a quoted `>` does not close one). */
export function scanExpressions(text: string): ExpressionScan {
  const expressions: string[] = [];
  let depth = 0;
  let start = 0;
  let empty = false;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    // Outside an expression only `<+` matters: jump to the next one (most of a script is plain text).
    if (depth === 0) {
      i = text.indexOf('<+', i);
      if (i < 0) break;
    }
    const ch = text[i];
    if (depth > 0 && quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '<' && text[i + 1] === '+') {
      if (text[i + 2] === '>') empty = true;
      if (depth === 0) start = i + 2;
      depth++;
      i++;
    } else if (depth > 0 && (ch === '"' || ch === "'")) quote = ch;
    else if (ch === '>' && depth > 0) {
      depth--;
      if (depth === 0) expressions.push(text.slice(start, i));
    }
  }
  return { expressions, empty, unclosed: depth, openQuote: quote !== null };
}

/** The outermost `<+...>` expressions of a text, each with its inner text (nested expressions included). */
export const expressionsIn = (text: string): string[] => scanExpressions(text).expressions;
