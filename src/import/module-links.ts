import { posix } from 'node:path';
import { kindRow, type ResourceKind } from '../catalog/kinds.js';
import { keyId, keyOf, parseReference, platformText, type ReferenceScope } from '../catalog/resource-key.js';
import { ref, type Code } from './code.js';
import { evaluate } from './evaluate.js';
import type { Refer } from './lifted.js';

/** The builder a referenced module must be written with to be passed where a builder of its kind is taken. */
const TYPED: Partial<Record<ResourceKind, (callee: string) => boolean>> = {
  project: (callee) => callee === 'project',
  pipeline: (callee) => callee === 'pipeline',
  service: (callee) => callee === 'service',
  environment: (callee) => callee === 'environment',
  infrastructure: (callee) => callee === 'infrastructure',
  inputSet: (callee) => callee === 'inputSet',
  template: (callee) => callee.startsWith('template.'),
};

interface Generated {
  readonly exportName: string;
  readonly code: Code;
  built?: { readonly value: unknown };
}

/** The documents a `ModuleLinks` refers between, as they are read (`DocumentSource`). */
export interface LinkedDocuments {
  readonly documents: ReadonlyArray<{
    readonly kind: ResourceKind;
    readonly document: Readonly<Record<string, unknown>>;
  }>;
  readonly paths: readonly string[];
  /** Whether document `a` is generated before document `b` (publish order). */
  before(a: number, b: number): boolean;
}

/**
 * References between the documents of one import, written as builder references: which document each
 * reference names (the one identity, `keyOf` and `parseReference`: `x`, `org.x`, `account.x`), and the export of
 * its module once generated. Modules are generated in the table of kinds' publish order (what is referenced
 * first: a project before its pipelines, a pipeline before its input sets), and a document refers only to one
 * earlier in that order: so the modules' imports never form a cycle, and a referenced module's export and built
 * resource are known when its referrers are generated. A reference the order does not allow stays text, and so
 * does one to a document not read yet (it comes later in that order).
 */
export class ModuleLinks {
  readonly #byKey = new Map<string, number>();
  readonly #generated: Array<Generated | undefined> = [];
  readonly #byPath = new Map<string, number>();
  /** Documents whose keys and paths are known to this table. */
  #known = 0;

  constructor(private readonly source: LinkedDocuments) {}

  /** Learns the documents read since the last look. */
  #sync(): void {
    const { documents, paths } = this.source;
    for (; this.#known < documents.length; this.#known++) {
      const index = this.#known;
      const { kind, document } = documents[index]!;
      this.#byPath.set(paths[index]!, index);
      const key = keyOf(kind, document[kindRow(kind).rootKey]);
      // Two documents of one identity: the first is the one referred to (compile reports the duplicate).
      if (key && !this.#byKey.has(keyId(key))) this.#byKey.set(keyId(key), index);
    }
  }

  /** Records the code generated for a document (again after a fallback): what its referrers import and evaluate. */
  generated(index: number, exportName: string, code: Code): void {
    this.#generated[index] = { exportName, code };
  }

  /** The code last generated for a document. */
  codeOf(index: number): Code | undefined {
    return this.#generated[index]?.code;
  }

  /** A module that could not be written: references to it stay text. */
  forget(index: number): void {
    this.#generated[index] = undefined;
  }

  /** The export name a document's module had when it was first generated (kept, as its referrers import it). */
  exportNameOf(index: number): string | undefined {
    return this.#generated[index]?.exportName;
  }

  /** The document a module path belongs to. */
  indexOf(path: string): number | undefined {
    this.#sync();
    return this.#byPath.get(path);
  }

  /** How the document at `index` refers to others: as builders, each target earlier in the order and typed. */
  referFrom(index: number): Refer {
    this.#sync();
    const { kind: ownKind, document } = this.source.documents[index]!;
    const own = keyOf(ownKind, document[kindRow(ownKind).rootKey]);
    const scope: ReferenceScope = {
      ...(own?.org !== undefined ? { org: own.org } : {}),
      ...(own?.project !== undefined ? { project: own.project } : {}),
    };
    return (kind, text, { from = scope, parent, version } = {}) => {
      const written = platformText(text);
      if (written === undefined || typeof text !== 'string') return undefined;
      // A project is named by its identifier within the org, not the referrer's project.
      const target = parseReference(
        written,
        kind === 'project' ? { ...(from.org !== undefined ? { org: from.org } : {}) } : from,
      );
      if (!target) return undefined;
      const row = kindRow(kind);
      const scoped = { ...target, ...(row.scopes.includes('project') ? {} : { project: undefined }) };
      const qualified = {
        ...(row.parent && parent !== undefined ? { parent } : {}),
        ...(row.version && version !== undefined ? { version } : {}),
      };
      const found = this.#byKey.get(keyId({ kind, ...scoped, ...qualified }));
      if (found === undefined || !this.source.before(found, index)) return undefined;
      const generated = this.#generated[found];
      if (!generated || generated.code.kind !== 'call' || !TYPED[kind]?.(generated.code.callee)) return undefined;
      return ref(
        this.source.paths[found]!,
        generated.exportName,
        kind,
        () => (generated.built ??= { value: evaluate(generated.code) }).value,
      );
    };
  }
}

/** The relative ESM specifier of module `to` from module `from` (paths relative to the output folder): `../pipelines/x.js`. */
export function specifier(from: string, to: string): string {
  const relative = posix.relative(posix.dirname(from), to).replace(/\.ts$/, '.js');
  return relative.startsWith('.') ? relative : `./${relative}`;
}
