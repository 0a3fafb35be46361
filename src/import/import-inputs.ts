import { stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { glob } from 'tinyglobby';
import { DiagnosticError } from '../core/diagnostics.js';
import { trimEnd } from '../core/trim-ends.js';
import { decodeUtf8, MAX_YAML_FILE_BYTES, readYamlFile } from '../yaml/read-yaml-file.js';
import { MAX_CODE_POINTS } from '../yaml/read-yaml.js';
import type { ImportInput, ImportMode } from './document-source.js';

/** Standard input, as a file is read: bounded by the same size, and strictly UTF-8. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    total += (chunk as Buffer).length;
    if (total > MAX_YAML_FILE_BYTES)
      throw DiagnosticError.of(
        'file-too-large',
        `standard input is over ${MAX_YAML_FILE_BYTES} bytes; the platform refuses YAML documents over ${MAX_CODE_POINTS} characters`,
        'split it: move long scripts into files in the repository, or stages into templates',
      );
  }
  const text = decodeUtf8(Buffer.concat(chunks));
  if (text === undefined)
    throw DiagnosticError.of('not-utf8', 'standard input is not valid UTF-8 text', 'send the YAML as UTF-8');
  return text;
}

/** A file's text, read as validate reads it (a regular file, bounded, strictly UTF-8), or its diagnostic thrown. */
function readUtf8(file: string): string {
  const read = readYamlFile(file);
  if ('refused' in read) throw new DiagnosticError([read.refused]);
  return read.text;
}

/**
 * What `pipewright import` reads: each file (validate's reader: a regular file, bounded, strictly UTF-8), `-` for
 * standard input, and with `--mode project` every YAML file of a folder; a problem is thrown as its diagnostic.
 */
export async function readImportInputs(files: readonly string[], mode: ImportMode): Promise<ImportInput[]> {
  const inputs: ImportInput[] = [];
  for (const file of files) {
    if (file === '-') {
      inputs.push({ file: '<stdin>', text: await readStdin() });
      continue;
    }
    const info = await stat(file).catch(() => undefined);
    if (!info)
      throw DiagnosticError.of(
        'file-not-found',
        `${file} does not exist`,
        'pass YAML files, "-" for standard input, or a folder with --mode project',
      );
    if (info.isDirectory()) {
      if (mode !== 'project')
        throw DiagnosticError.of('usage', `${file} is a folder`, 'import a whole folder with --mode project');
      const found = await glob(['**/*.yaml', '**/*.yml'], { cwd: file, dot: true });
      for (const inner of found.sort()) {
        const path = `${trimEnd(file, '/')}/${inner}`;
        inputs.push({ file: relative(process.cwd(), path).split(sep).join('/'), text: readUtf8(path) });
      }
    } else inputs.push({ file: relative(process.cwd(), file).split(sep).join('/'), text: readUtf8(file) });
  }
  return inputs;
}
