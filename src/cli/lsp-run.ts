import { projectRules } from './validate-run.js';

/**
 * Serves until the editor closes the connection: the project's rules are read once, from the folder the editor
 * starts the server in, as validate reads them.
 */
export async function runLsp(): Promise<void> {
  const settings = await projectRules();
  const { startLanguageServer } = await import('../lsp/server.js');
  const connection = startLanguageServer(settings);
  await new Promise<void>((resolve) => connection.onExit(resolve));
}
