#!/usr/bin/env node
// Entry of the `pipewright` binary. `--version` answers before anything else is loaded, so it costs
// about as much as starting Node.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  // On two cores, V8's optimizing compiler runs on threads that take the core a compile needs: in a 2.7 s
  // compile of 1000 files V8's background threads used about 1 CPU-second, most of it optimizing with inlining,
  // and the main thread waited 0.7 s for a core. Without inlining, compiles were 4-8% faster (docs/performance.md,
  // session 7). Set before the library loads; a flag about inlining given to Node is left as it is.
  if (availableParallelism() <= 2 && !process.execArgv.some((flag) => flag.includes('inlining')))
    setFlagsFromString('--no-turbo-inlining');
  // One file with the library inside (src/cli/bundle-entry.ts): faster to load than the modules it holds.
  const { main } = await import('../dist/bundle/cli.js');
  process.exitCode = await main(args);
}
