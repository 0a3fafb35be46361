import { defineConfig } from 'pipewright';

export default defineConfig({
  // The definition files `pipewright compile` reads when it is given none.
  include: ['pipelines/**/*.ts'],
  // Where the YAML goes. Commit it: reviews then show the generated change, and CI checks it is up to date.
  outDir: 'out',
  // Where `pipewright publish` sends it. HARNESS_BASE_URL / HARNESS_ACCOUNT_ID and the
  // --base-url / --account flags win over these; the API key only ever comes from HARNESS_API_KEY.
  // .github/workflows/pipewright.yml sets all three from the repository's secrets.
  // baseUrl: 'https://app.harness.io',
  // accountId: 'your-account-id',
});
