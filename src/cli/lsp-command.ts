import type { Command } from 'commander';

export function registerLsp(program: Command): void {
  program
    .command('lsp')
    .description(
      "a language server for the platform's YAML documents: validate's diagnostics as you type, quick fixes, completions, hovers",
    )
    // Editors' clients pass --stdio; stdio is the only transport, so the flag is accepted and changes nothing.
    .option('--stdio', 'talk JSON-RPC over stdin and stdout (the default and only transport)')
    .addHelpText(
      'after',
      ['', 'Examples:', '  $ pipewright lsp --stdio', '', 'Editor setup: docs/editor-setup.md'].join('\n'),
    )
    .action(async () => {
      const { runLsp } = await import('./lsp-run.js');
      await runLsp();
    });
}
