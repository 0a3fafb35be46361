import { existsSync, readFileSync } from 'node:fs';
import { dirname, posix, resolve, sep } from 'node:path';

/**
 * Whether a repository's own tsconfig.json covers what init scaffolds (pipelines/*.ts and pipewright.config.ts),
 * read without TypeScript (init runs before ts-morph is installed). Only what decides coverage is read:
 * `compilerOptions.rootDir`, `files`, `include` and `exclude`, following `extends` to relative files; a
 * package `extends` (`@tsconfig/node20/...`) sets neither as a rule and is not followed.
 */

/** `why` names the setting that leaves them out, as a sentence about tsconfig.json. */
export type Coverage = { readonly covered: true } | { readonly covered: false; readonly why: string };

/** tsconfig.json is JSON with comments and trailing commas. */
export function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i += 1;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
      out += ' ';
    } else out += c;
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

/** The index just after the string literal starting at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

interface Settings {
  rootDir?: string;
  files?: string[];
  include?: string[];
  exclude?: string[];
}

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The settings that decide coverage, with paths made absolute from the file that sets them; own wins over extended. */
function settingsOf(file: string, seen: ReadonlySet<string> = new Set()): Settings {
  const config = record(parseJsonc(readFileSync(file, 'utf8')));
  const dir = dirname(file);
  const absolute = (paths: string[] | undefined) => paths?.map((p) => posix.resolve(toPosix(dir), p));
  const bases = (typeof config.extends === 'string' ? [config.extends] : (strings(config.extends) ?? []))
    .filter((base) => base.startsWith('.'))
    .map((base) => resolve(dir, base.endsWith('.json') ? base : `${base}.json`))
    .filter((base) => !seen.has(base) && existsSync(base));
  // Later entries of an `extends` array win, as in TypeScript.
  const inherited = bases.reduce<Settings>(
    (acc, base) => ({ ...acc, ...settingsOf(base, new Set([...seen, file])) }),
    {},
  );
  const rootDir = record(config.compilerOptions).rootDir;
  const own: Settings = {
    ...(typeof rootDir === 'string' ? { rootDir: posix.resolve(toPosix(dir), rootDir) } : {}),
    ...(strings(config.files) ? { files: absolute(strings(config.files))! } : {}),
    ...(strings(config.include) ? { include: absolute(strings(config.include))! } : {}),
    ...(strings(config.exclude) ? { exclude: absolute(strings(config.exclude))! } : {}),
  };
  return { ...inherited, ...own };
}

const toPosix = (path: string) => path.split(sep).join('/');

/**
 * A TypeScript include pattern as a regular expression over absolute posix paths: `*` and `?` within a
 * segment, `**` for any depth, and a last segment without a wildcard or an extension is a folder (all below it).
 */
export function includePattern(pattern: string): RegExp {
  const last = pattern.slice(pattern.lastIndexOf('/') + 1);
  const segments = (/[*?]/.test(last) || last.includes('.') ? pattern : `${pattern}/**/*`).split('/');
  const body = segments.map((segment, i) => {
    const final = i === segments.length - 1;
    if (segment === '**') return final ? '.*' : '(?:[^/]+/)*';
    const literal = segment
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]');
    return final ? literal : `${literal}/`;
  });
  return new RegExp(`^${body.join('')}$`);
}

const matches = (patterns: readonly string[] | undefined, file: string) =>
  (patterns ?? []).some((p) => includePattern(p).test(file));

/**
 * Does `tsconfig` (absolute) cover each of `files` (absolute)? A file is covered when it is under rootDir (when
 * one is set) and the project lists it: in `files`, or matched by `include` (all files when neither is given)
 * and not by `exclude`.
 */
export function coverage(tsconfig: string, files: readonly string[]): Coverage {
  let settings: Settings;
  try {
    settings = settingsOf(tsconfig);
  } catch (error) {
    return { covered: false, why: `pipewright could not read tsconfig.json (${(error as Error).message})` };
  }
  const dir = toPosix(dirname(tsconfig));
  const { rootDir, files: listed, exclude } = settings;
  // TypeScript's default: everything below the tsconfig, unless `files` is given (then only those).
  const include = settings.include ?? (listed ? [] : [`${dir}/**/*`]);
  for (const file of files.map(toPosix)) {
    if (rootDir !== undefined && !file.startsWith(`${rootDir.replace(/\/$/, '')}/`))
      return { covered: false, why: `tsconfig.json's "rootDir" is ${posix.relative(dir, rootDir) || '.'}` };
    const inProject = (listed?.includes(file) ?? false) || (matches(include, file) && !matches(exclude, file));
    if (!inProject)
      return {
        covered: false,
        why: `tsconfig.json's "${settings.include ? 'include' : 'files'}" leaves out ${posix.relative(dir, file)}`,
      };
  }
  return { covered: true };
}

/**
 * The definitions' own tsconfig, placed in pipelines/: the repository's settings (strictness, paths, libs) for
 * the definitions too, widened to pipelines/ and pipewright.config.ts, and with what the definitions need
 * whatever the repository builds: no output, and modules as pipewright loads them (it bundles them with esbuild:
 * `module: preserve` with bundler resolution, so a CommonJS package's settings, `verbatimModuleSyntax` included,
 * do not refuse their `import`s). `compile --typecheck` and editors use it as the nearest tsconfig.json.
 */
export const PIPELINES_TSCONFIG = `{
  // The TypeScript settings of the pipewright definitions: ../tsconfig.json's, which leaves this folder out,
  // widened to it and ../pipewright.config.ts. pipewright bundles the definitions (it does not run them with
  // Node's module system), hence "module": "preserve". \`pipewright compile --typecheck\` and editors use this file.
  "extends": "../tsconfig.json",
  "compilerOptions": {
    "rootDir": "..",
    "noEmit": true,
    "module": "preserve",
    "moduleResolution": "bundler",
    "skipLibCheck": true
  },
  "include": ["../pipewright.config.ts", "."]
}
`;
