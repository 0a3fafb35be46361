// Preloaded into a measured process (NODE_OPTIONS=--import): on exit, appends the process's peak resident
// set size in bytes to the file named by PIPEWRIGHT_BENCH_RSS. esbuild's own service process is not counted.
import { appendFileSync } from 'node:fs';

const target = process.env.PIPEWRIGHT_BENCH_RSS;
if (target) process.on('exit', () => appendFileSync(target, `${process.resourceUsage().maxRSS * 1024}\n`));
