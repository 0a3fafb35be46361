import { resolve } from 'node:path';
import { KINDS } from '../catalog/kinds.js';
import { version } from '../core/own-package.js';
import { packageNameOf, peerRange, templateText } from '../core/project-template.js';

/**
 * What makes a pulled folder a project npm, editors and git know, from init's templates: package.json (pipewright
 * pinned to the version that wrote the modules, init's scripts), tsconfig.json (init's compiler options, over the
 * folders pull writes modules into) and .gitignore. Each is written only where the project has none, and never
 * replaced: the caller leaves out those that exist.
 */
export function readyFiles(dir: string): Array<{ path: string; text: string }> {
  const tsconfig = JSON.parse(templateText('tsconfig.json', {})) as Record<string, unknown>;
  // init's project keeps its definitions in pipelines/; pull writes one folder per kind, as its config includes.
  tsconfig.include = ['pipewright.config.ts', ...KINDS.map((row) => row.folder)];
  return [
    {
      path: 'package.json',
      text: templateText('package.json', {
        packageName: packageNameOf(resolve(dir)),
        // The modules are what this version's import wrote: `npx pipewright` there runs this version.
        pipewrightRange: version(),
        tsMorphVersion: peerRange('ts-morph'),
      }),
    },
    { path: 'tsconfig.json', text: `${JSON.stringify(tsconfig, null, 2)}\n` },
    { path: '.gitignore', text: templateText('_gitignore', {}) },
  ];
}
