import { existsSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT, UserError } from './errors.js';
import { version } from './version.js';

export interface InitFlags {
  readonly name?: string;
  readonly force?: boolean;
}

/** The scaffold, shipped in the package (package.json "files" lists templates/). */
const TEMPLATE_DIR = fileURLToPath(new URL('../../templates/default/', import.meta.url));

/**
 * A leading `_` in a template path segment becomes `.`: npm drops or renames dotfiles such as .gitignore
 * when packing, so `_gitignore` and `_github/` are stored under those names and renamed on the way out.
 */
const targetPath = (templatePath: string) =>
  templatePath
    .split('/')
    .map((segment) => (segment.startsWith('_') ? `.${segment.slice(1)}` : segment))
    .join('/');

/** Placeholders are `{{name}}` for the names below only, so `${{ secrets.X }}` in workflows stays as it is. */
export function fillTemplate(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}

/** An npm package name from a folder name: lowercase, URL-safe. */
export const packageNameOf = (dir: string): string =>
  basename(dir).toLowerCase().replace(/[^a-z0-9._~-]+/g, '-').replace(/^[._-]+|-+$/g, '') || 'pipewright-project';

/** A platform identifier (`^[a-zA-Z_][0-9a-zA-Z_]{0,127}$`) from a name. */
export const identifierOf = (name: string): string => {
  const id = name.replace(/[^0-9a-zA-Z_]+/g, '_').replace(/^_+|_+$/g, '') || 'pipewright_project';
  return (/^[0-9]/.test(id) ? `_${id}` : id).slice(0, 128);
};

async function templateFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** `pipewright init [dir]`: copies the template, refusing to overwrite anything unless --force. */
export async function runInit(dir: string, flags: InitFlags): Promise<number> {
  const target = resolve(dir);
  if (existsSync(target) && !statSync(target).isDirectory())
    throw new UserError(`${dir} exists and is not a folder`, 'pass a new or existing folder: pipewright init my-pipelines');
  const packageName = flags.name ?? packageNameOf(target);
  const values = {
    packageName,
    projectName: packageName,
    projectIdentifier: identifierOf(packageName),
    pipewrightVersion: version(),
  };
  const files = (await templateFiles(TEMPLATE_DIR)).map((from) => ({ from, to: targetPath(from) }));
  const existing = files.filter(({ to }) => existsSync(join(target, to)));
  if (existing.length > 0 && !flags.force)
    throw new UserError(
      `${dir === '.' ? 'this folder' : dir} already has ${existing.map(({ to }) => to).join(', ')}; nothing was written`,
      'run init in a new or empty folder, or pass --force to overwrite these files',
    );
  for (const { from, to } of files) {
    const destination = join(target, to);
    await mkdir(dirname(destination), { recursive: true });
    await writeFile(destination, fillTemplate(await readFile(join(TEMPLATE_DIR, from), 'utf8'), values));
  }
  const shownDir = relative(process.cwd(), target) || '.';
  const lines = files.map(({ to }) => `  ${existing.some((e) => e.to === to) ? 'overwrote' : 'created  '} ${to}`);
  process.stdout.write(
    `scaffolded ${packageName} in ${shownDir}:\n${lines.join('\n')}\n\nnext:\n` +
      (shownDir === '.' ? '' : `  cd ${shownDir}\n`) +
      '  npm install\n  npx pipewright compile          # pipelines/*.ts -> out/\n  npx pipewright compile --watch\n',
  );
  return EXIT.ok;
}
