import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { generateModule } from '../src/import/generate-module.js';
import { importYaml } from '../src/import/import-yaml.js';
import { tempDir } from './support/cli.js';

/**
 * Facts the platform holds beyond a document's YAML (pull: which template version is the stable one) reach the
 * generated code as the builders' options, so a project made by pull says which version is stable. Import from
 * files has no such fact and writes none.
 */

const stageTemplate = (versionLabel: string, script: string) => ({
  template: {
    identifier: 'checks',
    name: 'checks',
    orgIdentifier: 'default',
    projectIdentifier: 'shop',
    versionLabel,
    type: 'Stage',
    spec: {
      type: 'Custom',
      spec: { execution: { steps: [{ step: { type: 'ShellScript', name: 'run', identifier: 'run', spec: { shell: 'Bash', onDelegate: true, source: { type: 'Inline', spec: { script } } }, timeout: '10m' } }] } },
    },
  },
});

describe('generateModule with publish flags', () => {
  it('writes stable: true in the template builder of the stable version', () => {
    const { text } = generateModule({ kind: 'template', document: stageTemplate('v2', 'make test'), source: 'x.yaml', publishFlags: { stable: true } });
    expect(text).toContain('template.stage({');
    expect(text).toMatch(/versionLabel: 'v2',\s*stable: true,/);
  });

  it('writes no stable option without the flag', () => {
    const { text } = generateModule({ kind: 'template', document: stageTemplate('v1', 'make test'), source: 'x.yaml' });
    expect(text).toContain('template.stage({');
    expect(text).not.toContain('stable');
  });

  it('ignores the flag for kinds that have no stable version', () => {
    const pipeline = { pipeline: { identifier: 'p', name: 'p', orgIdentifier: 'default', projectIdentifier: 'shop', stages: [] } };
    expect(generateModule({ kind: 'pipeline', document: pipeline, source: 'x.yaml', publishFlags: { stable: true } }).text).not.toContain('stable');
  });
});

describe('importYaml with publish flags on its inputs', () => {
  it('gives only the flagged input\'s module stable: true, and both type-check', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const result = await importYaml({
        inputs: [
          { file: 'checks-v1.yaml', text: stringify(stageTemplate('v1', 'make test')) },
          { file: 'checks-v2.yaml', text: stringify(stageTemplate('v2', 'make test lint')), publishFlags: { stable: true } },
        ],
        outDir: dir,
        mode: 'files',
      });
      expect(result.modules.map((module) => module.status)).toEqual(['typed', 'typed']);
      const [first, second] = await Promise.all(result.modules.map((module) => readFile(join(dir, module.path), 'utf8')));
      expect(first).not.toContain('stable');
      expect(second).toMatch(/versionLabel: 'v2',\n\s*stable: true,\n/);
    } finally {
      await cleanup();
    }
  }, 60_000);
});
