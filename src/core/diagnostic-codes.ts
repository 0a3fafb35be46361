/**
 * Every diagnostic code pipewright emits, declared once: its severity and a one-line summary. Each code has an
 * entry `### \`code\`` in docs/troubleshooting.md (its anchor is the code itself; a test checks both ways).
 * `Diagnostic` is typed from this table, so a code that is not here, or a severity the table does not give
 * it, does not compile.
 */
export type Severity = 'error' | 'warning';

interface CodeEntry {
  /** One severity, or both where the same problem is refused in one place and only risky in another. */
  readonly severity: Severity | readonly [Severity, Severity];
  readonly summary: string;
  /**
   * A finding about a document (its fields, its YAML, its builder options, its relations to other documents) rather
   * than about the run: a project's `rules` may lower it or switch it off, and a builder's `.suppress()` or a YAML
   * comment may suppress it at one place (docs/troubleshooting.md#suppressing-a-diagnostic).
   */
  readonly about?: 'document';
  /** A finding at a value that may be a credential: printed without the source lines around it. */
  readonly nearSecret?: true;
}

export const DIAGNOSTIC_CODES = {
  // Running the CLI
  usage: { severity: 'error', summary: 'the command line is not one pipewright can run (exit 2)' },
  'file-not-found': {
    severity: 'error',
    summary: 'a file or folder named on the command line does not exist or cannot be read',
  },
  'cannot-write': {
    severity: 'error',
    summary: 'an output file or folder cannot be written (a file in the way, no permission)',
  },
  'not-utf8': { severity: 'error', summary: 'an input file is not UTF-8 text' },
  'not-a-file': {
    severity: 'error',
    summary: 'an input named as a YAML file is a folder, a named pipe or a device, not a regular file',
  },
  'file-too-large': { severity: 'error', summary: 'an input YAML file is over the size pipewright reads' },
  'path-outside': {
    severity: 'error',
    summary:
      'a path built from outside data would lead out of its folder (`..`, absolute, a symbolic link): not written',
  },
  'key-in-document': {
    severity: 'error',
    summary:
      'a document on the platform holds the API key pipewright uses: not written into the project (rotate the key, remove it from the document)',
  },
  'unsafe-identity': {
    severity: ['error', 'warning'],
    summary:
      "a document's identity is not one the platform allows: not written (an error), or imported under a safe folder name when only its org or project is a placeholder (a warning)",
  },
  'renamed-file': {
    severity: 'warning',
    summary: 'a file name was mapped to one every file system can hold (device name, length, characters)',
  },
  'missing-dependency': {
    severity: 'error',
    summary: 'an optional peer dependency the command needs is not installed',
  },
  'unexpected-error': {
    severity: 'error',
    summary: 'pipewright failed in a way it did not anticipate: a bug to report',
  },
  // Loading the definitions
  'no-entries': {
    severity: 'error',
    summary: 'nothing to read: no entries given, none configured, or a glob matches no file',
  },
  'no-resources': { severity: 'error', summary: 'the definition files export no project, connector or pipeline' },
  'plain-document-export': {
    severity: 'error',
    summary: 'a file exports a plain document object instead of a builder',
  },
  'syntax-error': { severity: 'error', summary: 'a definition file is not valid TypeScript' },
  'unresolved-import': { severity: 'error', summary: 'a definition file imports a file that does not exist' },
  'definition-threw': { severity: 'error', summary: 'a definition file threw while it was loaded' },
  'definition-exited': { severity: 'error', summary: 'a definition file called process.exit() in a worker thread' },
  'definition-timeout': {
    severity: 'error',
    summary: 'a definition file ran longer than definitionTimeout and was stopped',
  },
  'invalid-setting': {
    severity: 'error',
    summary: 'a setting (environment variable, option or config field) has a value pipewright cannot use',
  },
  'missing-setting': {
    severity: 'error',
    summary: 'a setting publish or graphql needs (address, account, API key) is not given',
  },
  'type-error': { severity: 'error', summary: 'compile --typecheck: the TypeScript checker found an error' },
  // Builder options
  'unknown-option': { severity: 'error', summary: 'a builder was given an option it does not have', about: 'document' },
  'missing-option': {
    severity: 'error',
    summary: 'a builder was called without an option it needs',
    about: 'document',
  },
  // Document validation
  'missing-field': { severity: 'error', summary: 'a field the platform requires is not set', about: 'document' },
  'invalid-type': { severity: 'error', summary: 'a field has the wrong kind of value', about: 'document' },
  'invalid-value': { severity: 'error', summary: 'a value is not one the platform accepts', about: 'document' },
  'invalid-format': {
    severity: 'error',
    summary: 'a string does not have the shape the platform requires',
    about: 'document',
  },
  'too-small': { severity: 'error', summary: 'a list has too few items, or a string is empty', about: 'document' },
  'too-big': { severity: 'error', summary: 'a value is longer or larger than the platform allows', about: 'document' },
  'too-deep': { severity: 'error', summary: 'a document nests deeper than the limit', about: 'document' },
  'unknown-type': {
    severity: 'error',
    summary: 'a stage or step type is a near miss of a known type',
    about: 'document',
  },
  'unknown-key': {
    severity: ['warning', 'error'],
    summary: 'a key is a near miss of a key the platform models (an error where the key it misses is required)',
    about: 'document',
  },
  'duplicate-identifier': {
    severity: 'error',
    summary: 'two stages, or two steps of one list, have the same identifier',
    about: 'document',
  },
  'unbalanced-expression': {
    severity: 'warning',
    summary: 'a <+...> expression is not closed, empty, or has an open quote',
    about: 'document',
  },
  'invalid-runtime-input': {
    severity: 'warning',
    summary: 'a <+input> value has a malformed method chain',
    about: 'document',
  },
  'unknown-reference': {
    severity: 'warning',
    summary: 'an expression refers to a stage or step that does not exist',
    about: 'document',
  },
  'unknown-barrier': {
    severity: 'warning',
    summary: 'a Barrier step names no barrier of the pipeline: saved, the run fails when it starts',
    about: 'document',
  },
  'step-not-allowed': {
    severity: ['error', 'warning'],
    summary:
      'a step type cannot run in the stage it is in (a warning for a container step the schema lets in, which fails when it runs)',
    about: 'document',
  },
  'unsubstituted-placeholder': {
    severity: ['error', 'warning'],
    summary: 'a template placeholder was not filled in (an error where the schema refuses it, a warning elsewhere)',
    about: 'document',
  },
  'identifier-is-api-path': {
    severity: 'error',
    summary: "a resource's identifier is one of the API's own paths beside it (a pipeline `v2` or `list`)",
    about: 'document',
  },
  'invalid-scope': {
    severity: 'warning',
    summary: "a document's orgIdentifier or projectIdentifier cannot be an identifier",
    about: 'document',
  },
  'no-build-infrastructure': {
    severity: 'warning',
    summary: 'a CI stage says neither where it runs (runtime, platform) nor on what infrastructure',
    about: 'document',
  },
  'clone-without-codebase': {
    severity: 'warning',
    summary: 'a CI stage clones the codebase but the pipeline has none',
    about: 'document',
  },
  'notification-sends-nothing': {
    severity: 'warning',
    summary: 'a notification rule has no events or no method: saved by the platform, it sends nothing',
    about: 'document',
  },
  'possible-secret': {
    severity: 'warning',
    summary: 'a value looks like a real credential in plain text',
    about: 'document',
    nearSecret: true,
  },
  'invalid-suppression': {
    severity: 'warning',
    summary: 'a pipewright-disable-next-line comment names no code it can suppress, or gives no reason',
  },
  // Between resources
  'duplicate-resource': {
    severity: 'error',
    summary: 'two documents are the same resource (kind, scope, identifier)',
    about: 'document',
  },
  'unresolved-reference': {
    severity: 'error',
    summary: 'a resource refers to another that is not compiled with it',
    about: 'document',
  },
  'out-of-scope-reference': {
    severity: 'error',
    summary: 'a document uses a connector outside its scope',
    about: 'document',
  },
  'input-set-not-an-input': {
    severity: 'error',
    summary: 'an input set sets a field its pipeline fixes instead of taking it as <+input>',
    about: 'document',
  },
  'input-set-missing-input': {
    severity: 'warning',
    summary: 'an input set leaves unset a runtime input of its pipeline that has no default',
    about: 'document',
  },
  // render
  'unknown-pipeline': {
    severity: 'error',
    summary: 'render was given a pipeline that is not in the compiled output or the YAML file',
  },
  'unknown-input-set': {
    severity: 'error',
    summary:
      "render was given an input set the pipeline does not have (not found, another pipeline's, or an overlay's bad reference)",
  },
  'unknown-input': {
    severity: 'error',
    summary: 'render --set names a field that is not a runtime input of the pipeline',
  },
  'unsatisfied-input': {
    severity: 'error',
    summary: 'a runtime input gets no value from the input sets or --set, and has no default',
  },
  'input-value-not-allowed': {
    severity: 'error',
    summary: 'a value given to a runtime input is outside its allowedValues or does not match its regex',
  },
  'input-value-wrong-type': {
    severity: 'error',
    summary: 'render --set gives a Number variable a value that is not a number',
  },
  // The output folder
  'foreign-manifest': {
    severity: 'error',
    summary: 'the output folder holds a manifest.json pipewright did not write',
  },
  'unsafe-out-dir': {
    severity: 'error',
    summary: 'the output folder contains the working directory or the definitions',
  },
  // Reading YAML
  'no-documents': { severity: 'error', summary: 'the input holds no YAML documents', about: 'document' },
  'not-a-platform-document': {
    severity: 'error',
    summary: 'a YAML document is not a pipeline, connector or project',
    about: 'document',
  },
  'unmanaged-kind': {
    severity: 'warning',
    summary:
      'a document of a platform kind pipewright does not manage (secret, overrides, ...): not checked, imported or published',
    about: 'document',
    nearSecret: true,
  },
  'yaml-syntax': { severity: 'error', summary: 'a file is not valid YAML' },
  'yaml-duplicate-key': { severity: 'error', summary: 'a key appears twice in one map', about: 'document' },
  'yaml-number': {
    severity: 'error',
    summary: 'a value reads as a number the platform cannot read',
    about: 'document',
  },
  'yaml-alias': { severity: 'warning', summary: 'an alias, which the platform does not expand', about: 'document' },
  'yaml-merge-key': {
    severity: 'warning',
    summary: 'a merge key, which the platform does not merge',
    about: 'document',
  },
  'yaml-multiple-documents': {
    severity: 'warning',
    summary: 'a file holds several documents; the platform reads the first',
    about: 'document',
  },
  'yaml-too-large': { severity: 'error', summary: "a document is over the platform reader's size limit" },
  // Import
  'generated-code-type-error': {
    severity: 'error',
    summary: 'code generated by import does not type-check: a bug to report',
  },
  'import-fallback': {
    severity: 'warning',
    summary: 'import wrote a node with a generic builder or raw.* because no typed form reproduces it',
  },
  // Publish and graphql
  'not-compiled-output': {
    severity: 'error',
    summary: 'publish was given a folder that is not (or no longer) compile output',
  },
  'no-platform': { severity: 'error', summary: "nothing at the address answers as the platform's API" },
  'request-failed': {
    severity: 'error',
    summary: 'a request to the platform failed (refused, unauthorized, or an error answer)',
  },
  'publish-failed': { severity: 'error', summary: 'the platform did not take a document (the report says why)' },
  'publish-record': {
    severity: 'warning',
    summary:
      'the publish record or a line of its journal could not be read (a run stopped while writing it): skipped, the rest kept',
  },
  'run-failed': {
    severity: 'error',
    summary: 'a pipeline run did not succeed: it failed, was aborted, expired, was rejected or timed out',
  },
  'pull-unmodelled': {
    severity: 'warning',
    summary:
      'pull kept a document the platform returned as YAML beside the project: pipewright cannot write it as code',
  },
  'pull-skipped': { severity: 'warning', summary: 'pull left out a pipeline in the v1 syntax' },
  'import-edited': {
    severity: 'warning',
    summary: 'import kept a module edited by hand since the last import (--force replaces it)',
  },
  'import-overwritten': {
    severity: 'warning',
    summary: 'import replaced a module edited by hand since the last import, as --force asked',
  },
  'pull-edited': {
    severity: 'warning',
    summary: 'pull kept a module edited by hand that differs from the platform (--force replaces it)',
  },
  'pull-overwritten': {
    severity: 'warning',
    summary: 'pull --force replaced a module edited by hand: the message shows the lines replaced',
  },
  'pull-deleted': { severity: 'warning', summary: 'a resource an earlier pull wrote is no longer on the platform' },
  'pull-held': {
    severity: 'warning',
    summary:
      'the platform holds a document pipewright refuses (an input set that no longer fits its pipeline): pull kept the finding as a suppression in its module',
  },
  'empty-query': { severity: 'error', summary: 'graphql was given an empty query' },
  'graphql-errors': { severity: 'error', summary: 'the GraphQL answer holds errors' },
  // init
  'not-a-folder': { severity: 'error', summary: 'init was given a path that exists and is not a folder' },
  'invalid-package-json': { severity: 'error', summary: 'the existing package.json is not a JSON object' },
} as const satisfies Record<string, CodeEntry>;

type Table = typeof DIAGNOSTIC_CODES;
export type DiagnosticCode = keyof Table;

/** The severities the table allows a code. */
export type SeverityOf<C extends DiagnosticCode> = Table[C]['severity'] extends infer S
  ? S extends readonly Severity[]
    ? S[number]
    : S
  : never;

/** The codes that may be reported with a severity: `CodeWith<'warning'>` for a warning rule. */
export type CodeWith<S extends Severity> = {
  [C in DiagnosticCode]: S extends SeverityOf<C> ? C : never;
}[DiagnosticCode];

/** The codes a project's `rules`, `.suppress()` and `# pipewright-disable-next-line` may act on, in the table's order. */
export type DocumentCode = {
  [C in DiagnosticCode]: Table[C] extends { about: 'document' } ? C : never;
}[DiagnosticCode];
export const DOCUMENT_CODES = (Object.keys(DIAGNOSTIC_CODES) as DiagnosticCode[]).filter(
  (code): code is DocumentCode => (DIAGNOSTIC_CODES[code] as CodeEntry).about === 'document',
);
export const isDocumentCode = (code: string): code is DocumentCode =>
  isDiagnosticCode(code) && (DIAGNOSTIC_CODES[code] as CodeEntry).about === 'document';

export const isDiagnosticCode = (code: string): code is DiagnosticCode => Object.hasOwn(DIAGNOSTIC_CODES, code);

const severities = (code: DiagnosticCode): readonly Severity[] => {
  const { severity } = DIAGNOSTIC_CODES[code] as CodeEntry;
  return typeof severity === 'string' ? [severity] : severity;
};

/** The severity of a code; for a code with two, the one asked for, which the table must allow. */
export function severityOf(code: DiagnosticCode, wanted?: Severity): Severity {
  const allowed = severities(code);
  const chosen = wanted ?? allowed[0]!;
  // Data from a worker thread or a plugin is not type-checked: refuse what the table does not allow.
  if (!allowed.includes(chosen))
    throw new Error(`diagnostic code ${code} is never a${chosen === 'error' ? 'n' : ''} ${chosen}`);
  return chosen;
}

/** Whether messages of a code may show the source lines around it (not beside a possible credential). */
export const showsSource = (code: DiagnosticCode): boolean => !(DIAGNOSTIC_CODES[code] as CodeEntry).nearSecret;

/** Where a code is explained: its anchor in docs/troubleshooting.md. */
export const docsAnchor = (code: DiagnosticCode): string => `docs/troubleshooting.md#${code}`;
