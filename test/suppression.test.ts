import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { custom, pipeline, raw, shell } from 'pipewright';
import { validateDocument } from '../src/check/check-document.js';
import { buildAndValidate } from '../src/compile/build-documents.js';
import { hasErrors, type Diagnostic } from '../src/core/diagnostics.js';
import { DOCUMENT_CODES } from '../src/core/diagnostic-codes.js';
import { disableComments } from '../src/yaml/disable-comments.js';
import { finishResults, validateSource } from '../src/validate/validate-files.js';
import { applyDisableComments } from '../src/validate/comment-suppressions.js';
import { runCli, tempDir, writeIn } from './support/cli.js';

/** A step element with a misspelt required key (`shel`): an unknown-key error the platform would also refuse. */
const misspelt = {
  step: {
    identifier: 'x',
    name: 'x',
    type: 'ShellScript',
    spec: { shel: 'Bash', onDelegate: true, source: { type: 'Inline', spec: { script: 'echo' } } },
  },
};

const built = (...resources: Parameters<typeof buildAndValidate>[0][number]['resource'][]) =>
  buildAndValidate(resources.map((resource, i) => ({ resource, file: `defs/${i}.ts`, exportName: `e${i}` })))
    .diagnostics;
const summary = (diagnostics: readonly Diagnostic[]) =>
  diagnostics.map((d) => `${d.code}${d.suppressed ? ` suppressed (${d.suppressed.by}: ${d.suppressed.reason})` : ''}`);

describe('rules: every code about a document can be lowered or switched off', () => {
  const doc = {
    pipeline: {
      name: 'p',
      identifier: 'p',
      projectIdentifier: 'web',
      orgIdentifier: 'default',
      stages: [{ stage: { identifier: 's', name: 's', type: 'Custom', spec: { execution: { steps: [misspelt] } } } }],
    },
  };

  it('lowers a schema code to a warning, which no longer fails the run', () => {
    const strict = validateDocument('pipeline', doc);
    expect(strict.map((d) => `${d.severity} ${d.code}`)).toEqual(['error unknown-key']);
    const lowered = validateDocument('pipeline', doc, { 'unknown-key': 'warning' });
    expect(lowered.map((d) => `${d.severity} ${d.code}`)).toEqual(['warning unknown-key']);
    expect(hasErrors(lowered)).toBe(false);
    // Off, the near miss is not reported; the required key it missed still is (the platform refuses the step).
    expect(validateDocument('pipeline', doc, { 'unknown-key': 'off' }).map((d) => `${d.severity} ${d.code}`)).toEqual([
      'error missing-field',
    ]);
  });

  it('leaves the codes it does not name alone', () => {
    expect(
      validateDocument('pipeline', doc, { 'missing-field': 'off', 'invalid-value': 'warning' }).map(
        (d) => `${d.severity} ${d.code}`,
      ),
    ).toEqual(['error unknown-key']);
  });

  it('covers the schema codes, the builder options and the checks across documents, not the codes about the run', () => {
    for (const code of [
      'unknown-key',
      'missing-field',
      'invalid-value',
      'invalid-type',
      'unknown-option',
      'missing-option',
      'duplicate-resource',
      'yaml-duplicate-key',
      'unsubstituted-placeholder',
    ])
      expect(DOCUMENT_CODES).toContain(code);
    for (const code of ['usage', 'file-not-found', 'yaml-syntax', 'no-platform', 'invalid-suppression'])
      expect(DOCUMENT_CODES).not.toContain(code);
  });

  it('lowers a placeholder the schema refuses too (the project asked for it)', () => {
    const placeholder = {
      pipeline: {
        name: 'p',
        identifier: '${PIPELINE}',
        projectIdentifier: 'web',
        orgIdentifier: 'default',
        stages: doc.pipeline.stages.slice(0, 0),
      },
    };
    const codes = (settings?: Parameters<typeof validateDocument>[2]) =>
      validateDocument('pipeline', placeholder, settings)
        .filter((d) => d.code === 'unsubstituted-placeholder')
        .map((d) => d.severity);
    expect(codes()).toEqual(['error']);
    expect(codes({ 'unsubstituted-placeholder': 'warning' })).toEqual(['warning']);
  });
});

describe('.suppress(code, reason) on builders', () => {
  const stageWith = (step: ReturnType<typeof raw.step>) => custom({ identifier: 's' }).step(step);

  it('marks the diagnostic of a raw step as suppressed, with its reason, and the run does not fail', () => {
    const found = built(
      pipeline({ identifier: 'p', project: 'web' }).stage(
        stageWith(raw.step(misspelt).suppress('unknown-key', 'the platform takes shel (OPS-1)')),
      ),
    );
    expect(summary(found)).toEqual(['unknown-key suppressed (builder: the platform takes shel (OPS-1))']);
    expect(hasErrors(found)).toBe(false);
  });

  it('covers the subtree: a suppression on the pipeline covers its steps', () => {
    const found = built(
      pipeline({ identifier: 'p', project: 'web' })
        .stage(stageWith(raw.step(misspelt)))
        .suppress('unknown-key', 'legacy estate'),
    );
    expect(summary(found)).toEqual(['unknown-key suppressed (builder: legacy estate)']);
  });

  it('does not cover a sibling: a suppression on another step leaves the diagnostic', () => {
    const found = built(
      pipeline({ identifier: 'p', project: 'web' }).stage(
        custom({ identifier: 's' }).step(
          raw.step(misspelt),
          shell({ identifier: 'y', script: 'echo' }).suppress('unknown-key', 'not this one'),
        ),
      ),
    );
    expect(summary(found)).toEqual(['unknown-key']);
    expect(hasErrors(found)).toBe(true);
  });

  it('of another code does not hide the diagnostic', () => {
    const found = built(
      pipeline({ identifier: 'p', project: 'web' }).stage(
        stageWith(raw.step(misspelt).suppress('missing-field', 'another code')),
      ),
    );
    expect(summary(found)).toEqual(['unknown-key']);
  });

  it('covers a builder option mistake at the builder', () => {
    const wrong = shell({ identifier: 'y', script: 'echo', bogus: 1 } as never);
    expect(
      summary(built(pipeline({ identifier: 'p', project: 'web' }).stage(custom({ identifier: 's' }).step(wrong)))),
    ).toEqual(['unknown-option']);
    const found = built(
      pipeline({ identifier: 'p', project: 'web' }).stage(
        custom({ identifier: 's' }).step(wrong.suppress('unknown-option', 'kept for the migration')),
      ),
    );
    expect(summary(found)).toEqual(['unknown-option suppressed (builder: kept for the migration)']);
  });

  it('covers a check across documents (a duplicate resource) on the document that carries it', () => {
    const one = pipeline({ identifier: 'p', project: 'web' }).stage(
      custom({ identifier: 's' }).step(shell({ identifier: 'y', script: 'echo' })),
    );
    expect(summary(built(one, one))).toEqual(['duplicate-resource']);
    expect(summary(built(one, one.suppress('duplicate-resource', 'the same pipeline on purpose')))).toEqual([
      'duplicate-resource suppressed (builder: the same pipeline on purpose)',
    ]);
  });

  it('keeps the builder immutable: the suppression is on the copy only', () => {
    const plain = raw.step(misspelt);
    plain.suppress('unknown-key', 'copy');
    expect(summary(built(pipeline({ identifier: 'p', project: 'web' }).stage(stageWith(plain))))).toEqual([
      'unknown-key',
    ]);
  });

  it('requires a reason and a code about a document (JavaScript callers get no type check)', () => {
    expect(() => shell({ identifier: 'y', script: 'echo' }).suppress('unknown-key', '  ')).toThrow('give the reason');
    expect(() => shell({ identifier: 'y', script: 'echo' }).suppress('usage' as never, 'why')).toThrow(
      'not a code about a document',
    );
    expect(() => raw.step(misspelt).suppress('unknown-key', undefined as never)).toThrow('give the reason');
  });
});

describe('# pipewright-disable-next-line in hand-written YAML', () => {
  const yaml = (comment: string, script = 'echo') => `pipeline:
  name: p
  identifier: p
  projectIdentifier: web
  orgIdentifier: default
  stages:
    - stage:
        name: s
        identifier: s
        type: Custom
        spec:
          execution:
            steps:
              - step:
                  name: x
                  identifier: x
                  type: ShellScript
                  spec:
${comment ? `                    ${comment}\n` : ''}                    shel: Bash
                    onDelegate: true
                    source:
                      type: Inline
                      spec:
                        script: |
                          ${script}
`;
  const validated = (text: string) => {
    const { result } = validateSource(text, 'p.yaml', undefined, () => text);
    return applyDisableComments(result.diagnostics, text, 'p.yaml');
  };

  it('without a comment, the misspelt key is an error', () => {
    expect(summary(validated(yaml('')))).toEqual(['unknown-key']);
  });

  it('suppresses the code it names on the next line, with the reason', () => {
    const found = validated(yaml('# pipewright-disable-next-line unknown-key -- the platform reads it (OPS-2)'));
    expect(summary(found)).toEqual(['unknown-key suppressed (comment: the platform reads it (OPS-2))']);
    expect(hasErrors(found)).toBe(false);
  });

  it('takes several codes, and skips blank lines and other comments before the line', () => {
    const text = yaml(
      '# pipewright-disable-next-line missing-field, unknown-key -- legacy\n\n                  # a note',
    );
    expect(summary(validated(text))).toEqual(['unknown-key suppressed (comment: legacy)']);
  });

  it('of another code does not hide the diagnostic', () => {
    expect(summary(validated(yaml('# pipewright-disable-next-line missing-field -- not this one')))).toEqual([
      'unknown-key',
    ]);
  });

  it('without a reason suppresses nothing, and says why', () => {
    const found = validated(yaml('# pipewright-disable-next-line unknown-key'));
    expect(summary(found)).toEqual(['unknown-key', 'invalid-suppression']);
    expect(found[1]).toMatchObject({
      severity: 'warning',
      location: { line: 19 },
      message: 'pipewright-disable-next-line gives no reason, so it suppresses nothing',
    });
  });

  it('with a misspelt code, or one about the run, suppresses nothing and suggests the code', () => {
    const found = validated(yaml('# pipewright-disable-next-line unknown-kye -- typo'));
    expect(summary(found)).toEqual(['unknown-key', 'invalid-suppression']);
    expect(found[1]).toMatchObject({ message: 'unknown-kye is not a diagnostic code', suggestion: 'unknown-key' });
    expect(validated(yaml('# pipewright-disable-next-line yaml-syntax -- no'))[1]).toMatchObject({
      message: 'yaml-syntax is not about a document and cannot be suppressed',
    });
  });

  it("reports a comment without a reason even when its line has nothing to suppress (validate's fast path)", () => {
    const clean = yaml('# pipewright-disable-next-line unknown-key').replace('shel:', 'shell:');
    const checked = validateSource(clean, 'p.yaml', undefined, () => clean);
    const [result] = finishResults([checked.result], checked.records, undefined, () => clean);
    expect(summary(result!.diagnostics)).toEqual(['invalid-suppression']);
  });

  it('covers a check across files too (the same pipeline in two files)', () => {
    const texts: Record<string, string> = {
      'a.yaml': yaml('').replace('shel:', 'shell:'),
      'b.yaml': yaml('')
        .replace('shel:', 'shell:')
        .replace(
          '  identifier: p\n',
          '  # pipewright-disable-next-line duplicate-resource -- a copy kept while we migrate\n  identifier: p\n',
        ),
    };
    const checked = Object.entries(texts).map(([file, text]) =>
      validateSource(text, file, undefined, (name) => texts[name]!),
    );
    const results = finishResults(
      checked.map((c) => c.result),
      checked.flatMap((c) => c.records),
      undefined,
      (name) => texts[name]!,
    );
    expect(results.map((r) => `${r.file}: ${summary(r.diagnostics).join(', ')}`)).toEqual([
      'a.yaml: ',
      'b.yaml: duplicate-resource suppressed (comment: a copy kept while we migrate)',
    ]);
    // Without the comment, the same check reports it.
    const plain = yaml('').replace('shel:', 'shell:');
    const again = ['a.yaml', 'b.yaml'].map((file) => validateSource(plain, file, undefined, () => plain));
    expect(
      finishResults(
        again.map((c) => c.result),
        again.flatMap((c) => c.records),
        undefined,
        () => plain,
      ).flatMap((r) => summary(r.diagnostics)),
    ).toEqual(['duplicate-resource']);
  });

  it('inside a block scalar is text of the script, not a comment', () => {
    expect(
      disableComments(
        yaml('', 'echo\n                          # pipewright-disable-next-line unknown-key -- in a script'),
      ),
    ).toEqual([]);
    expect(disableComments(yaml('# pipewright-disable-next-line unknown-key -- r'))).toEqual([
      { line: 19, column: 21, covers: 20, codes: ['unknown-key'], reason: 'r' },
    ]);
  });
});

describe('the CLI: suppressed diagnostics listed by --json, never failing the run', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await tempDir()));
  afterEach(async () => cleanup());

  it('validate', async () => {
    const text = `pipeline:\n  name: p\n  identifier: p\n  projectIdentifier: web\n  orgIdentifier: default\n  stages:\n    - stage:\n        name: s\n        identifier: s\n        type: Custom\n        spec:\n          execution:\n            steps:\n              - step:\n                  name: x\n                  identifier: x\n                  type: ShellScript\n                  spec:\n                    # pipewright-disable-next-line unknown-key -- the platform reads it\n                    shel: Bash\n                    onDelegate: true\n                    source:\n                      type: Inline\n                      spec:\n                        script: echo\n`;
    await writeIn(dir, 'p.yaml', text);
    const result = await runCli(['validate', 'p.yaml', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    const envelope = JSON.parse(result.stdout);
    expect(envelope.ok).toBe(true);
    expect(envelope.diagnostics).toMatchObject([
      {
        code: 'unknown-key',
        severity: 'error',
        suppressed: { reason: 'the platform reads it', by: 'comment' },
        location: { line: 20 },
      },
    ]);
    const terminal = await runCli(['validate', 'p.yaml'], { cwd: dir });
    expect(terminal).toMatchObject({ code: 0, stderr: '' });
    expect(terminal.stdout).toBe('1 document in 1 file: valid, 1 suppressed (--json lists them with their reasons)\n');
  });

  it('compile writes the document and lists the suppression', async () => {
    await writeIn(
      dir,
      'defs/p.ts',
      `import { custom, pipeline, raw } from 'pipewright';
export const p = pipeline({ identifier: 'p', project: 'web' }).stage(
  custom({ identifier: 's' }).step(raw.step(${JSON.stringify(misspelt)}).suppress('unknown-key', 'the platform reads it')),
);
`,
    );
    const result = await runCli(['compile', 'defs/p.ts', '-o', 'out', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    const envelope = JSON.parse(result.stdout);
    expect(envelope).toMatchObject({ ok: true, documents: 1 });
    expect(envelope.diagnostics).toMatchObject([
      {
        code: 'unknown-key',
        severity: 'error',
        suppressed: { reason: 'the platform reads it', by: 'builder' },
        location: { file: 'defs/p.ts', line: 3 },
      },
    ]);
    const without = await runCli(['compile', 'defs/p.ts', '-o', 'out'], { cwd: dir });
    expect(without.code).toBe(0);
    expect(without.stderr).toContain('1 suppressed');
    expect(without.stderr).not.toContain('[error');
  });

  it('a config rule lowers a schema code in validate', async () => {
    await writeIn(
      dir,
      'p.yaml',
      `pipeline:\n  name: p\n  identifier: p\n  projectIdentifier: web\n  orgIdentifier: default\n  stages:\n    - stage:\n        name: s\n        identifier: s\n        type: Custom\n        spec:\n          execution:\n            steps:\n              - step:\n                  name: x\n                  identifier: x\n                  type: ShellScript\n                  spec:\n                    shel: Bash\n                    onDelegate: true\n                    source:\n                      type: Inline\n                      spec:\n                        script: echo\n`,
    );
    await writeIn(
      dir,
      'pipewright.config.ts',
      `import { defineConfig } from 'pipewright';\nexport default defineConfig({ rules: { 'unknown-key': 'warning' } });\n`,
    );
    const result = await runCli(['validate', 'p.yaml'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('[warning unknown-key]');
  });
});
