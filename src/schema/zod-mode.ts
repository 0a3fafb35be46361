import { z } from 'zod';

/**
 * zod's schemas made after this parse on zod's generic path instead of a parser it generates for each object
 * schema (`jitless`). Compile checks at most a few hundred documents in a thread (each worker batch is a new
 * thread), and the generated parsers were still being compiled and optimised when it ended: on 300 imported
 * pipelines the first parse of each took about a quarter more CPU with them (docs/performance.md, issue 15).
 * What a parse accepts and the issues it reports are the same either way. zod reads the setting when a schema is
 * made, so every module that makes schemas at load imports this first.
 */
z.config({ jitless: true });
