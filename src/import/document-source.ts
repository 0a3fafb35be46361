import { kindRow } from '../catalog/kinds.js';
import { keyOf } from '../catalog/resource-key.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { PublishFlags } from '../ir/node.js';
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
}

/** A document read from an input, with the input's facts beyond the YAML. */
export interface SourcedDocument extends YamlDocument {
  readonly publishFlags?: PublishFlags;
}

export type ImportMode = 'files' | 'project';

/** A name as a file or folder name: what is not a word character, `.` or `-` becomes `_`. */
const fileSafe = (text: string) => text.replace(/[^\w.-]/g, '_');

/**
 * Where each document's module goes, in reading order; names never collide, not even in case. In a project, a document's folder
 * names its whole identity as compile's output does (the pipeline of an input set or trigger, the environment of
 * an infrastructure, a template's version: `templates/org/project/checks/v1.ts`), so the name of one module does
 * not hang on which documents came before it (pull writes the same module for the same resource every time).
 */
function moduleNamer(mode: ImportMode): (found: YamlDocument) => string {
  const taken = new Set<string>();
  return ({ kind, document }) => {
    const row = kindRow(kind);
    const key = keyOf(kind, document[row.rootKey]);
    const id = fileSafe(key?.identifier ?? kind);
    const base =
      mode === 'project'
        ? kind === 'project'
          ? `projects/${key?.org ?? '_'}/${id}`
          : [
              row.folder,
              key?.org ?? '_',
              key?.project ?? '_',
              ...(row.parent ? [fileSafe(key?.parent ?? '_')] : []),
              id,
              ...(row.version ? [fileSafe(key?.version ?? '_')] : []),
            ].join('/')
        : id;
    // Unique whatever the case: `CI.ts` beside `ci.ts` is one file on macOS and Windows, and one module to esbuild.
    const free = (path: string) => !taken.has(path.toLowerCase());
    let path = `${base}.ts`;
    if (!free(path)) path = `${base}_${kind}.ts`;
    for (let n = 2; !free(path); n++) path = `${base}_${n}.ts`;
    taken.add(path.toLowerCase());
    return path;
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
  readonly #name: (found: YamlDocument) => string;

  constructor(
    private readonly inputs: readonly ImportInput[],
    mode: ImportMode,
  ) {
    this.#name = moduleNamer(mode);
  }

  /** Whether document `index` exists (reading inputs up to it). */
  has(index: number): boolean {
    while (this.documents.length <= index && this.#read < this.inputs.length) this.#readNext();
    return index < this.documents.length;
  }

  #readNext(): void {
    const input = this.inputs[this.#read++]!;
    const { documents, diagnostics } = readDocuments(input.text, input.file);
    this.problems.push(...diagnostics);
    for (const found of documents) {
      this.documents.push(input.publishFlags ? { ...found, publishFlags: input.publishFlags } : found);
      this.paths.push(this.#name(found));
    }
  }
}
