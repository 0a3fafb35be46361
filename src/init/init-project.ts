import { existsSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { confinedPathOrThrow } from '../core/confined-path.js';
import { DiagnosticError } from '../core/diagnostics.js';
import { fillTemplate, packageNameOf, TEMPLATE_DIR, templateFiles, templateTarget } from '../core/project-template.js';
import { coverage, PIPELINES_TSCONFIG } from './init-tsconfig.js';
import { trimEnd, trimStart } from '../core/trim-ends.js';

export interface InitOptions {
  readonly name?: string | undefined;
  readonly force?: boolean | undefined;
  /** The versions the scaffold's package.json asks for: pipewright's own, and its ts-morph peer range. */
  readonly pipewrightVersion: string;
  readonly tsMorphVersion: string;
}

/** A template file and what init did with it. */
interface InitFile {
  readonly file: string;
  readonly action: 'created' | 'overwrote' | 'kept' | 'added-to' | 'skipped';
}

export interface InitResult {
  /** The folder, relative to the working directory (`.` for it). */
  readonly dir: string;
  readonly packageName: string;
  /** Whether there was a package.json already (init added to it). */
  readonly addedToPackage: boolean;
  readonly files: readonly InitFile[];
  /** One line per file, as the terminal shows them. */
  readonly lines: readonly string[];
}

/** A platform identifier (`^[a-zA-Z_][0-9a-zA-Z_]{0,127}$`) from a name. */
const identifierOf = (name: string): string => {
  const id = trimStart(trimEnd(name.replace(/[^0-9a-zA-Z_]+/g, '_'), '_'), '_') || 'pipewright_project';
  return (/^[0-9]/.test(id) ? `_${id}` : id).slice(0, 128);
};

interface PackageJson {
  [field: string]: unknown;
}

/** The sections init adds to; a dependency counts as present in any of the dependency sections. */
const DEPENDENCY_SECTIONS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;

/** The indentation of a JSON text's first nested line, so a merged package.json keeps the user's style. */
const indentOf = (text: string): string => /^[{[][^\S\n]*\n([ \t]+)/.exec(text)?.[1] ?? '  ';

const section = (pkg: PackageJson, name: string): Record<string, string> =>
  pkg[name] !== null && typeof pkg[name] === 'object' && !Array.isArray(pkg[name])
    ? (pkg[name] as Record<string, string>)
    : {};

/**
 * Adds the template's dependencies and scripts to the user's package.json, never changing or removing what is
 * there: a dependency the user already has (in any section) keeps their version, a script of the same name
 * keeps their command. Returns the new text and one line per addition or kept difference.
 */
function mergePackageJson(userText: string, template: PackageJson): { text: string; added: string[]; kept: string[] } {
  const pkg = JSON.parse(userText) as PackageJson;
  const added: string[] = [];
  const kept: string[] = [];
  for (const name of ['dependencies', 'devDependencies'] as const)
    for (const [dependency, range] of Object.entries(section(template, name))) {
      const holder = DEPENDENCY_SECTIONS.find((s) => section(pkg, s)[dependency] !== undefined);
      if (holder) {
        if (section(pkg, holder)[dependency] !== range)
          kept.push(`${holder}.${dependency} ${section(pkg, holder)[dependency]} (init would add ${range})`);
        continue;
      }
      pkg[name] = Object.fromEntries(
        Object.entries({ ...section(pkg, name), [dependency]: range }).sort(([a], [b]) => (a < b ? -1 : 1)),
      );
      added.push(`${name}.${dependency} ${range}`);
    }
  for (const [script, command] of Object.entries(section(template, 'scripts'))) {
    const theirs = section(pkg, 'scripts')[script];
    if (theirs === undefined) {
      pkg.scripts = { ...section(pkg, 'scripts'), [script]: command };
      added.push(`scripts.${script}`);
    } else if (theirs !== command)
      kept.push(`scripts.${script} ${JSON.stringify(theirs)} (init would add ${JSON.stringify(command)})`);
  }
  const text = added.length === 0 ? userText : `${JSON.stringify(pkg, null, indentOf(userText))}\n`;
  return { text, added, kept };
}

/** The user's package.json, parsed up front so a broken one stops init before anything is written. */
async function readUserPackage(file: string, shown: string): Promise<string | undefined> {
  if (!existsSync(file)) return undefined;
  const text = await readFile(file, 'utf8');
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('it is not a JSON object');
  } catch (error) {
    throw DiagnosticError.of(
      'invalid-package-json',
      `${shown} is not a valid package.json (${(error as Error).message}); nothing was written`,
      'fix it (npm reads it too), or run init in another folder',
    );
  }
  return text;
}

/**
 * `pipewright init [dir]`: copies the template into a new or existing folder. Files that exist are kept
 * (replaced with `force`); an existing package.json is never replaced, only added to (mergePackageJson).
 */
export async function initProject(dir: string, options: InitOptions): Promise<InitResult> {
  const target = resolve(dir);
  if (existsSync(target) && !statSync(target).isDirectory())
    throw DiagnosticError.of(
      'not-a-folder',
      `${dir} exists and is not a folder`,
      'pass a new or existing folder: pipewright init my-pipelines',
    );
  const shownDir = relative(process.cwd(), target) || '.';
  const userPackage = await readUserPackage(join(target, 'package.json'), join(shownDir, 'package.json'));
  const existingName = userPackage === undefined ? undefined : (JSON.parse(userPackage) as PackageJson).name;
  const packageName =
    options.name ?? (typeof existingName === 'string' ? existingName.replace(/^@[^/]+\//, '') : packageNameOf(target));
  const values = {
    packageName,
    projectName: packageName,
    projectIdentifier: identifierOf(packageName),
    // init's project follows pipewright's minor releases; a pulled project pins the version that wrote it.
    pipewrightRange: `^${options.pipewrightVersion}`,
    tsMorphVersion: options.tsMorphVersion,
  };
  const lines: string[] = [];
  // The same, as data for --json: each template file and what init did with it.
  const files: InitFile[] = [];
  const templates = templateFiles();
  // Decided before anything is written: a README of the template's is for a new project, not a repository's.
  const hasFiles = existsSync(target) && (await readdir(target)).some((name) => name !== '.git');
  const ownTsconfig = !options.force && existsSync(join(target, 'tsconfig.json'));
  const scaffolded = templates
    .map(templateTarget)
    .filter((to) => to === 'pipewright.config.ts' || (to.startsWith('pipelines/') && to.endsWith('.ts')));
  const fit = ownTsconfig
    ? coverage(
        join(target, 'tsconfig.json'),
        scaffolded.map((to) => join(target, to)),
      )
    : { covered: true as const };
  for (const from of templates) {
    const to = templateTarget(from);
    const destination = confinedPathOrThrow(target, to);
    if (to === 'README.md' && hasFiles) {
      // Not even with --force: the README of a repository is its own.
      const exists = existsSync(destination);
      lines.push(
        exists
          ? '  kept      README.md (yours: init writes one only into an empty folder)'
          : '  skipped   README.md (init writes one only into an empty folder)',
      );
      files.push({ file: to, action: exists ? 'kept' : 'skipped' });
      continue;
    }
    const text = fillTemplate(await readFile(join(TEMPLATE_DIR, from), 'utf8'), values);
    if (to === 'package.json' && userPackage !== undefined) {
      const merged = mergePackageJson(userPackage, JSON.parse(text) as PackageJson);
      if (merged.added.length > 0) await writeFile(destination, merged.text);
      files.push({ file: to, action: merged.added.length > 0 ? 'added-to' : 'kept' });
      lines.push(
        merged.added.length > 0
          ? `  added to package.json: ${merged.added.join(', ')}`
          : '  kept      package.json (it has what pipewright needs)',
        ...merged.kept.map((k) => `  kept your ${k}`),
      );
      continue;
    }
    const exists = existsSync(destination);
    if (exists && !options.force) {
      lines.push(`  kept      ${to} (it exists; --force replaces it)`);
      files.push({ file: to, action: 'kept' });
      continue;
    }
    await mkdir(dirname(destination), { recursive: true });
    await writeFile(destination, text);
    lines.push(`  ${exists ? 'overwrote' : 'created  '} ${to}`);
    files.push({ file: to, action: exists ? 'overwrote' : 'created' });
  }
  if (!fit.covered) {
    // The repository's tsconfig.json is kept as it is; the definitions get one of their own beside them.
    const to = 'pipelines/tsconfig.json';
    if (existsSync(join(target, to))) {
      lines.push(`  kept      ${to} (it exists; ${fit.why})`);
      files.push({ file: to, action: 'kept' });
    } else {
      await writeFile(join(target, to), PIPELINES_TSCONFIG);
      lines.push(`  created   ${to} (${fit.why})`);
      files.push({ file: to, action: 'created' });
    }
  }
  return { dir: shownDir, packageName, addedToPackage: userPackage !== undefined, files, lines };
}
