import { describe, expect, it } from 'vitest';
import { publishDocument } from '../src/platform/document.js';
import { lastPublishedLookup } from '../src/publish/published-record.js';

/** What an earlier publish recorded (out.published.json) is what `--fail-on-drift` compares the platform with. */
describe('the record of the last publish', () => {
  const yaml = (id: string, name: string) =>
    `pipeline:\n  name: ${name}\n  identifier: ${id}\n  orgIdentifier: default\n  projectIdentifier: web\n  stages: []\n`;
  const entry = (id: string, name: string) => ({
    sha256: 'x',
    document: publishDocument(yaml(id, name)).value as Record<string, unknown>,
  });
  const record = new Map([
    ['pipelines/default/web/ci.yaml', entry('ci', 'recorded lower')],
    ['pipelines/default/web/CI.yaml', entry('CI', 'recorded upper')],
  ]);

  it('finds an output by its file, and one that moved since by its resource', () => {
    const lookup = lastPublishedLookup(record);
    const item = (file: string, id: string) => ({ file, document: publishDocument(yaml(id, 'now')) });
    expect(lookup(item('pipelines/default/web/CI.yaml', 'CI'))).toMatchObject({ pipeline: { name: 'recorded upper' } });
    // compile moved `ci` to ci-2.yaml when CI.yaml came to sort first: its drift check still has the record.
    expect(lookup(item('pipelines/default/web/ci-2.yaml', 'ci'))).toMatchObject({
      pipeline: { name: 'recorded lower' },
    });
    expect(lookup(item('pipelines/default/web/new.yaml', 'new'))).toBeUndefined();
  });
});
