import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jsonSchemaOf } from '../schema/json-schema.js';
import { RESOURCE_KINDS } from '../schema/index.js';
import { EXIT } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { stdout } from './output.js';

export interface SchemaFlags {
  readonly out: string;
  readonly json?: boolean;
}

/** Writes `<kind>.schema.json` for each document kind; the files are deterministic, so they can be committed. */
export async function runSchema(flags: SchemaFlags): Promise<number> {
  await mkdir(flags.out, { recursive: true });
  const written: string[] = [];
  for (const kind of RESOURCE_KINDS) {
    const file = join(flags.out, `${kind}.schema.json`);
    await writeFile(file, `${JSON.stringify(jsonSchemaOf(kind), null, 2)}\n`);
    written.push(file);
    if (!flags.json) stdout(`wrote ${file}\n`);
  }
  if (flags.json) printEnvelope('schema', true, [], { outDir: flags.out, written });
  return EXIT.ok;
}
