import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { identityProblem } from '../src/catalog/identity-rules.js';
import { outputPathOf } from '../src/catalog/resource-key.js';
import { confinedPath, confinedPathOrThrow } from '../src/core/confined-path.js';
import { safeFileName } from '../src/core/safe-file-name.js';
import { DiagnosticError } from '../src/core/diagnostics.js';

let root: string;
let parent: string;
beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'pipewright-confined-'));
  root = join(parent, 'out');
  mkdirSync(root);
});
afterEach(() => rmSync(parent, { recursive: true, force: true }));

const problemOf = (...segments: string[]) => {
  const answer = confinedPath(root, ...segments);
  return 'problem' in answer ? answer.problem : undefined;
};

describe('confinedPath', () => {
  it('joins local segments under the root, folders not yet made included', () => {
    expect(confinedPath(root, 'pipelines/default/web', 'ci.ts')).toEqual({
      path: join(root, 'pipelines', 'default', 'web', 'ci.ts'),
    });
    expect(confinedPath(root, 'a/../b.ts')).toEqual({ path: join(root, 'b.ts') });
  });

  it('refuses a .. that climbs out of the root, however it is spelt', () => {
    expect(problemOf('../x.ts')).toMatch(/leads outside/);
    expect(problemOf('pipelines', '../../.github/workflows/evil.yaml')).toMatch(/leads outside/);
    expect(problemOf('a/b/../../../x')).toMatch(/leads outside/);
    expect(problemOf('..')).toMatch(/leads outside/);
    // The root itself is no file to write.
    expect(problemOf('.')).toMatch(/leads outside/);
  });

  it('refuses absolute segments, drives and backslashes', () => {
    expect(problemOf('/etc/passwd')).toMatch(/absolute/);
    expect(problemOf('pipelines', '/tmp/x')).toMatch(/absolute/);
    expect(problemOf('C:/Windows/x')).toMatch(/absolute/);
    expect(problemOf('..\\..\\x')).toMatch(/backslash/);
  });

  it('refuses a NUL, which would cut the path short', () => {
    expect(problemOf('ok\0../../x')).toMatch(/NUL/);
  });

  it('refuses a symbolic link inside the root that leads out of it', () => {
    mkdirSync(join(parent, 'elsewhere'));
    symlinkSync(join(parent, 'elsewhere'), join(root, 'pipelines'));
    expect(problemOf('pipelines/ci.ts')).toMatch(/symbolic link that leads outside/);
    writeFileSync(join(parent, 'victim.txt'), 'keep');
    symlinkSync(join(parent, 'victim.txt'), join(root, 'file.ts'));
    expect(problemOf('file.ts')).toMatch(/leads outside/);
  });

  it('refuses a link that leads nowhere: writing through it would create its target', () => {
    symlinkSync(join(parent, 'not-yet'), join(root, 'dangling.ts'));
    expect(problemOf('dangling.ts')).toMatch(/leads nowhere/);
  });

  it('allows a symbolic link that stays inside the root, and a root that is itself a link', () => {
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), join(root, 'alias'));
    expect(confinedPath(root, 'alias/x.ts')).toEqual({ path: join(root, 'alias', 'x.ts') });
    symlinkSync(root, join(parent, 'linked-root'));
    expect(confinedPath(join(parent, 'linked-root'), 'alias/x.ts')).toEqual({
      path: join(parent, 'linked-root', 'alias', 'x.ts'),
    });
  });

  it('confinedPathOrThrow throws a path-outside diagnostic, never a bare error', () => {
    expect(confinedPathOrThrow(root, 'a.ts')).toBe(join(root, 'a.ts'));
    try {
      confinedPathOrThrow(root, '../a.ts');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DiagnosticError);
      expect((error as DiagnosticError).diagnostics[0]!.code).toBe('path-outside');
    }
  });

  it('for any segments, the answer is inside the root or a refusal (property)', () => {
    writeFileSync(join(root, 'f'), '');
    const piece = fc.oneof(
      fc.constantFrom('..', '.', '', '/', '\\', '\0', 'C:', 'a', 'f', 'CON', '~'),
      fc.string({ maxLength: 8 }),
    );
    const segment = fc
      .array(piece, { maxLength: 6 })
      .map((parts) => parts.join(fc.sample(fc.constantFrom('/', ''), 1)[0]!));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
        const answer = confinedPath(root, ...segments);
        if ('problem' in answer) return;
        const rel = relative(root, answer.path);
        expect(rel).not.toBe('');
        expect(rel === '..' || rel.startsWith(`..${sep}`)).toBe(false);
        expect(answer.path.startsWith(`${root}${sep}`)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('safeFileName', () => {
  it('keeps a name every file system holds as it is', () => {
    expect(safeFileName('deploy_prod', '.ts')).toEqual({ name: 'deploy_prod.ts' });
    expect(safeFileName('v1.2-rc', '.yaml')).toEqual({ name: 'v1.2-rc.yaml' });
    expect(safeFileName('CONSOLE', '.ts')).toEqual({ name: 'CONSOLE.ts' });
    expect(safeFileName('comm', '.ts')).toEqual({ name: 'comm.ts' });
  });

  it('maps Windows device names, whatever the case and the extension', () => {
    for (const device of ['CON', 'con', 'Aux', 'PRN', 'nul', 'COM1', 'com9', 'LPT1', 'lpt9', 'COM¹', 'CON.tar']) {
      const mapped = safeFileName(device, '.yaml');
      expect(mapped.mapped).toMatch(/device name/);
      expect(mapped.name).toMatch(/^_.*~[0-9a-f]{8}\.yaml$/);
    }
  });

  it('maps characters Windows refuses, control characters, trailing dots and spaces, . and ..', () => {
    expect(safeFileName('a<b>c:d"e|f?g*h/i\\j', '.ts').name).toMatch(/^a_b_c_d_e_f_g_h_i_j~[0-9a-f]{8}\.ts$/);
    expect(safeFileName('tab\there').mapped).toMatch(/Windows refuses/);
    expect(safeFileName('v1.').name).toMatch(/^v1~[0-9a-f]{8}$/);
    expect(safeFileName('v1 ').mapped).toMatch(/dot or a space/);
    expect(safeFileName('..').name).toMatch(/^~[0-9a-f]{8}$/);
    expect(safeFileName('.').name).toMatch(/^~[0-9a-f]{8}$/);
    expect(safeFileName('').mapped).toMatch(/empty/);
  });

  it('keeps a name within 255 bytes of UTF-8, cutting at a character, extension included', () => {
    expect(safeFileName('a'.repeat(252), '.ts')).toEqual({ name: `${'a'.repeat(252)}.ts` });
    for (const char of ['a', 'é', '日', '😀']) {
      const long = char.repeat(300);
      const { name, mapped } = safeFileName(long, '.yaml');
      expect(mapped).toMatch(/255 bytes/);
      expect(Buffer.byteLength(name, 'utf8')).toBeLessThanOrEqual(255);
      expect(name).toMatch(/~[0-9a-f]{8}\.yaml$/);
      // Whole characters only: no replacement character from a cut sequence.
      expect(name).not.toContain('\uFFFD');
      expect([...name.replace(/~[0-9a-f]{8}\.yaml$/, '')].every((c) => c === char)).toBe(true);
    }
    // 85 three-byte characters are 255 bytes: with an extension they are over.
    expect(safeFileName('日'.repeat(85)).mapped).toBeUndefined();
    expect(safeFileName('日'.repeat(85), '.ts').mapped).toMatch(/255 bytes/);
  });

  it('is deterministic, and two names that map alike still get two files', () => {
    expect(safeFileName('CON', '.ts')).toEqual(safeFileName('CON', '.ts'));
    expect(safeFileName('a?', '.ts').name).not.toBe(safeFileName('a*', '.ts').name);
    expect(safeFileName('x'.repeat(300)).name).not.toBe(safeFileName(`${'x'.repeat(299)}y`).name);
    expect(safeFileName('CON').name).not.toBe(safeFileName('con').name);
  });

  it('gives, for any text, a name of at most 255 bytes that is a single safe segment (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.constantFrom('', '.ts', '.yaml'), (text, ext) => {
        const { name } = safeFileName(text, ext);
        expect(safeFileName(text, ext).name).toBe(name);
        expect(Buffer.byteLength(name, 'utf8')).toBeLessThanOrEqual(255);
        expect(name).not.toMatch(/[<>:"/\\|?*\u0000-\u001f]/);
        expect(name).not.toMatch(/^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i);
        expect(name.slice(0, name.length - ext.length)).not.toMatch(/[. ]$/);
        expect(['', '.', '..']).not.toContain(name);
        expect('path' in confinedPath(root, name)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('identities become paths only when the platform allows them', () => {
  it('refuses identifiers, scopes and version labels that are not the platform’s', () => {
    expect(identityProblem({ kind: 'pipeline', identifier: 'ci', org: 'default', project: 'web' })).toBeUndefined();
    expect(identityProblem({ kind: 'pipeline', identifier: '../../x' })).toMatch(/identifier "..\/..\/x"/);
    expect(identityProblem({ kind: 'pipeline', identifier: 'a'.repeat(129) })).toMatch(/not an identifier/);
    expect(identityProblem({ kind: 'pipeline', identifier: 'ci', org: '..' })).toMatch(/^org/);
    expect(identityProblem({ kind: 'pipeline', identifier: 'ci', org: 'o', project: 'a/b' })).toMatch(/^project/);
    expect(identityProblem({ kind: 'inputSet', identifier: 'n', parent: '../p' })).toMatch(/^parent/);
    expect(identityProblem({ kind: 'template', identifier: 't', version: '../v' })).toMatch(/versionLabel/);
    expect(identityProblem({ kind: 'template', identifier: 't', version: 'v1.2' })).toBeUndefined();
    expect(identityProblem({ kind: 'pipeline', identifier: 'a\u2028b' })).toMatch(/\\u2028/);
    // A connector's identifier may hold $ (the connector schema's pattern); a pipeline's may not.
    expect(identityProblem({ kind: 'connector', identifier: 'git$hub' })).toBeUndefined();
    expect(identityProblem({ kind: 'pipeline', identifier: 'git$hub' })).toMatch(/not an identifier/);
  });

  it('maps a device name in an output path, and the same key always gives the same path', () => {
    expect(outputPathOf({ kind: 'pipeline', identifier: 'ci', org: 'default', project: 'web' })).toBe(
      'pipelines/default/web/ci.yaml',
    );
    const con = outputPathOf({ kind: 'pipeline', identifier: 'CON', org: 'aux', project: 'web' });
    expect(con).toMatch(/^pipelines\/_aux~[0-9a-f]{8}\/web\/_CON~[0-9a-f]{8}\.yaml$/);
    expect(outputPathOf({ kind: 'pipeline', identifier: 'CON', org: 'aux', project: 'web' })).toBe(con);
    expect(outputPathOf({ kind: 'template', identifier: 't', version: 'v1.' })).toMatch(/\/t\/v1~[0-9a-f]{8}\.yaml$/);
  });
});
