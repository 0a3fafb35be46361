// How a command's value travels from the CLI to the HTTP request: the async call stack at the first requests,
// counted as "stays" (runs of consecutive frames in one file) and "returns" (a run in a file the value had
// already left). No platform is needed: fetch is replaced; it answers the preflight and stops the run after.
//   node scripts/value-trace.mjs <dist folder> <request number> -- pull --org default --project shop -o /tmp/x
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [dist, nth, , ...args] = process.argv.slice(2);
Error.stackTraceLimit = Infinity;
const stacks = [];
globalThis.fetch = async () => {
  stacks.push(new Error().stack);
  if (stacks.length >= Number(nth)) {
    report(stacks[Number(nth) - 1]);
    process.exit(0);
  }
  return new Response(JSON.stringify({ status: 'SUCCESS', data: {} }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
};
process.env.HARNESS_API_KEY ??= 'trace-key-0123456789';

function report(stack) {
  const root = pathToFileURL(resolve(dist)).href;
  const files = stack
    .split('\n')
    .map((line) => line.match(/\((file:\/\/[^)]+?):\d+:\d+\)$|at (?:async )?(file:\/\/\S+?):\d+:\d+$/))
    .filter(Boolean)
    .map((match) => match[1] ?? match[2])
    .filter((file) => file.startsWith(root))
    .map((file) => file.slice(root.length + 1))
    .reverse();
  const stays = files.filter((file, i) => file !== files[i - 1]);
  const returns = stays.filter((file, i) => stays.slice(0, i).includes(file)).length;
  console.log(stays.join(' -> '));
  console.log(`${stays.length} stays in ${new Set(stays).size} files, ${returns} returns to a file already left`);
}

const { main } = await import(pathToFileURL(resolve(dist, 'cli/main.js')).href);
await main(args);
report(stacks.at(-1) ?? '');
