import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { entryInsideFolder, MANIFEST_FILE, parseManifest, sha256, type SkippedEntry } from '../compile/layout.js';
import { DocumentError, publishDocument } from '../platform/document.js';
import type { PublishItem } from './publish-item.js';
import { SettingsError } from './settings.js';

export interface OutputFolder {
  readonly items: PublishItem[];
  /** Files whose bytes no longer match the manifest (edited after compile): published as they are now. */
  readonly edited: string[];
  /** What `compile --keep-going` skipped: not published, and never an orphan (its source is there, with errors). */
  readonly skipped: readonly SkippedEntry[];
}

/** The documents of a compiled output folder, in the manifest's (publish) order. */
export async function readOutputFolder(dir: string): Promise<OutputFolder> {
  const manifestPath = join(dir, MANIFEST_FILE);
  let text: string;
  try {
    text = await readFile(manifestPath, 'utf8');
  } catch {
    throw new SettingsError(
      `${manifestPath} not found: ${dir} is not a compiled output folder`,
      `run pipewright compile -o ${dir} first, or pass the folder compile wrote`,
      'not-compiled-output',
    );
  }
  const manifest = parseManifest(text);
  if (!manifest)
    throw new SettingsError(
      `${manifestPath} is not a pipewright manifest`,
      'publish reads the folder pipewright compile writes; compile again',
      'not-compiled-output',
    );
  const items: PublishItem[] = [];
  const edited: string[] = [];
  for (const entry of manifest.files) {
    if (!entryInsideFolder(entry))
      throw new SettingsError(
        `${manifestPath} lists ${JSON.stringify(entry.file)}, outside the folder or not a .yaml file`,
        'compile again to rewrite the manifest',
        'not-compiled-output',
      );
    const path = join(dir, entry.file);
    let yaml: string;
    try {
      yaml = await readFile(path, 'utf8');
    } catch {
      throw new SettingsError(
        `${path} is listed in ${manifestPath} but missing`,
        `run pipewright compile -o ${dir} again`,
        'not-compiled-output',
      );
    }
    if (entry.sha256 && sha256(yaml) !== entry.sha256) edited.push(entry.file);
    try {
      const document = publishDocument(yaml);
      const { id } = document;
      const mismatch =
        id.kind !== entry.kind ||
        id.identifier !== entry.identifier ||
        (entry.org ?? undefined) !== id.org ||
        (entry.project ?? undefined) !== id.project;
      if (mismatch)
        throw new DocumentError(
          `it declares ${id.kind} ${id.identifier}, the manifest says ${entry.kind} ${entry.identifier}`,
        );
      items.push({
        file: entry.file,
        document,
        ...(typeof entry.source === 'string' && entry.source ? { source: entry.source } : {}),
        ...(entry.stable === true && id.kind === 'template' ? { stable: true as const } : {}),
      });
    } catch (error) {
      if (error instanceof DocumentError)
        throw new SettingsError(
          `${path}: ${error.message}`,
          `run pipewright compile -o ${dir} again (or pipewright validate ${path})`,
          'not-compiled-output',
        );
      throw error;
    }
  }
  const skipped = Array.isArray(manifest.skipped)
    ? manifest.skipped.filter(
        (entry) => typeof entry === 'object' && entry !== null && typeof entry.source === 'string',
      )
    : [];
  return { items, edited, skipped };
}
