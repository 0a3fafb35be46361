// The binary's single-file build: scripts/bundle-cli.mjs bundles this module, with the library and its pure
// JavaScript dependencies, into dist/bundle/cli.js, which bin/pipewright.js runs. One file loads in about half the
// time of the 300 modules it replaces. It exports the whole library too, and definitions import `pipewright` from
// it, so that they build with the instance that compiles them (the call-site switch, the environment reads).
import { useOwnEntry } from '../compile/load-modules.js';

useOwnEntry(import.meta.url);

export * from '../index.js';
export { main } from './main.js';
