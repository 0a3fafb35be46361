// Loaded into a pipewright child with `node --import` (NODE_OPTIONS): SIGKILLs the process right before its Nth
// change to the file system under PIPEWRIGHT_TEST_FS_ROOT (N = PIPEWRIGHT_TEST_KILL_AT), as a crash or a cancelled
// CI job would stop it there; without a kill point it counts those changes and writes the count to
// PIPEWRIGHT_TEST_FS_COUNT at exit, so a test can choose points among them. Only the changes are counted: writes,
// renames, removals, folders made, files opened (reads go through none of these); those under
// PIPEWRIGHT_TEST_FS_SKIP (a folder under the root: a working folder whose writes the test does not look at) are not.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { isAbsolute, relative, resolve } from 'node:path';

const root = resolve(process.env.PIPEWRIGHT_TEST_FS_ROOT ?? '');
const killAt = Number(process.env.PIPEWRIGHT_TEST_KILL_AT ?? 0);
const countFile = process.env.PIPEWRIGHT_TEST_FS_COUNT;
const skip = process.env.PIPEWRIGHT_TEST_FS_SKIP ? resolve(process.env.PIPEWRIGHT_TEST_FS_SKIP) : undefined;
let count = 0;

const inside = (folder, path) => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

const counted = (path) => {
  if (typeof path !== 'string' && !(path instanceof URL)) return false;
  const absolute = resolve(path instanceof URL ? path.pathname : path);
  return inside(root, absolute) && !(skip && inside(skip, absolute));
};

const step = (path) => {
  if (!counted(path)) return;
  count += 1;
  if (count === killAt) process.kill(process.pid, 'SIGKILL');
};

const writeFileSync = fs.writeFileSync;
for (const name of ['writeFileSync', 'renameSync', 'rmSync', 'unlinkSync', 'mkdirSync', 'openSync', 'copyFileSync']) {
  const original = fs[name];
  fs[name] = function (path, ...rest) {
    step(path);
    return original.call(this, path, ...rest);
  };
}
for (const name of ['writeFile', 'rename', 'rm', 'unlink', 'mkdir', 'open', 'copyFile']) {
  const original = fs.promises[name];
  fs.promises[name] = function (path, ...rest) {
    step(path);
    return original.call(this, path, ...rest);
  };
}
// The named exports of node:fs and node:fs/promises, which the bundle imports, follow the patched functions.
syncBuiltinESMExports();

if (countFile) process.on('exit', () => writeFileSync(countFile, String(count)));
