import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { unrenderedDocument } from '../src/compile/render-output.js';
import { raw } from '../src/dsl/raw.js';
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
      spec: {
        execution: {
          steps: [
            {
              step: {
                type: 'ShellScript',
                name: 'run',
                identifier: 'run',
                spec: { shell: 'Bash', onDelegate: true, source: { type: 'Inline', spec: { script } } },
                timeout: '10m',
              },
            },
          ],
        },
      },
    },
  },
});

/** A template type no typed builder writes: import keeps it as `raw.template`. */
const customDeploymentTemplate = {
  template: {
    identifier: 'deploy',
    name: 'deploy',
    orgIdentifier: 'default',
    projectIdentifier: 'shop',
    versionLabel: 'v3',
    type: 'CustomDeployment',
    spec: {
      infrastructure: {
        variables: [],
        fetchInstancesScript: { store: { type: 'Inline', spec: { content: 'cat instances.json' } } },
        instanceAttributes: [{ name: 'hostname', jsonPath: 'ip', description: '' }],
        instancesListPath: 'instances',
      },
      execution: { stepTemplateRefs: [] },
    },
  },
};

describe('raw.template({ ... }, { stable: true })', () => {
  it('asks publish to make the version stable, as the typed builders do, through .suppress() too', () => {
    const manifestOf = (resource: ReturnType<typeof raw.template>) => {
      const { documents } = buildAndValidate([{ resource, file: 'x.ts', exportName: 'x' }]);
      return unrenderedDocument(documents[0]!).entry;
    };
    expect(raw.template(customDeploymentTemplate, { stable: true }).publishFlags).toEqual({ stable: true });
    expect(
      manifestOf(raw.template(customDeploymentTemplate, { stable: true }).suppress('missing-field', 'a test')),
    ).toMatchObject({ version: 'v3', stable: true });
    expect(manifestOf(raw.template(customDeploymentTemplate)).stable).toBeUndefined();
    expect(manifestOf(raw.template(customDeploymentTemplate, { stable: false })).stable).toBeUndefined();
  });
});

describe('generateModule with publish flags', () => {
  it('writes stable: true in the template builder of the stable version', () => {
    const { text } = generateModule({
      kind: 'template',
      document: stageTemplate('v2', 'make test'),
      source: 'x.yaml',
      publishFlags: { stable: true },
    });
    expect(text).toContain('template.stage({');
    expect(text).toMatch(/versionLabel: 'v2',\s*stable: true,/);
  });

  it('writes no stable option without the flag', () => {
    const { text } = generateModule({ kind: 'template', document: stageTemplate('v1', 'make test'), source: 'x.yaml' });
    expect(text).toContain('template.stage({');
    expect(text).not.toContain('stable');
  });

  it('writes it beside the document when the template is raw.template', () => {
    const flagged = generateModule({
      kind: 'template',
      document: structuredClone(customDeploymentTemplate),
      source: 'x.yaml',
      publishFlags: { stable: true },
    }).text;
    expect(flagged).toContain('raw.template(');
    expect(flagged).toMatch(/\},\s*\{ stable: true \}\s*\);/);
    expect(
      generateModule({ kind: 'template', document: structuredClone(customDeploymentTemplate), source: 'x.yaml' }).text,
    ).not.toContain('stable');
  });

  it('ignores the flag for kinds that have no stable version', () => {
    const pipeline = {
      pipeline: { identifier: 'p', name: 'p', orgIdentifier: 'default', projectIdentifier: 'shop', stages: [] },
    };
    expect(
      generateModule({ kind: 'pipeline', document: pipeline, source: 'x.yaml', publishFlags: { stable: true } }).text,
    ).not.toContain('stable');
  });
});

describe('importYaml with publish flags on its inputs', () => {
  it("gives only the flagged inputs' modules stable: true, and they type-check", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const result = await importYaml({
        inputs: [
          { file: 'checks-v1.yaml', text: stringify(stageTemplate('v1', 'make test')) },
          {
            file: 'checks-v2.yaml',
            text: stringify(stageTemplate('v2', 'make test lint')),
            publishFlags: { stable: true },
          },
          { file: 'deploy-v3.yaml', text: stringify(customDeploymentTemplate), publishFlags: { stable: true } },
        ],
        outDir: dir,
        mode: 'files',
      });
      expect(result.modules.map((module) => module.status)).toEqual(['typed', 'typed', 'partly-raw']);
      const [first, second, third] = await Promise.all(
        result.modules.map((module) => readFile(join(dir, module.path), 'utf8')),
      );
      expect(first).not.toContain('stable');
      expect(second).toMatch(/versionLabel: 'v2',\n\s*stable: true,\n/);
      expect(third).toContain('raw.template(');
      expect(third).toContain('{ stable: true },');
    } finally {
      await cleanup();
    }
  }, 60_000);
});
