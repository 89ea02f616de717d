// Engine evaluations per second for 1 and 50 compiled flags (run by flags.mjs through tsx).
import { compileFlags, type FlagDefinition } from '@service/flag-engine';
import { DISTINCT_IDS } from '@service/test-support';
import { contexts, definitions } from './flag-inputs';

function rate(defs: FlagDefinition[]) {
  const compiled = compileFlags(defs);
  let calls = 0;
  for (let i = 0; i < 20_000; i++) compiled.evaluateAll(contexts[i % DISTINCT_IDS]!); // warm up
  const start = process.hrtime.bigint();
  const until = start + 2_000_000_000n;
  while (process.hrtime.bigint() < until) {
    for (let i = 0; i < 1000; i++) compiled.evaluateAll(contexts[(calls + i) % DISTINCT_IDS]!);
    calls += 1000;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { calls: Math.round(calls / seconds), flags: Math.round((calls * defs.length) / seconds) };
}

process.stdout.write(`${JSON.stringify({ one: rate(definitions.slice(0, 1)), fifty: rate(definitions) })}\n`);
