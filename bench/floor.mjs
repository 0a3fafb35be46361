// The floor: the same plain objects compile produces, stringified with `yaml` exactly as pipewright's
// reference emitter does (YAML 1.1, no aliases, no folding) and written one file each, in one process.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import YAML from 'yaml';

const [source, outDir] = process.argv.slice(2);
const documents = JSON.parse(await readFile(source, 'utf8'));
const made = new Set();
for (const { file, document } of documents) {
  const target = join(outDir, file);
  const dir = dirname(target);
  if (!made.has(dir)) {
    await mkdir(dir, { recursive: true });
    made.add(dir);
  }
  await writeFile(
    target,
    new YAML.Document(document, { version: '1.1', aliasDuplicateObjects: false }).toString({ lineWidth: 0 }),
  );
}
