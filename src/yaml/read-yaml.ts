import YAML, { isAlias, isMap, isScalar, isSeq, LineCounter, type Document, type Node } from 'yaml';
import type { Diagnostic, DiagnosticWithout } from '../core/diagnostics.js';
import type { SourceLocation } from '../core/source-location.js';
import { MAX_NESTING } from '../core/nesting.js';
import { MalformedNumber, platformPlain, platformTagged } from './platform-scalars.js';
import { spanOf } from './span.js';

/**
 * The one YAML reader of pipewright (validate, import and publish), reading a text the way the platform does
 * (../shared/reference/platform-facts-2.md §1): Jackson 2.15 on SnakeYAML 2.0 into a JSON tree. `yaml` parses
 * (with its failsafe schema, so every scalar arrives as text with its style and tag), and this module types
 * the scalars and builds the tree itself, because neither of `yaml`'s schemas types scalars as the platform does
 * and the platform neither expands aliases nor merges `<<` keys.
 */

/** SnakeYAML's default `codePointLimit`; the platform never raises it. */
export const MAX_CODE_POINTS = 3_145_728;
/** Above this many unclosed `[`/`{`, `yaml` itself runs out of stack or memory: refuse before parsing. */
const MAX_FLOW_BRACKETS = 1000;
/** Alias and merge-key warnings of one document beyond this are counted in the last one, not printed. */
const MAX_REPEATED = 3;

/** A problem found while reading, with its place in the text (the node's start and end when it is about one). */
type ReadProblem = Diagnostic & { readonly location: SourceLocation };

/** Offsets in the text: where a problem starts, and where it ends when it is about a node or a token. */
type Range = readonly [start: number, end?: number];

/** A node's start and end (its value's end: a comment after it is not part of it). */
const rangeOf = (node: { range?: readonly number[] | null } | null | undefined): Range =>
  node?.range ? [node.range[0]!, node.range[1]] : [0];

interface ReadDocument {
  /** The document as the platform's JSON tree (aliases as their anchor's name, `<<` as a plain key). */
  readonly value: unknown;
  /** `yaml`'s node tree, for locating paths and reading comments. */
  readonly node: Document;
  /** 0 for the first document of the file, the only one the platform reads. */
  readonly index: number;
  /** The platform would refuse this document's YAML (duplicate key, malformed number): its tree is a best effort. */
  readonly refused: boolean;
}

export interface ReadResult {
  /** Every document that has content and parsed, refused or not. */
  readonly documents: ReadDocument[];
  readonly diagnostics: ReadProblem[];
  readonly lines: LineCounter;
}

const countCodePoints = (text: string, from: number, to: number): number => {
  let count = 0;
  for (let i = from; i < to; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < to) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
};

/** The deepest run of unclosed flow brackets, counted on the raw text: an upper bound, cheap and stack-free. */
function flowBracketDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) {
      if (++depth > deepest) deepest = depth;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return deepest;
}

class TooDeep extends Error {}

/** Reads every document of a YAML text; `file` names it in each diagnostic's location. */
export function readYaml(text: string, file: string): ReadResult {
  const lines = new LineCounter();
  const diagnostics: ReadProblem[] = [];
  const documents: ReadDocument[] = [];
  const place = ([start, end]: Range): SourceLocation => ({ file, ...spanOf(lines, start, end) });
  const report = (range: Range, diagnostic: DiagnosticWithout<'path'> & { path?: Diagnostic['path'] }) =>
    diagnostics.push({ path: [], ...diagnostic, location: place(range) } as ReadProblem);

  if (flowBracketDepth(text) > MAX_FLOW_BRACKETS) {
    lines.addNewLine(0);
    report([0], tooDeep());
    return { documents, diagnostics, lines };
  }
  const parsed = YAML.parseAllDocuments(text, {
    schema: 'failsafe',
    uniqueKeys: false,
    lineCounter: lines,
    prettyErrors: false,
  });
  const all = Array.isArray(parsed) ? parsed : [parsed];
  const withContent = all.filter((doc) => doc.contents !== null || doc.errors.length > 0);
  withContent.forEach((doc, index) => {
    if (index === 1)
      report([doc.range[0]], {
        code: 'yaml-multiple-documents',
        severity: 'warning',
        message: `this file holds ${withContent.length} YAML documents; the platform reads only the first one of a file or request and ignores the rest`,
        hint: 'keep one document per file, or send each document separately',
      });
    if (doc.errors.length > 0) {
      // `yaml` runs out of stack on very deep nesting, once per level it unwinds: one diagnostic says it.
      if (doc.errors.some((error) => /call stack/i.test(error.message))) {
        report([doc.range[0]], tooDeep());
        return;
      }
      for (const error of doc.errors) {
        {
          const hint = syntaxHint(error.code);
          report(error.pos, {
            code: 'yaml-syntax',
            severity: 'error',
            message: syntaxMessage(error.message),
            ...(hint ? { hint } : {}),
          });
        }
      }
      return;
    }
    const [start, , end] = doc.range;
    if (end - start > MAX_CODE_POINTS && countCodePoints(text, start, end) > MAX_CODE_POINTS) {
      report([start], {
        code: 'yaml-too-large',
        severity: 'error',
        message: `the document has ${countCodePoints(text, start, end)} characters; the platform refuses YAML documents over ${MAX_CODE_POINTS} (3 MiB)`,
        hint: 'split it: move long scripts into files in the repository, or stages into templates',
      });
      return;
    }
    const problems: ReadProblem[] = [];
    let value: unknown;
    try {
      value = new TreeBuilder(
        doc,
        (range, diagnostic) => problems.push({ path: [], ...diagnostic, location: place(range) } as ReadProblem),
        (offset) => spanOf(lines, offset),
      ).build();
    } catch (error) {
      if (!(error instanceof TooDeep)) throw error;
      report([start], tooDeep());
      return;
    }
    diagnostics.push(...problems);
    documents.push({ value, node: doc, index, refused: problems.some((p) => p.severity === 'error') });
  });
  return { documents, diagnostics, lines };
}

const tooDeep = (): DiagnosticWithout<'path'> => ({
  code: 'too-deep',
  severity: 'error',
  message: `the document nests more than ${MAX_NESTING} levels deep`,
  hint: 'flatten the step groups; real pipelines nest a few levels at most',
});

/** The parser's first line, without its own " at line L, column C:" (the location is printed already). */
const syntaxMessage = (text: string) => text.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');

const syntaxHint = (code: string): string | undefined =>
  code === 'TAB_AS_INDENT'
    ? 'indent with spaces: the platform refuses a tab used as indentation (tabs inside values are fine)'
    : undefined;

type Report = (range: Range, diagnostic: DiagnosticWithout<'path'>) => void;

/** Builds the platform's tree of one parsed document, reporting what the platform would read differently. */
class TreeBuilder {
  private aliases = 0;
  private merges = 0;
  constructor(
    private readonly doc: Document,
    private readonly report: Report,
    private readonly position: (offset: number) => { line: number; column: number },
  ) {}

  build(): unknown {
    const value = this.node(this.doc.contents as Node | null, 0);
    this.summarise('alias', this.aliases);
    this.summarise('merge', this.merges);
    return value;
  }

  private node(node: Node | null, depth: number): unknown {
    if (node === null || node === undefined) return null;
    if (depth > MAX_NESTING) throw new TooDeep();
    if (isAlias(node)) {
      if (++this.aliases <= MAX_REPEATED)
        this.report(rangeOf(node), {
          code: 'yaml-alias',
          severity: 'warning',
          message: `the platform does not expand aliases: *${node.source} is read as the text "${node.source}"`,
          hint: 'write the repeated part out (pipewright builders share steps without aliases)',
        });
      return node.source;
    }
    if (isScalar(node)) return this.scalar(node);
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      const seen = new Map<string, Node>();
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const key = this.keyText(keyNode);
        const first = seen.get(key);
        const keyRange = keyNode?.range ? rangeOf(keyNode) : ([node.range?.[0] ?? 0] as const);
        if (first) {
          const { line, column } = this.position(first.range?.[0] ?? 0);
          this.report(keyRange, {
            code: 'yaml-duplicate-key',
            severity: 'error',
            message: `key "${key}" appears twice in this map (first at line ${line}, column ${column}); the platform refuses the document`,
            hint: 'remove or rename one of the two keys',
          });
        } else if (keyNode) seen.set(key, keyNode);
        if (key === '<<' && isScalar(keyNode) && keyNode.type === 'PLAIN' && ++this.merges <= MAX_REPEATED)
          this.report(keyRange, {
            code: 'yaml-merge-key',
            severity: 'warning',
            message: 'the platform does not merge `<<` keys: it reads a field named "<<" and leaves the map as written',
            hint: 'write the merged fields out in this map',
          });
        const value = this.node(pair.value as Node | null, depth + 1);
        if (key === '__proto__')
          Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        else out[key] = value;
      }
      return out;
    }
    if (isSeq(node)) return node.items.map((item) => this.node(item as Node | null, depth + 1));
    return null;
  }

  /** Keys are never typed: Jackson takes the key's text as the field name. */
  private keyText(node: Node | null): string {
    if (node === null || node === undefined) return '';
    if (isScalar(node)) return String(node.value);
    if (isAlias(node)) return node.source;
    return String(node);
  }

  private scalar(node: YAML.Scalar): unknown {
    const text = String(node.value);
    try {
      if (node.tag && node.tag !== '!') return platformTagged(text, node.tag);
      return node.type === 'PLAIN' ? platformPlain(text) : text;
    } catch (error) {
      if (!(error instanceof MalformedNumber)) throw error;
      this.report(rangeOf(node), {
        code: 'yaml-number',
        severity: 'error',
        message: `${JSON.stringify(text)} looks like a number to the platform's YAML reader, which cannot read it ("${error.message}"), so the platform refuses the document`,
        hint: `quote it ('${text}') if it is text`,
      });
      return text;
    }
  }

  private summarise(kind: 'alias' | 'merge', count: number): void {
    if (count <= MAX_REPEATED) return;
    this.report([this.doc.contents?.range?.[0] ?? 0], {
      code: kind === 'alias' ? 'yaml-alias' : 'yaml-merge-key',
      severity: 'warning',
      message: `${count - MAX_REPEATED} more ${kind === 'alias' ? 'aliases' : '`<<` merge keys'} in this document (${count} in all), each read as written, not expanded`,
    });
  }
}
