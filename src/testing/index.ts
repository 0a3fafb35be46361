/**
 * `pipewright/testing`: what a unit test of a building block needs. `synth` builds documents with every check
 * compile applies and returns them with their diagnostics; the assertions print them as compile does.
 */
export {
  synth,
  findDocument,
  type SynthInput,
  type SynthOptions,
  type SynthDocument,
  type Synthesized,
  type DocumentQuery,
} from './synth.js';
export { assertNoErrors, assertNoDiagnostics, SynthAssertionError } from './assertions.js';
export { formatDiagnostics, type Diagnostic } from '../core/diagnostics.js';
export type { ResourceKey } from '../catalog/resource-key.js';
