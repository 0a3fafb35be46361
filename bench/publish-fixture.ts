/**
 * The publish workload's pieces, bundled by bench/run.mjs with esbuild (the emulator is TypeScript): the platform
 * emulator of the test suite, and a compiled output folder of 1000 documents of mixed kinds.
 */
export { ACCOUNT_ID, ADMIN_KEY, startEmulator } from '../test/support/emulator.js';
import {
  connectorDoc,
  environmentDoc,
  infrastructureDoc,
  pipelineDoc,
  projectDoc,
  serviceDoc,
  triggerDoc,
  writeOutputFolder,
  type Doc,
} from '../test/support/emulator-output.js';

/**
 * `projects` projects of 100 documents each: the project, 9 connectors, 20 services, 20 environments with one
 * infrastructure definition each, 20 pipelines and 10 triggers.
 */
export async function writeEstate(dir: string, projects: number): Promise<number> {
  const docs: Doc[] = [];
  for (let p = 0; p < projects; p++) {
    const project = `proj_${p}`;
    docs.push(projectDoc(project));
    for (let i = 0; i < 9; i++) docs.push(connectorDoc(`registry_${i}`, project));
    for (let i = 0; i < 20; i++) {
      docs.push(serviceDoc(`svc_${i}`, project));
      docs.push(environmentDoc(`env_${i}`, project));
      docs.push(infrastructureDoc(`k8s_${i}`, project, `env_${i}`));
      docs.push(pipelineDoc(`deploy_${i}`, project));
    }
    for (let i = 0; i < 10; i++) docs.push(triggerDoc(`nightly_${i}`, project, `deploy_${i}`));
  }
  await writeOutputFolder(dir, docs);
  return docs.length;
}
