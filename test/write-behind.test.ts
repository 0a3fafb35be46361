import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EntryDocument } from '../src/compile/entry-result.js';
import { WriteBehind } from '../src/compile/spool.js';
import { readTree, runCli, tempDir, writeIn } from './support/cli.js';

// A compile of many entries in one thread writes their texts from a thread of its own while it builds
// (WriteBehind in src/compile/spool.ts), and renames them into place at the end.

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir('pipewright-behind-')));
afterEach(async () => cleanup());

const document = (file: string, text: string) => ({ output: { file }, text }) as unknown as EntryDocument;

describe('the write-behind thread', () => {
  const hash = (text: string) => createHash('sha256').update(text).digest('hex');

  it('writes each text sent to a spool file of its own, hashes it, and names the files once they are written', async () => {
    const writer = new WriteBehind(join(dir, 'spool'));
    const sent = [document('a.yaml', 'a: 1\n'), document('b.yaml', 'b: "é 🚀"\n'), document('c.yaml', '')];
    for (const d of sent) writer.send(d);
    const written = await writer.flush();
    // A document without text (an entry with errors) is not written.
    expect(written.size).toBe(2);
    expect(written.has(sent[2]!)).toBe(false);
    for (const d of sent.slice(0, 2)) {
      const { spooled, sha256 } = written.get(d)!;
      expect(readFileSync(spooled!, 'utf8')).toBe(d.text);
      // The hash of the bytes written, as the manifest records it for files written here.
      expect(sha256).toBe(hash(d.text));
    }
  });

  it('names no file when a write failed, so that the output is written from the texts, and hashes them here', async () => {
    // The spool folder cannot be made: a file is in the way.
    writeFileSync(join(dir, 'blocked'), '');
    const writer = new WriteBehind(join(dir, 'blocked', 'spool'));
    const sent = document('a.yaml', 'a: 1\n');
    writer.send(sent);
    expect((await writer.flush()).get(sent)).toEqual({ sha256: hash('a: 1\n') });
  });

  it('stops when closed before a flush (a compile that failed), and starts no thread when nothing is sent', async () => {
    const writer = new WriteBehind(join(dir, 'spool'));
    expect((await writer.flush()).size).toBe(0);
    writer.send(document('a.yaml', 'a: 1\n'));
    await writer.close();
    await writer.close();
  });
});

const pipelineFile = (id: string, body = `shell({ identifier: 'run', script: 'echo ${id}', timeout: '5m' })`) =>
  `import { pipeline, shell, stage } from 'pipewright';
export const ${id} = pipeline({ identifier: '${id}', name: '${id}', project: 'web', org: 'default' })
  .stage(stage({ identifier: 's', type: 'Custom', spec: {} }).step(${body}));
`;
const IDS = Array.from({ length: 70 }, (_, index) => `p${String(index).padStart(2, '0')}`);
const compile = (out: string, batchSize: number) =>
  runCli(['compile', 'defs/*.ts', '-o', out], {
    cwd: dir,
    env: { PIPEWRIGHT_NO_CACHE: '1', PIPEWRIGHT_BATCH_SIZE: String(batchSize) },
  });
const leftovers = () => readdirSync(dir).filter((name) => name.includes('pipewright-'));

describe('a compile of 70 entries in one thread', () => {
  it('writes what the worker threads write, each file as its manifest entry says, and leaves no spool behind', async () => {
    for (const id of IDS) await writeIn(dir, `defs/${id}.ts`, pipelineFile(id));
    const one = await compile('out-one', 0);
    expect(one.stderr).toBe('');
    expect(one.code).toBe(0);
    const many = await compile('out-many', 35);
    expect(many.code).toBe(0);
    const tree = await readTree(join(dir, 'out-one'));
    expect(tree).toEqual(await readTree(join(dir, 'out-many')));
    const manifest = JSON.parse(tree['manifest.json']!) as { files: Array<{ file: string; sha256: string }> };
    expect(manifest.files).toHaveLength(70);
    for (const entry of manifest.files)
      expect(createHash('sha256').update(tree[entry.file]!).digest('hex')).toBe(entry.sha256);
    expect(tree[manifest.files[69]!.file]).toContain('echo p69');
    expect(leftovers()).toEqual([]);
  }, 60_000);

  /** 69 good entries and a last one that fails: exit 1, nothing written, no spool or thread left behind. */
  async function failsOnLast(last: string, says: string) {
    for (const id of IDS) await writeIn(dir, `defs/${id}.ts`, id === 'p69' ? last : pipelineFile(id));
    const failed = await compile('out', 0);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(says);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect(leftovers()).toEqual([]);
  }

  it(
    'fails on an entry with an error, writes nothing, and leaves no spool or thread behind',
    () => failsOnLast(pipelineFile('p69', `shell({ identifier: 'run', script: 'echo', timeout: 'soon' })`), 'timeout'),
    60_000,
  );

  // The last chunk fails to bundle: the first ones were built and sent, and the compile throws before its flush.
  // A thread left running would keep the process alive (the test would time out).
  it(
    'stops the thread when a file that cannot be loaded ends the compile after others were sent',
    () => failsOnLast('export const p69 = ;\n', 'defs/p69.ts:1'),
    30_000,
  );
});
