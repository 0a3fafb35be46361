import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_YAML_FILE_BYTES } from '../src/yaml/read-yaml-file.js';
import { BIN, runCli, tempDir } from './support/cli.js';

/**
 * Every reader of a user's YAML file (validate, import, render's inputs) reads only regular files, checks the size
 * before reading and refuses text that is not UTF-8 (issue 38). Run on the built binary, as a user does.
 */

const pipeline = (identifier: string, duration: string) => `pipeline:
  name: ${identifier}
  identifier: ${identifier}
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
                  type: Wait
                  name: w
                  identifier: w
                  spec:
                    duration: ${duration}
`;

const unix = process.platform !== 'win32';
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  await writeFile(join(dir, 'good.yaml'), pipeline('good', '1m'));
  await writeFile(join(dir, 'bad.yaml'), pipeline('bad', '10x'));
  await writeFile(join(dir, 'latin1.yaml'), Buffer.from(pipeline('caf\u00e9', '1m'), 'latin1'));
  await writeFile(
    join(dir, 'utf16.yaml'),
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(pipeline('u16', '1m'), 'utf16le')]),
  );
  // Sparse: as large as it says without taking the disk.
  await writeFile(join(dir, 'huge.yaml'), '');
  await truncate(join(dir, 'huge.yaml'), MAX_YAML_FILE_BYTES + 1);
  await mkdir(join(dir, 'folder.yaml'));
  await writeFile(join(dir, 'other.yaml'), pipeline('other', '1m'));
  await symlink(join(dir, 'other.yaml'), join(dir, 'link.yaml'));
  if (unix) {
    await symlink('/dev/zero', join(dir, 'zero.yaml'));
    execFileSync('mkfifo', [join(dir, 'fifo.yaml')]);
  }
});
afterAll(() => cleanup());

interface Envelope {
  readonly files: Array<{ file: string; documents: number }>;
  readonly diagnostics: Array<{ code: string; message: string; location?: { file: string } }>;
}

const validate = async (files: readonly string[]) => {
  const result = await runCli(['validate', '--json', ...files], { cwd: dir });
  return { ...result, envelope: JSON.parse(result.stdout) as Envelope };
};

const codeFor = (envelope: Envelope, file: string) =>
  envelope.diagnostics.filter((d) => d.location?.file === file).map((d) => d.code);

describe('validate reads only regular, bounded, UTF-8 files', () => {
  it.runIf(unix)('refuses a symlink to /dev/zero and a named pipe, ends, and validates the other files', async () => {
    const { code, envelope } = await validate(['zero.yaml', 'fifo.yaml', 'good.yaml', 'bad.yaml']);
    expect(code).toBe(1);
    expect(codeFor(envelope, 'zero.yaml')).toEqual(['not-a-file']);
    expect(envelope.diagnostics.find((d) => d.location?.file === 'zero.yaml')?.message).toBe(
      'zero.yaml is a device, not a file',
    );
    expect(codeFor(envelope, 'fifo.yaml')).toEqual(['not-a-file']);
    expect(envelope.diagnostics.find((d) => d.location?.file === 'fifo.yaml')?.message).toBe(
      'fifo.yaml is a named pipe, not a file',
    );
    // The other files are still read and checked: the valid one has its document, the other its error.
    expect(envelope.files).toContainEqual({ file: 'good.yaml', documents: 1 });
    expect(codeFor(envelope, 'good.yaml')).toEqual([]);
    expect(codeFor(envelope, 'bad.yaml')).toEqual(['invalid-format']);
  });

  it('refuses a folder given as a file, with a glob as the way to its files', async () => {
    const { code, envelope, stderr } = await validate(['folder.yaml', 'good.yaml']);
    expect(code).toBe(1);
    expect(stderr).not.toMatch(/unexpected|at .*\.js:\d+/);
    expect(envelope.diagnostics).toEqual([
      expect.objectContaining({
        code: 'not-a-file',
        message: 'folder.yaml is a folder, not a file',
        hint: 'pass YAML files or a glob, e.g. "folder.yaml/**/*.yaml"',
      }),
    ]);
    expect(envelope.files).toContainEqual({ file: 'good.yaml', documents: 1 });
  });

  it('refuses a file over the size limit before reading it', async () => {
    const { code, envelope } = await validate(['huge.yaml', 'good.yaml']);
    expect(code).toBe(1);
    expect(codeFor(envelope, 'huge.yaml')).toEqual(['file-too-large']);
    expect(envelope.files).toContainEqual({ file: 'good.yaml', documents: 1 });
  });

  it('refuses Latin-1 and UTF-16 (with its byte order mark) as import does', async () => {
    const { code, envelope } = await validate(['latin1.yaml', 'utf16.yaml', 'good.yaml']);
    expect(code).toBe(1);
    expect(codeFor(envelope, 'latin1.yaml')).toEqual(['not-utf8']);
    expect(codeFor(envelope, 'utf16.yaml')).toEqual(['not-utf8']);
    expect(envelope.files).toContainEqual({ file: 'good.yaml', documents: 1 });
  });

  it('follows a symlink to a regular file and validates it (the negative of the refusals)', async () => {
    const { code, envelope } = await validate(['link.yaml', 'good.yaml']);
    expect(code).toBe(0);
    expect(envelope.diagnostics).toEqual([]);
    expect(envelope.files).toEqual([
      { file: 'link.yaml', documents: 1 },
      { file: 'good.yaml', documents: 1 },
    ]);
  });

  it('prints the refusal without a code frame in text mode', async () => {
    const result = await runCli(['validate', 'latin1.yaml', 'good.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('latin1.yaml:1:1');
    expect(result.stderr).toContain('latin1.yaml is not valid UTF-8 text');
    expect(result.stderr).toContain('1 document in 2 files: 1 error');
  });
});

describe('import and render read YAML files as validate does', () => {
  it.runIf(unix)('import refuses a named pipe and a device and ends', async () => {
    for (const file of ['fifo.yaml', 'zero.yaml']) {
      const result = await runCli(['import', file, '-o', 'out'], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${file} is a`);
      expect(result.stderr).toContain('not-a-file');
    }
  });

  it('import refuses a file over the size limit', async () => {
    const result = await runCli(['import', 'huge.yaml', '-o', 'out'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('file-too-large');
  });

  it.runIf(unix)('render refuses a named pipe as --input-set and ends', async () => {
    const result = await runCli(['render', 'good.yaml', '--input-set', 'fifo.yaml'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('fifo.yaml is a named pipe, not a file');
  });

  it('import refuses standard input that is not UTF-8, and reads UTF-8 standard input', () => {
    const importStdin = (bytes: Buffer) =>
      spawnSync(process.execPath, [BIN, 'import', '-', '-o', 'from-stdin'], {
        cwd: dir,
        input: bytes,
        env: { ...process.env, NO_COLOR: '1' },
        encoding: 'utf8',
      });
    const latin1 = importStdin(Buffer.from(pipeline('caf\u00e9', '1m'), 'latin1'));
    expect(latin1.status).toBe(1);
    expect(latin1.stderr).toContain('standard input is not valid UTF-8 text');
    const utf8 = importStdin(Buffer.from(pipeline('cafe', '1m'), 'utf8'));
    expect(utf8.stderr).not.toContain('not-utf8');
    expect(utf8.status).toBe(0);
  });
});
