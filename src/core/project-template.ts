import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownPackage } from './own-package.js';
import { trimEnd, trimStart } from './trim-ends.js';

/**
 * The project scaffold shipped in the package (package.json "files" lists templates/): `init` copies it, and
 * `pull` writes its package.json, tsconfig.json and .gitignore into a pulled project that has none. One copy of
 * each file's text, read from here by both.
 */
export const TEMPLATE_DIR = fileURLToPath(new URL('../../templates/default/', import.meta.url));

/**
 * A leading `_` in a template path segment becomes `.`: npm drops or renames dotfiles such as .gitignore
 * when packing, so `_gitignore` and `_github/` are stored under those names and renamed on the way out.
 */
export const templateTarget = (templatePath: string): string =>
  templatePath
    .split('/')
    .map((segment) => (segment.startsWith('_') ? `.${segment.slice(1)}` : segment))
    .join('/');

/** The template's files, relative to it, `/`-separated and sorted (their stored names, `_gitignore`). */
export const templateFiles = (): string[] =>
  readdirSync(TEMPLATE_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(TEMPLATE_DIR, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();

/** Placeholders are `{{name}}` for the names given only, so `${{ secrets.X }}` in workflows stays as it is. */
export function fillTemplate(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}

/** The text of one template file by its stored name (`package.json`, `_gitignore`), placeholders filled. */
export const templateText = (name: string, values: Readonly<Record<string, string>>): string =>
  fillTemplate(readFileSync(join(TEMPLATE_DIR, name), 'utf8'), values);

/** An npm package name from a folder name: lowercase, URL-safe. */
export const packageNameOf = (dir: string): string =>
  trimStart(
    trimEnd(
      basename(dir)
        .toLowerCase()
        .replace(/[^a-z0-9._~-]+/g, '-'),
      '-',
    ),
    '._-',
  ) || 'pipewright-project';

/** The version range of an optional peer dependency, as pipewright's package.json gives it. */
export function peerRange(name: string): string {
  const range = ownPackage().peerDependencies?.[name];
  if (!range) throw new Error(`pipewright's package.json has no peer dependency ${name}`);
  return range;
}
