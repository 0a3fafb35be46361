import { lstatSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep, win32 } from 'node:path';
import { DiagnosticError } from './diagnostics.js';
import { printable } from './printable.js';

/**
 * The one way a name from outside (a YAML identifier, a platform answer, a manifest entry) becomes a path to
 * write. Modelled on Go's `os.Root` and `filepath.IsLocal` and on node-tar's fix for `..` entries: the segments
 * must be local (no `..` that climbs, no absolute segment, no drive, no NUL, no `\`, which Windows reads as a
 * separator), and the path they name, once every symbolic link on the way is followed, must still be inside the
 * root. The links are checked when the path is asked for, so call it right before the write.
 */
export type Confined = { readonly path: string } | { readonly problem: string };

/** Why a relative segment is not local, or undefined when it is. */
function segmentProblem(segment: string): string | undefined {
  if (segment.includes('\0')) return 'it holds a NUL character';
  if (segment.includes('\\')) return 'it holds a backslash (a folder separator on Windows)';
  if (isAbsolute(segment) || win32.isAbsolute(segment) || /^[a-zA-Z]:/.test(segment)) return 'it is an absolute path';
  return undefined;
}

/** `path` lies in `root` (or is it): both absolute and resolved. */
const inside = (root: string, path: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/** The root with every link followed; a root not yet made is its nearest existing ancestor's, plus the rest. */
function realRoot(root: string): string {
  const rest: string[] = [];
  for (let at = root; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...rest.reverse());
    } catch {
      if (dirname(at) === at) return root;
      rest.push(relative(dirname(at), at));
    }
  }
}

/** Whether a file system entry exists at `path` itself (a dangling link does). */
function lstatOf(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * `root` joined with `segments` (each may hold `/`), resolved, and proved inside `root`: the answer is the path,
 * or the problem that refuses it. The root itself may be a link (the user chose it); a link below it must lead
 * to a place inside it, and a link that leads nowhere is refused (a write through it would create its target).
 */
export function confinedPath(root: string, ...segments: readonly string[]): Confined {
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem) return { problem: `"${printable(segment)}" cannot be a path inside ${root}: ${problem}` };
  }
  const base = resolve(root);
  const path = resolve(base, ...segments);
  if (!inside(base, path) || path === base)
    return { problem: `"${printable(segments.join('/'))}" leads outside ${root}` };
  const realBase = realRoot(base);
  // The nearest entry that exists, from the path itself up: following its links must stay inside the root.
  for (let at = path; at !== base && inside(base, at); at = dirname(at)) {
    const stat = lstatOf(at);
    if (!stat) continue;
    let real: string;
    try {
      real = realpathSync(at);
    } catch {
      return { problem: `${relative(base, at)} in ${root} is a symbolic link that leads nowhere` };
    }
    if (!inside(realBase, real))
      return { problem: `${relative(base, at)} in ${root} is a symbolic link that leads outside it (to ${real})` };
    break;
  }
  return { path };
}

/** `confinedPath`, throwing a `path-outside` diagnostic when the path is refused. */
export function confinedPathOrThrow(root: string, ...segments: readonly string[]): string {
  const confined = confinedPath(root, ...segments);
  if ('path' in confined) return confined.path;
  throw DiagnosticError.of(
    'path-outside',
    `refused to write ${confined.problem}`,
    'nothing outside the output folder is written; rename the resource, or remove the symbolic link',
  );
}
