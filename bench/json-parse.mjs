// npm run bench -- json-parse: what parsing an SDK body costs the service by its size, whole (JSON.parse of the body as
// one string) and in slices (src/http/sliced-json.ts), on batches of the exceptions benchmark's `$exception` events
// (some 3 KB each); in this process, the two alternating. `parseJsonBytes`, which the SDK endpoints use, parses a
// body whole up to 128 KB and in slices past it; this shows where that line falls on this machine.
import os from 'node:os';
import path from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { bodies } from './exceptions.mjs';
import { machine, record, root } from './lib.mjs';

const COMMAND = 'npm run bench -- json-parse';
const COUNTS = [10, 20, 30, 40, 60, 100, 200];
const ROUNDS = 5;
/** Parses of each size a round: about the same bytes for every size. */
const BYTES_A_ROUND = 30 * 1024 * 1024;

const { parseJsonInSlices } = await tsImport(path.join(root, 'packages/server/src/http/sliced-json.ts'), import.meta.url);
const events = JSON.parse(bodies('phc_bench', 'exceptions')()).batch;
const batch = (count) => Buffer.from(JSON.stringify({ api_key: 'phc_bench', batch: Array.from({ length: count }, (_, i) => events[i % events.length]) }));

const ways = {
  whole: (bytes) => JSON.parse(bytes.toString('utf8')),
  sliced: (bytes) => parseJsonInSlices(bytes),
};

/** Microseconds a parse, over `times` parses of `bytes`. */
async function time(way, bytes, times) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < times; i++) await ways[way](bytes);
  return Number(process.hrtime.bigint() - start) / 1000 / times;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = [];
for (const count of COUNTS) {
  const bytes = batch(count);
  const times = Math.max(20, Math.round(BYTES_A_ROUND / bytes.length));
  for (const way of Object.keys(ways)) await time(way, bytes, Math.ceil(times / 4)); // warm up
  const runs = { whole: [], sliced: [] };
  for (let round = 0; round < ROUNDS; round++) for (const way of Object.keys(ways)) runs[way].push(await time(way, bytes, times));
  const whole = median(runs.whole);
  const sliced = median(runs.sliced);
  rows.push({ count, kb: bytes.length / 1024, whole, sliced });
  console.log(JSON.stringify(rows.at(-1)));
}

const span = (values) => `${fmt(Math.min(...values), 2)}–${fmt(Math.max(...values), 2)}`;
const fmt = (n, digits = 0) => n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
record(
  'Parsing SDK bodies (issue 15)',
  `Command: \`${COMMAND}\` (${new Date().toISOString().slice(0, 16)}Z, ${machine()}, load average ${os.loadavg()[0].toFixed(1)}).
Batches of the exceptions benchmark's \`$exception\` events (some 3 KB each), parsed in this process: whole (\`JSON.parse\` of
the body as one string) and in slices (\`parseJsonInSlices\`: runs of members parsed some 64 KB at a
time); the two alternate, ${ROUNDS} rounds of some ${BYTES_A_ROUND / 1024 / 1024} MB parsed each; medians.
The SDK endpoints parse a body whole up to 128 KB and in slices past it (\`parseJsonBytes\`).

| events | body KB | whole µs | sliced µs | whole µs per KB | sliced µs per KB | taken by the endpoints |
| ---: | ---: | ---: | ---: | ---: | ---: | --- |
${rows
  .map(
    (r) =>
      `| ${r.count} | ${fmt(r.kb)} | ${fmt(r.whole)} | ${fmt(r.sliced)} | ${fmt(r.whole / r.kb, 2)} | ${fmt(r.sliced / r.kb, 2)} | ${r.kb > 128 ? 'sliced' : 'whole'} |`,
  )
  .join('\n')}

V8 keeps a string past 128 KB in its large-object space, in memory mapped afresh for each one, and on this virtual
machine fresh memory is slow to touch, more in some hours than in others: in this run a whole parse cost
${span(rows.filter((r) => r.kb > 128).map((r) => r.whole / r.kb))} µs per KB past 128 KB, against ${span(rows.filter((r) => r.kb <= 128).map((r) => r.whole / r.kb))} below it. Slicing finds the
cuts between a batch's elements without reading every byte where the elements begin alike (\`},{"uuid":\` in a compact
batch), each cut checked by parsing its run, and scans the bytes for member boundaries otherwise (the last run, a
failed cut, other bodies); below 128 KB the slicing costs more than it saves.`,
);
