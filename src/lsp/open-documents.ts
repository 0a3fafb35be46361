import type { RuleSettings } from '../check/rule-settings.js';
import { finishResults, validateSource, type FileResult, type ValidatedFile } from '../validate/validate-files.js';

/** One document the editor has open: its text and, once checked, what validate found in it alone. */
interface OpenDocument {
  readonly text: string;
  checked?: ValidatedFile;
}

/**
 * The workspace as the editor holds it: the open YAML documents by file path. Each document is checked on its own
 * once per version (validate's reader and document check, incremental per document); what spans documents
 * (duplicates, references, input sets against their pipeline) and the disable comments are worked out again over
 * the kept results at every change, which costs little next to reading and checking one document.
 */
export class OpenDocuments {
  readonly #documents = new Map<string, OpenDocument>();
  readonly #settings: RuleSettings | undefined;

  constructor(settings?: RuleSettings) {
    this.#settings = settings;
  }

  set(file: string, text: string): void {
    this.#documents.set(file, { text });
  }

  delete(file: string): void {
    this.#documents.delete(file);
  }

  text(file: string): string | undefined {
    return this.#documents.get(file)?.text;
  }

  files(): string[] {
    return [...this.#documents.keys()];
  }

  /** Every open document's diagnostics, located in its text, as validate reports them for the same files. */
  diagnose(): FileResult[] {
    const results: FileResult[] = [];
    const records: ValidatedFile['records'] = [];
    for (const [file, open] of this.#documents) {
      open.checked ??= validateSource(open.text, file, this.#settings, (name) => this.#textOf(name), false);
      // A copy: the check across documents and the comments add to the list, and the next change starts again.
      results.push({ ...open.checked.result, diagnostics: [...open.checked.result.diagnostics] });
      records.push(...open.checked.records);
    }
    return finishResults(results, records, this.#settings, (name) => this.#textOf(name));
  }

  #textOf(file: string): string {
    return this.#documents.get(file)?.text ?? '';
  }
}
