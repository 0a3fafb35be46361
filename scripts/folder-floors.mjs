// The floors of a folder of src/: its file count and the longest chain of imports between its own files
// (dependency-cruiser's JSON). `node scripts/folder-floors.mjs src/publish`
import { execFileSync } from 'node:child_process';

const folder = (process.argv[2] ?? 'src/publish').replace(/\/$/, '');
const bin = new URL('../node_modules/dependency-cruiser/bin/dependency-cruise.mjs', import.meta.url).pathname;
const json = execFileSync(
  process.execPath,
  [bin, folder, '--no-config', '--ts-pre-compilation-deps', '--ts-config', 'tsconfig.json', '--output-type', 'json'],
  {
    maxBuffer: 256 * 1024 * 1024,
  },
);
const inside = (path) => path.startsWith(`${folder}/`);
const edges = new Map();
for (const module of JSON.parse(json).modules)
  if (inside(module.source)) edges.set(module.source, module.dependencies.map((d) => d.resolved).filter(inside));
const memo = new Map();
/** Files on the longest chain starting at `file` (the folder has no circles: the layer rules forbid them). */
const floors = (file) => {
  if (!memo.has(file)) memo.set(file, 1 + Math.max(0, ...(edges.get(file) ?? []).map(floors)));
  return memo.get(file);
};
console.log(`${folder}: ${edges.size} files, ${Math.max(...[...edges.keys()].map(floors))} floors`);
