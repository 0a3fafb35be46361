/** Where a value sits in a document: keys and list indexes from the root. */
export type DocPath = ReadonlyArray<string | number>;

/** Keys whose value is a node the user names: `stage "prod"`, `step "echo"`. */
const NAMED_NODES = new Set(['project', 'connector', 'pipeline', 'stage', 'step', 'stepGroup']);

export interface DescribedPath {
  /** The innermost named node, with its parents: `pipeline "deploy" > stage "prod" > step "echo"`. */
  readonly subject: string;
  /** The rest of the path inside that node, e.g. `spec.source.type`; empty for the node itself. */
  readonly field: string;
}

/** Turns a document path into words a person recognises, using identifiers found along the way. */
export function describePath(document: unknown, path: DocPath): DescribedPath {
  const labels: string[] = [];
  let fieldStart = 0;
  let node: unknown = document;
  path.forEach((key, index) => {
    node = node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[key] : undefined;
    if (
      typeof key === 'string' &&
      NAMED_NODES.has(key) &&
      node !== null &&
      typeof node === 'object' &&
      !Array.isArray(node)
    ) {
      const id = (node as Record<string, unknown>).identifier;
      labels.push(typeof id === 'string' && id ? `${key} ${JSON.stringify(id)}` : key);
      fieldStart = index + 1;
    }
  });
  const rest = path.slice(fieldStart);
  const field = rest.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : key),
    '',
  );
  return { subject: labels.join(' > '), field };
}

/** A dotted field path (`pipeline.identifier`, as tables of fields write them) as a document path; `''` is the root. */
export const dottedPath = (dotted: string): DocPath => (dotted === '' ? [] : dotted.split('.'));

/** The value at `path`, or undefined. */
export function valueAt(document: unknown, path: DocPath): unknown {
  let node = document;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

export const pathKey = (path: DocPath): string => path.join('\u0000');
