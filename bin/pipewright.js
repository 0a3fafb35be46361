#!/usr/bin/env node
// Entry of the `pipewright` binary. `--version` answers before anything else is loaded, so it costs
// about as much as starting Node.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  // One file with the library inside (src/cli/bundle-entry.ts): faster to load than the modules it holds.
  const { main } = await import('../dist/bundle/cli.js');
  process.exitCode = await main(args);
}
