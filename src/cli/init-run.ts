import { EXIT } from './errors.js';
import { printEnvelope } from './json-envelope.js';
import { initProject } from '../init/init-project.js';
import { version } from '../core/own-package.js';
import { peerRange } from '../core/project-template.js';
import { stdout } from './output.js';

export interface InitFlags {
  readonly name?: string;
  readonly force?: boolean;
  readonly json?: boolean;
}

/** `pipewright init [dir]`: the scaffold (src/init/init-project.ts), printed as lines or as JSON. */
export async function runInit(dir: string, flags: InitFlags): Promise<number> {
  const result = await initProject(dir, {
    name: flags.name,
    force: flags.force,
    pipewrightVersion: version(),
    tsMorphVersion: peerRange('ts-morph'),
  });
  const { dir: shownDir, packageName, files, lines } = result;
  if (flags.json) {
    printEnvelope('init', true, [], { dir: shownDir, packageName, files });
    return EXIT.ok;
  }
  stdout(
    `${result.addedToPackage ? 'added pipewright to' : 'scaffolded'} ${packageName} in ${shownDir}:\n${lines.join('\n')}\n\nnext:\n` +
      (shownDir === '.' ? '' : `  cd ${shownDir}\n`) +
      '  npm install\n  npx pipewright compile          # pipelines/*.ts -> out/\n  npx pipewright compile --watch\n',
  );
  return EXIT.ok;
}
