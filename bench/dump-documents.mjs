// Untimed preparation for the floor: the plain documents compile produces for a generated repo, as JSON,
// obtained through the same loading and building code as `pipewright compile`.
import { writeFile } from 'node:fs/promises';
import { buildAndValidate } from '../dist/compile/build-documents.js';
import { collectResources } from '../dist/compile/collect.js';
import { resolveEntries } from '../dist/compile/entries.js';
import { outputPathOf } from '../dist/catalog/resource-key.js';
import { loadModules } from '../dist/compile/load-modules.js';

const [target, ...entries] = process.argv.slice(2);
const modules = await loadModules(await resolveEntries(entries));
const { documents } = buildAndValidate(collectResources(modules));
await writeFile(target, JSON.stringify(documents.map((d) => ({ file: outputPathOf(d.key), document: d.document }))));
