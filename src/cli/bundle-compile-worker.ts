// The compile worker of the binary's single-file build (scripts/bundle-cli.mjs makes dist/bundle/compile-worker.js
// of it): it loads as fast as the binary, and the definitions it builds import `pipewright` from the build's
// entry, whose instance (its chunks) this worker shares.
import { useOwnEntry } from '../compile/load-modules.js';

useOwnEntry(new URL('./cli.js', import.meta.url).href);
// Imported only now: the worker starts building as it loads.
await import('../compile/compile-worker.js');
