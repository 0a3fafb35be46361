import type { Diagnostic } from '../core/diagnostics.js';
import { describePath } from '../core/document-path.js';
import { originOf, type Code } from './code.js';
import type { Places } from './read-documents.js';

/**
 * Builders that write a node without its type's options: the generic builders take the type and spec as data,
 * `raw.*` the whole node as written. Code chosen at one of them is a fallback, reported as such.
 */
const GENERIC = new Set(['stage', 'step', 'connector', 'trigger']);
const isFallbackBuilder = (callee: string): boolean => GENERIC.has(callee) || callee.startsWith('raw.');

/** The fields a typed call passes through `.withFields()` (the one-field escape), if it does. */
const withFieldsOf = (code: Extract<Code, { kind: 'call' }>): string[] | undefined => {
  const fields = (code.chain ?? [])
    .filter((method) => method.method === 'withFields')
    .flatMap((method) => (method.args[0]?.kind === 'object' ? method.args[0].entries.map(([key]) => key) : []));
  return fields.length ? fields : undefined;
};

/** A node written with a generic builder, `raw.*` or `.withFields()`, and why the typed form was passed over. */
export interface Fallback {
  /** The YAML node (the parsed object), whose path and place the document's places give. */
  readonly node: object;
  /** The builder it fell to: `stage`, `raw.step`, ... */
  readonly builder: string;
  readonly why?: string;
}

/** The fallbacks of a module's code, each node once (a shared const is one node used in several places). */
export function fallbacksOf(code: Code, found: Fallback[] = [], seen = new Set<object>()): Fallback[] {
  switch (code.kind) {
    case 'call': {
      const origin = originOf(code);
      const fields = withFieldsOf(code);
      if (origin && (isFallbackBuilder(code.callee) || fields))
        for (const node of origin.nodes)
          if (!seen.has(node)) {
            seen.add(node);
            found.push(
              isFallbackBuilder(code.callee)
                ? { node, builder: code.callee, ...(origin.why ? { why: origin.why } : {}) }
                : {
                    node,
                    builder: `${code.callee}().withFields`,
                    why: `${fields!.join(', ')} passed as written, the rest typed${origin.why ? ` (${origin.why})` : ''}`,
                  },
            );
          }
      // Inside raw data there are no more builders: what raw holds is written as it is.
      for (const arg of code.args) fallbacksOf(arg, found, seen);
      for (const method of code.chain ?? []) for (const arg of method.args) fallbacksOf(arg, found, seen);
      break;
    }
    case 'object':
      for (const [, value] of code.entries) fallbacksOf(value, found, seen);
      break;
    case 'array':
      for (const item of code.items) fallbacksOf(item, found, seen);
      break;
    case 'template':
      for (const part of code.parts) if (typeof part !== 'string') fallbacksOf(part, found, seen);
      break;
    case 'const':
      fallbacksOf(code.value, found, seen);
      break;
    case 'apply':
      for (const arg of code.args) fallbacksOf(arg, found, seen);
      break;
    case 'function':
      fallbacksOf(code.body, found, seen);
      break;
    case 'literal':
    case 'member':
    case 'ref':
    case 'param':
      break;
  }
  return found;
}

/** Wrapper keys of list elements: a fallback of `{ step: {...} }` is named as the step. */
const WRAPPERS = new Set(['stage', 'step', 'stepGroup']);

/** The `import-fallback` diagnostic of a fallback: the node's path and place, the builder it fell to, and why. */
export function fallbackDiagnostic(fallback: Fallback, places: Places, module: string, document: unknown): Diagnostic {
  const place = places.get(fallback.node);
  const wrapper =
    Object.keys(fallback.node).length === 1 ? Object.keys(fallback.node).find((key) => WRAPPERS.has(key)) : undefined;
  const path = [...(place?.path ?? []), ...(wrapper ? [wrapper] : [])];
  const { subject, field } = describePath(document, path);
  return {
    code: 'import-fallback',
    severity: 'warning',
    message: `${field ? `${field} ` : ''}written as ${fallback.builder}() in ${module}: ${fallback.why ?? 'no typed builder reproduces it'}`,
    path,
    ...(subject ? { subject } : {}),
    ...(place ? { location: place.location } : {}),
    hint: fallback.builder.startsWith('raw.')
      ? 'the node is kept as written data: it compiles back exactly, without typed options'
      : fallback.builder.endsWith('.withFields')
        ? 'those fields are kept as written data beside the typed options: it compiles back exactly'
        : 'the node keeps its type and spec as data: it compiles back exactly, with fewer typed options',
  };
}
