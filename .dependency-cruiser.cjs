/**
 * The layers of src/, bottom first, and what each may import: `npm test` runs dependency-cruiser with this file
 * (test/layers.test.ts), so an import that goes up a layer, or between siblings, or closes a circle fails CI.
 * ARCHITECTURE.md draws the same stack.
 */
const LAYERS = {
  core: [],
  yaml: ['core'],
  catalog: ['core'],
  schema: ['core', 'catalog'],
  ir: ['core', 'catalog'],
  check: ['core', 'catalog', 'schema', 'ir'],
  dsl: ['core', 'catalog', 'schema', 'ir'],
  compile: ['core', 'yaml', 'catalog', 'schema', 'ir', 'check'],
  validate: ['core', 'yaml', 'catalog', 'schema', 'ir', 'check'],
  import: ['core', 'yaml', 'catalog', 'schema', 'ir', 'check', 'dsl'],
  // The one door to the platform's REST and GraphQL API: it knows nothing of compile, config or publish.
  platform: ['core', 'yaml', 'catalog'],
  publish: ['core', 'yaml', 'catalog', 'compile', 'platform'],
  // An account as a project: the platform's reads, written through import's project mode and publish's record.
  pull: ['core', 'yaml', 'catalog', 'schema', 'ir', 'check', 'dsl', 'compile', 'import', 'platform', 'publish'],
  // What will run: a pipeline with its input sets merged as the platform merges them (check's merge, compile's layout).
  render: ['core', 'yaml', 'catalog', 'schema', 'ir', 'check', 'compile'],
  // Execute a pipeline and follow it: the platform's execution calls, publish's connection, render's input check and picture.
  run: ['core', 'yaml', 'catalog', 'schema', 'ir', 'check', 'compile', 'platform', 'publish', 'render'],
  // `pipewright/testing`, a library entry beside src/index.ts: compile's build and check, without files.
  testing: ['core', 'yaml', 'catalog', 'schema', 'ir', 'check', 'compile'],
  // `pipewright init`: the scaffold copied from templates/, merged into a package.json and tsconfig that exist.
  init: ['core'],
  // The language server is validate as you type: validate's reader, checks and locations, on editor buffers.
  lsp: ['core', 'yaml', 'catalog', 'schema', 'ir', 'check', 'validate'],
  cli: [
    'core',
    'yaml',
    'catalog',
    'schema',
    'ir',
    'check',
    'dsl',
    'compile',
    'validate',
    'import',
    'platform',
    'publish',
    'pull',
    'render',
    'run',
    'lsp',
    'init',
    'index.ts',
  ],
};
const ROOT_ALLOWED = ['core', 'catalog', 'schema', 'dsl', 'compile', 'platform', 'publish', 'pull', 'render', 'run'];

const folderOrFile = (name) => (name.endsWith('.ts') ? `${name.replace('.', '[.]')}$` : `${name}/`);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle between files: split the shared part into a module both import.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...Object.entries(LAYERS).map(([layer, allowed]) => ({
      name: `layer-${layer}`,
      severity: 'error',
      comment: `src/${layer} may import only ${allowed.length ? allowed.join(', ') : 'nothing else of src'} (see ARCHITECTURE.md)`,
      from: { path: `^src/${layer}/` },
      to: { path: '^src/', pathNot: [`^src/${layer}/`, ...allowed.map((name) => `^src/${folderOrFile(name)}`)] },
    })),
    {
      name: 'layer-root',
      severity: 'error',
      comment: `src/index.ts (the package's entry) may import only ${ROOT_ALLOWED.join(', ')}`,
      from: { path: '^src/index[.]ts$' },
      to: { path: '^src/', pathNot: ROOT_ALLOWED.map((name) => `^src/${name}/`) },
    },
    {
      name: 'no-other-folders',
      severity: 'error',
      comment: 'Every file of src/ belongs to a layer: add the folder to LAYERS in .dependency-cruiser.cjs',
      from: { path: '^src/', pathNot: [...Object.keys(LAYERS).map((name) => `^src/${name}/`), '^src/index[.]ts$'] },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Generated code is checked as everything else: its imports obey the layers too.
  },
};
