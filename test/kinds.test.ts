import { describe, expect, it } from 'vitest';
import { kindOfDocument, KINDS, outputPathOf, publishRank, RESOURCE_KINDS } from '../src/catalog/kinds.js';

describe('the table of kinds', () => {
  it('declares each kind, root key and folder once', () => {
    for (const field of ['kind', 'rootKey', 'folder'] as const) {
      const values = KINDS.map((row) => row[field]);
      expect(new Set(values).size, field).toBe(values.length);
    }
  });

  it('knows a document by its root key, and nothing else', () => {
    expect(kindOfDocument({ pipeline: {} })).toBe('pipeline');
    expect(kindOfDocument({ connector: {}, extra: 1 })).toBe('connector');
    expect(kindOfDocument({ pipline: {} })).toBeUndefined();
    expect(kindOfDocument(['pipeline'])).toBeUndefined();
    expect(kindOfDocument(null)).toBeUndefined();
  });

  it('publishes in table order: projects before connectors before pipelines', () => {
    expect(RESOURCE_KINDS.slice(0, 3)).toEqual(['project', 'connector', 'pipeline']);
    expect(publishRank('project')).toBeLessThan(publishRank('connector'));
    expect(publishRank('connector')).toBeLessThan(publishRank('pipeline'));
  });

  it('lays out output paths by scope', () => {
    expect(outputPathOf({ kind: 'project', org: 'default', identifier: 'p' })).toBe('projects/default/p.yaml');
    expect(outputPathOf({ kind: 'connector', identifier: 'gh' })).toBe('connectors/_/_/gh.yaml');
    expect(outputPathOf({ kind: 'connector', org: 'o', identifier: 'gh' })).toBe('connectors/o/_/gh.yaml');
    expect(outputPathOf({ kind: 'pipeline', org: 'o', project: 'p', identifier: 'build' })).toBe('pipelines/o/p/build.yaml');
  });
});
