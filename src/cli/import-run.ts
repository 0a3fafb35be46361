import { readFile, stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { glob } from 'tinyglobby';
import type { ImportInput } from '../import/import-yaml.js';
import { DiagnosticError, formatDiagnostics } from '../core/diagnostics.js';
import { EXIT, useColor } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { requireOptional } from './optional-dependencies.js';

export interface ImportFlags {
  readonly out: string;
  readonly mode: 'files' | 'project';
  readonly json?: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads text strictly as UTF-8: a file with invalid bytes is not silently mangled. */
async function readUtf8(file: string): Promise<string> {
  const bytes = await readFile(file).catch(() => {
    throw DiagnosticError.of('file-not-found', `cannot read ${file}`, 'check the path');
  });
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw DiagnosticError.of('not-utf8', `${file} is not valid UTF-8 text`, 'save the file as UTF-8');
  }
}

async function inputsOf(files: readonly string[], mode: ImportFlags['mode']): Promise<ImportInput[]> {
  const inputs: ImportInput[] = [];
  for (const file of files) {
    if (file === '-') {
      inputs.push({ file: '<stdin>', text: await readStdin() });
      continue;
    }
    const info = await stat(file).catch(() => undefined);
    if (!info) throw DiagnosticError.of('file-not-found', `${file} does not exist`, 'pass YAML files, "-" for standard input, or a folder with --mode project');
    if (info.isDirectory()) {
      if (mode !== 'project') throw DiagnosticError.of('usage', `${file} is a folder`, 'import a whole folder with --mode project');
      const found = await glob(['**/*.yaml', '**/*.yml'], { cwd: file, dot: true });
      for (const inner of found.sort()) {
        const path = `${file.replace(/\/+$/, '')}/${inner}`;
        inputs.push({ file: relative(process.cwd(), path).split(sep).join('/'), text: await readUtf8(path) });
      }
    } else inputs.push({ file: relative(process.cwd(), file).split(sep).join('/'), text: await readUtf8(file) });
  }
  return inputs;
}

export async function runImport(files: string[], flags: ImportFlags): Promise<number> {
  if (flags.mode !== 'files' && flags.mode !== 'project') throw DiagnosticError.of('usage', `--mode must be files or project, not "${flags.mode}"`);
  requireOptional(['ts-morph', 'prettier'], 'pipewright import');
  // Loaded after the check: generating code needs ts-morph as soon as the module loads.
  const { importYaml } = await import('../import/import-yaml.js');
  const result = await importYaml({ inputs: await inputsOf(files, flags.mode), outDir: flags.out, mode: flags.mode });
  if (flags.json) {
    printEnvelope('import', true, result.warnings, { outDir: flags.out, mode: flags.mode, documents: result.documents, written: result.written });
    return EXIT.ok;
  }
  if (result.warnings.length) process.stderr.write(formatDiagnostics(result.warnings, { color: useColor(process.stderr) }));
  process.stdout.write(
    `imported ${result.documents} document${result.documents === 1 ? '' : 's'} into ${flags.out}:\n${result.written.map((f) => `  ${f}`).join('\n')}\n`,
  );
  return EXIT.ok;
}
