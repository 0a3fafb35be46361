/**
 * The pull workload's pieces, bundled by bench/run.mjs with esbuild (the emulator is TypeScript): the platform
 * emulator of the test suite, seeded with an estate of 1000 pipelines, each with an input set and a trigger.
 */
export { ACCOUNT_ID, ADMIN_KEY, startEmulator } from '../test/support/emulator.js';
import { inputSetDoc, pipelineDoc, projectDoc, triggerDoc, type Doc } from '../test/support/emulator-output.js';
import { seedDocuments } from '../test/support/emulator-seed.js';
import type { Emulator } from '../test/support/emulator.js';

/** `projects` projects of `perProject` pipelines, each pipeline with one input set and one trigger using it. */
export function seedEstate(emulator: Emulator, projects: number, perProject: number): number {
  const docs: Doc[] = [];
  for (let p = 0; p < projects; p++) {
    const project = `proj_${p}`;
    docs.push(projectDoc(project));
    for (let i = 0; i < perProject; i++) {
      const pipeline = `deploy_${i}`;
      docs.push(
        pipelineDoc(pipeline, project),
        inputSetDoc(`eu_${i}`, project, pipeline),
        triggerDoc(`nightly_${i}`, project, pipeline, '0 4 * * *', [`eu_${i}`]),
      );
    }
  }
  seedDocuments(emulator, docs);
  return docs.length;
}
