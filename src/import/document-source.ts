import { kindRow, publishRank } from '../catalog/kinds.js';
import { keyOf } from '../catalog/resource-key.js';
import { identityProblem, type IdentityField } from '../catalog/identity-rules.js';
import { safeFileName } from '../core/safe-file-name.js';
import { diagnosticOf, type Diagnostic, type Suppression } from '../core/diagnostics.js';
import type { PublishFlags } from '../ir/node.js';
import { kindsIn } from './kind-scan.js';
import { readDocuments, type YamlDocument } from './read-documents.js';

export interface ImportInput {
  /** Name shown in messages and the header comment (a path, or `<stdin>`). */
  readonly file: string;
  readonly text: string;
  /**
   * What the platform holds about the input's documents beyond their YAML (pull: the template version that is the
   * stable one), written into their code as the builders' options. Files carry no such fact.
   */
  readonly publishFlags?: PublishFlags;
  /**
   * Findings about the input's documents that their source holds on purpose (pull: what the platform keeps and
   * pipewright refuses), written into their code as `.suppress(code, reason)` with a comment saying why.
   */
  readonly suppressions?: readonly Suppression[];
}

/** A document read from an input, with the input's facts beyond the YAML. */
export interface SourcedDocument extends YamlDocument {
  readonly publishFlags?: PublishFlags;
  readonly suppressions?: readonly Suppression[];
}

export type ImportMode = 'files' | 'project';

/** The parts of an identity that name the module itself; a bad one refuses the document. */
const NAMING_FIELDS: readonly IdentityField[] = ['identifier', 'parent', 'versionLabel'];
const SCOPE_FIELDS: readonly IdentityField[] = ['org', 'project'];

/** A name as a file or folder name: what is not a word character, `.` or `-` becomes `_`. */
const fileSafe = (text: string) => text.replace(/[^\w.-]/g, '_');

/** A module's path, and why one of its names was mapped to a safe file name (`safeFileName`), if one was. */
interface ModulePath {
  readonly path: string;
  readonly mapped?: string;
}

/**
 * Where each document's module goes, in reading order; names never collide, not even in case. In a project, a document's folder
 * names its whole identity as compile's output does (the pipeline of an input set or trigger, the environment of
 * an infrastructure, a template's version: `templates/org/project/checks/v1.ts`), so the name of one module does
 * not hang on which documents came before it (pull writes the same module for the same resource every time).
 * Each name is one file or folder name every file system holds (`safeFileName`: `CON` is `_CON~<hash>`); the
 * identity was checked against the platform's rules before (`identityProblem`), so no name climbs out.
 */
function moduleNamer(mode: ImportMode): (found: YamlDocument) => ModulePath {
  const taken = new Set<string>();
  return ({ kind, document }) => {
    const row = kindRow(kind);
    const key = keyOf(kind, document[row.rootKey]);
    const names =
      mode === 'project'
        ? kind === 'project'
          ? [key?.org ?? '_', key?.identifier ?? kind]
          : [
              key?.org ?? '_',
              key?.project ?? '_',
              ...(row.parent ? [key?.parent ?? '_'] : []),
              key?.identifier ?? kind,
              ...(row.version ? [key?.version ?? '_'] : []),
            ]
        : [key?.identifier ?? kind];
    const safe = names.map((name) => safeFileName(fileSafe(name)));
    const mapped = safe.flatMap((name, at) => (name.mapped ? [`"${names[at]}" ${name.mapped}`] : [])).join('; ');
    const folder = mode === 'project' ? [kind === 'project' ? 'projects' : row.folder] : [];
    const base = [...folder, ...safe.map((name) => name.name)].join('/');
    // Unique whatever the case: `CI.ts` beside `ci.ts` is one file on macOS and Windows, and one module to esbuild.
    const free = (path: string) => !taken.has(path.toLowerCase());
    let path = `${base}.ts`;
    if (!free(path)) path = `${base}_${kind}.ts`;
    for (let n = 2; !free(path); n++) path = `${base}_${n}.ts`;
    taken.add(path.toLowerCase());
    return mapped ? { path, mapped } : { path };
  };
}

/**
 * The documents of the inputs with their module paths, read one input at a time as generation asks for them:
 * the first modules are checked while later files are still unread. A file with an error gives the documents
 * it could read (none for a syntax error); its problems are kept, and the other files are read on.
 */
export class DocumentSource {
  readonly documents: SourcedDocument[] = [];
  readonly paths: string[] = [];
  readonly problems: Diagnostic[] = [];
  #read = 0;
  readonly #name: (found: YamlDocument) => ModulePath;
  /** The lowest publish rank of a kind the inputs from each one on may hold (found by a scan, not by reading). */
  readonly #floor: number[];
  /** Documents read and not yet handed out in publish order, sorted by that order. */
  readonly #waiting: number[] = [];
  #queued = 0;

  constructor(
    private readonly inputs: readonly ImportInput[],
    mode: ImportMode,
  ) {
    this.#name = moduleNamer(mode);
    this.#floor = new Array<number>(inputs.length + 1);
    this.#floor[inputs.length] = Infinity;
    for (let at = inputs.length - 1; at >= 0; at--) {
      const kinds = kindsIn(inputs[at]!.text);
      const lowest = kinds ? Math.min(...[...kinds].map(publishRank)) : 0;
      this.#floor[at] = Math.min(lowest, this.#floor[at + 1]!);
    }
  }

  /** Whether document `index` exists (reading inputs up to it). */
  has(index: number): boolean {
    while (this.documents.length <= index && this.#read < this.inputs.length) this.#readNext();
    return index < this.documents.length;
  }

  /**
   * The next document in publish order (by kind, then reading order), reading only as many inputs as it takes
   * to know that no unread one holds a document before it; undefined when every document has been handed out.
   * So modules are generated in the order references need (what is referenced first) while most files are
   * still unread.
   */
  nextInPublishOrder(): number | undefined {
    for (;;) {
      this.#queue();
      const first = this.#waiting[0];
      if (first !== undefined && this.#rank(first) <= this.#floor[this.#read]!) return this.#waiting.shift();
      if (this.#read === this.inputs.length) return undefined;
      this.#readNext();
    }
  }

  /** Whether document `a` comes before document `b` in publish order. */
  before(a: number, b: number): boolean {
    return this.#rank(a) - this.#rank(b) < 0 || (this.#rank(a) === this.#rank(b) && a < b);
  }

  #rank(index: number): number {
    return publishRank(this.documents[index]!.kind);
  }

  /** Puts the documents read since the last call in their places among those waiting. */
  #queue(): void {
    for (; this.#queued < this.documents.length; this.#queued++) {
      const index = this.#queued;
      let at = this.#waiting.length;
      while (at > 0 && this.before(index, this.#waiting[at - 1]!)) at--;
      this.#waiting.splice(at, 0, index);
    }
  }

  #readNext(): void {
    const input = this.inputs[this.#read++]!;
    const { documents, diagnostics } = readDocuments(input.text, input.file);
    this.problems.push(...diagnostics);
    for (const found of documents) {
      // An identifier the platform does not allow never becomes a path: that document is refused, the rest go on.
      // A scope that is not an identifier (`<YOUR_ORG_ID>`, `${PROJECT_ID}`) is imported as validate takes it, with
      // a warning: the platform saves any text there and only the request for that scope fails, and in project
      // mode its folder name goes through safeFileName like every other name.
      const key = keyOf(found.kind, found.document[kindRow(found.kind).rootKey]);
      const problem = key && identityProblem(key, NAMING_FIELDS);
      const scopeProblem = key && identityProblem(key, SCOPE_FIELDS);
      const location = found.places.get(found.document)?.location ?? { file: input.file };
      if (scopeProblem && !problem)
        this.problems.push(
          diagnosticOf('unsafe-identity', 'warning', {
            message: `${kindRow(found.kind).label} from ${found.source} is imported with a scope the platform has no place for: ${scopeProblem}`,
            path: [],
            location,
            hint: 'replace it with the real org or project identifier before publishing; the request for that scope fails until then',
          }),
        );
      if (problem) {
        this.problems.push(
          diagnosticOf('unsafe-identity', 'error', {
            message: `${kindRow(found.kind).label} from ${found.source} is not imported: ${problem}`,
            path: [],
            location,
            hint: 'give it an identifier the platform accepts; its name would be a file name outside the output folder, or none at all',
          }),
        );
        continue;
      }
      const named = this.#name(found);
      if (named.mapped)
        this.problems.push(
          diagnosticOf('renamed-file', 'warning', {
            message: `${kindRow(found.kind).label} from ${found.source} is written as ${named.path}: ${named.mapped}`,
            path: [],
            location,
          }),
        );
      this.documents.push({
        ...found,
        ...(input.publishFlags ? { publishFlags: input.publishFlags } : {}),
        ...(input.suppressions?.length ? { suppressions: input.suppressions } : {}),
      });
      this.paths.push(named.path);
    }
  }
}
