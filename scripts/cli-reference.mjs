#!/usr/bin/env node
// Writes docs/cli.md from the built CLI (run `npm run docs:cli`, which builds first). The same renderer runs in
// test/cli-reference.test.ts against the sources, so the committed file cannot drift from the commands.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createProgram } from '../dist/cli/main.js';
import { renderCliReference } from '../dist/cli/cli-reference.js';

const target = new URL('../docs/cli.md', import.meta.url);
writeFileSync(target, await renderCliReference(createProgram(), fileURLToPath(target)));
process.stdout.write('wrote docs/cli.md\n');
