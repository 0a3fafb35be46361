/**
 * What an editor shows for the builders, asked of the TypeScript language service as an editor asks it:
 * hovers name the option types (never the generic factory's type parameters) and carry our docs with an
 * example; completions inside nested specs list their fields; every `@example` of the builders compiles.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Project, ts } from 'ts-morph';
import { beforeAll, describe, expect, it } from 'vitest';
import { stepEntry } from '../src/catalog/catalog.js';
import * as pipewright from '../src/index.js';
import { ROOT } from './support/cli.js';

/** The 40 step types the corpus uses most (`node scripts/corpus-step-types.mjs 40`), most used first. */
const CORPUS_TOP_STEP_TYPES = [
  'Run',
  'ShellScript',
  'K8sRollingDeploy',
  'BuildAndPushDockerRegistry',
  'HarnessApproval',
  'K8sRollingRollback',
  'Plugin',
  'K8sCanaryDelete',
  'Http',
  'Security',
  'Command',
  'GitClone',
  'IACMTerraformPlugin',
  'K8sCanaryDeploy',
  'RunTests',
  'GitOpsRollout',
  'Verify',
  'BuildAndPushECR',
  'MergePR',
  'Background',
  'GitOpsSync',
  'JiraUpdate',
  'GitOpsUpdateReleaseRepo',
  'Container',
  'JiraCreate',
  'K8sApply',
  'K8sBGSwapServices',
  'SscaOrchestration',
  'GitOpsFetchLinkedApps',
  'HelmDeploy',
  'IACMOpenTofuPlugin',
  'K8sBlueGreenDeploy',
  'Policy',
  'RestoreCacheS3',
  'SaveCacheS3',
  'TerraformApply',
  'Wait',
  'AquaTrivy',
  'EcsCanaryDelete',
  'EcsRollingDeploy',
];

/** The builders written by hand (issue 32): each has a doc comment of its own with an example. */
const HAND_WRITTEN_BUILDERS = [
  'pipeline',
  'deployment',
  'ci',
  'approval',
  'custom',
  'pipelineStage',
  'stage',
  'stageTemplate',
  'shell',
  'step',
  'stepTemplate',
  'run',
  'runTests',
  'buildAndPushDockerRegistry',
  'plugin',
  'action',
  'http',
  'wait',
  'barrier',
  'email',
  'harnessApproval',
  'jiraApproval',
  'k8sRollingDeploy',
  'k8sRollingRollback',
  'k8sCanaryDeploy',
  'k8sBlueGreenDeploy',
  'k8sApply',
  'helmDeploy',
  'stepGroup',
  'parallel',
  'input',
  'expr',
  'raw',
  'connector',
  'connectors',
  'project',
  'service',
  'environment',
  'infrastructure',
  'template',
  'inputSet',
  'overlayInputSet',
  'trigger',
];

const PROBE = join(ROOT, 'test', '__editor-probe.ts');
let project: Project;
let service: ts.LanguageService;

beforeAll(() => {
  project = new Project({ tsConfigFilePath: join(ROOT, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });
  service = project.getLanguageService().compilerObject;
});

/** The source with `|` marking the cursor, written as an in-memory file; the cursor's offset. */
function at(source: string): number {
  const cursor = source.indexOf('|');
  project.createSourceFile(PROBE, source.slice(0, cursor) + source.slice(cursor + 1), { overwrite: true });
  return cursor;
}

function hover(source: string): { text: string; docs: string; example: string } {
  const info = service.getQuickInfoAtPosition(PROBE, at(source));
  return {
    text: ts.displayPartsToString(info?.displayParts),
    docs: ts.displayPartsToString(info?.documentation),
    example: (info?.tags ?? [])
      .filter((tag) => tag.name === 'example')
      .map((tag) => ts.displayPartsToString(tag.text))
      .join('\n'),
  };
}

const completions = (source: string): string[] =>
  (service.getCompletionsAtPosition(PROBE, at(source), {})?.entries ?? []).map((entry) => entry.name);

describe('hovers', () => {
  it('name the options of a catalogue step, not the factory type parameters', () => {
    const shown = hover(
      "import { flagConfiguration } from 'pipewright';\n|flagConfiguration({ identifier: 'x' } as never);",
    );
    expect(shown.text).toContain('(options: FlagConfigurationStepOptions<never>)');
    expect(shown.text).not.toMatch(/CatalogStepOptions|CatalogStepFactory/);
  });

  it('name the options of a hand-written step builder, a catalogue stage and a connector', () => {
    expect(hover("import { harnessApproval } from 'pipewright';\n|harnessApproval;").text).toContain(
      'HarnessApprovalStepOptions<Names>',
    );
    expect(hover("import { run } from 'pipewright';\n|run;").text).toContain('RunStepOptions<Names>');
    const connector = hover("import { connectors } from 'pipewright';\nconnectors.|github;").text;
    expect(connector).toContain('(options: GithubConnectorOptions) => ConnectorBuilder');
    const stage = hover("import { iacm } from 'pipewright';\n|iacm;").text;
    expect(stage).toContain('IACMStageOptions');
    expect(stage).not.toContain('CatalogStageOptions');
  });

  it.each(CORPUS_TOP_STEP_TYPES)(
    'documents %s, one of the step types the corpus uses most, with an example',
    (type) => {
      const builder = type === 'ShellScript' ? 'shell' : stepEntry(type)!.builder;
      const shown = hover(`import { ${builder} } from 'pipewright';\n|${builder};`);
      expect(shown.docs.length).toBeGreaterThan(30);
      expect(shown.docs).not.toMatch(/options are its wire `spec` fields/);
      expect(shown.example).toContain(`${builder}(`);
    },
  );

  it.each(HAND_WRITTEN_BUILDERS)('documents the hand-written builder %s with an example', (builder) => {
    const shown = hover(`import { ${builder} } from 'pipewright';\n|${builder};`);
    expect(shown.docs.length).toBeGreaterThan(30);
    expect(shown.example).toContain(builder);
  });
});

describe('completions inside nested specs', () => {
  it("list an instance selection's spec fields, by its type", () => {
    const source = (type: string) =>
      `import { k8sCanaryDeploy } from 'pipewright';\nk8sCanaryDeploy({ identifier: 'c', instanceSelection: { type: '${type}', spec: { | } } });`;
    expect(completions(source('Count'))).toEqual(['count']);
    expect(completions(source('Percentage'))).toEqual(['percentage']);
  });

  it("list a failure strategy action's spec fields, by its type", () => {
    const source = (type: string) =>
      `import { shell } from 'pipewright';\nshell({ identifier: 's', script: 'x', failureStrategies: [{ action: { type: '${type}', spec: { | } } }] });`;
    expect(completions(source('Retry')).sort()).toEqual(['onRetryFailure', 'retryCount', 'retryIntervals']);
    expect(completions(source('ManualIntervention')).sort()).toEqual(['onTimeout', 'timeout']);
  });

  it('list the flat spec fields of a step whose spec has cases (a canary type)', () => {
    const fields = completions(
      "import { k8sCanaryDeploy } from 'pipewright';\nk8sCanaryDeploy({ identifier: 'c', | });",
    );
    expect(fields).toEqual(expect.arrayContaining(['instanceSelection', 'skipDryRun', 'canaryType', 'timeout']));
  });
});

/** Every `@example` of a JSDoc block in src/ (each a ```ts fence), with where it is; `fenced` is false for one without. */
function examples(): Array<{ where: string; code: string; fenced: boolean }> {
  const found: Array<{ where: string; code: string; fenced: boolean }> = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.endsWith('.ts')) {
        const text = readFileSync(path, 'utf8');
        for (const match of text.matchAll(/@example\b(?:\n\s*\*\s*```ts\n([\s\S]*?)\n\s*\*\s*```)?/g))
          found.push({
            where: `${relative(ROOT, path)}:${text.slice(0, match.index).split('\n').length}`,
            code: (match[1] ?? '').replace(/^\s*\* ?/gm, ''),
            fenced: match[1] !== undefined,
          });
      }
    }
  };
  walk(join(ROOT, 'src'));
  return found;
}

/** Type-checks examples against the package, each in a block of its own; the problems, each with its example's place. */
function exampleProblems(all: ReadonlyArray<{ where: string; code: string }>): string[] {
  const names = [
    ...new Set(all.flatMap(({ code }) => [...code.matchAll(/\b([a-z][A-Za-z0-9]*)\s*[(.`]/g)].map((m) => m[1]!))),
  ];
  const exported = new Set(Object.keys(pipewright));
  const imports = names.filter((name) => exported.has(name)).sort();
  // Each example in a block of its own: their names do not meet.
  const body = all.map(({ where, code }) => `// ${where}\n{\n${code}\n}`).join('\n');
  const file = project.createSourceFile(PROBE, `import { ${imports.join(', ')} } from 'pipewright';\n${body}\n`, {
    overwrite: true,
  });
  return file.getPreEmitDiagnostics().map((d) => {
    const line = d.getLineNumber() ?? 0;
    const before = file
      .getFullText()
      .split('\n')
      .slice(0, line)
      .reverse()
      .find((l) => l.startsWith('// '));
    return `${before?.slice(3)}: ${ts.flattenDiagnosticMessageText(d.getMessageText() as never, '\n').split('\n')[0]}`;
  });
}

describe('examples in the hover docs', () => {
  it('are each a ```ts block (an example in another form would escape the check)', () => {
    const all = examples();
    expect(all.length).toBeGreaterThan(70);
    expect(all.filter((e) => !e.fenced).map((e) => e.where)).toEqual([]);
  });

  it('compile against the package', () => {
    expect(exampleProblems(examples())).toEqual([]);
  });

  it('fail on an example with a wrong option (the check is real)', () => {
    expect(
      exampleProblems([{ where: 'src/x.ts:1', code: "run({ identifier: 'a', shell: 'Sh', comand: 'x' })" }]),
    ).toEqual([expect.stringMatching(/^src\/x\.ts:1: Object literal may only specify known properties/)]);
  });
});

describe('call sites and type errors', () => {
  it("a call's hover names the options type, for a hand-written step as for a generated one", () => {
    const shown = hover(
      "import { k8sCanaryDeploy } from 'pipewright';\nk8sCanar|yDeploy({ identifier: 'c', instanceSelection: { type: 'Count', spec: { count: 1 } } });",
    ).text;
    expect(shown).toContain('(options: K8sCanaryDeployStepOptions<never>)');
    expect(shown).not.toContain('CatalogStepOptions');
  });

  /** The checker's error for the probe, line by line, as an editor shows it folded open. */
  const errorLines = (source: string): string[] => {
    at(`${source}|`);
    const [diagnostic] = service.getSemanticDiagnostics(PROBE);
    return ts.flattenDiagnosticMessageText(diagnostic?.messageText, '\n').split('\n');
  };

  it('a step in a stage that cannot run it: the last line of the error is the sentence, with its article', () => {
    const lines = errorLines(
      "import { approval, run } from 'pipewright';\napproval({ identifier: 'a' }).step(run({ identifier: 'r', command: 'x' }));",
    );
    expect(lines.at(-1)!.trim()).toMatch(/^Property '"a Run step cannot run in an Approval stage; see catalog\.steps/);
    expect(lines.join('\n')).not.toContain('pipewrightTypeError');
  });

  it('a misspelt templateInputs field of a builder-spec template names the shape it should have', () => {
    const lines = errorLines(
      "import { input, shell, stepTemplate, template } from 'pipewright';\nconst t = template.step({ identifier: 'e', versionLabel: 'v1', spec: shell({ identifier: 'e', script: input() }) });\nstepTemplate({ identifier: 'u', templateRef: t, templateInputs: { timout: '5m' } });",
    );
    expect(lines.join('\n')).toContain(
      "'timout' does not exist in type 'StepTemplateInputs<\"ShellScript\">'. Did you mean to write 'timeout'?",
    );
  });
});
