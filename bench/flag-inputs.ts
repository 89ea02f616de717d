// The engine's inputs of the flags benchmarks (bench/engine.ts, bench/bound-server.ts): the 50 flags of the shared set
// as definitions, and a context for each of its 10k people (ids `user-<i>`, as bench/flags-seed.mjs stores them).
import type { FlagDefinition } from '@service/flag-engine';
import { DISTINCT_IDS, flagSet, personOf } from '@service/test-support';

export const definitions: FlagDefinition[] = flagSet().map((f, i) => ({ id: i + 1, key: f.key, name: f.name, active: true, filters: f.filters }));
export const contexts = Array.from({ length: DISTINCT_IDS }, (_, i) => ({ distinctId: `user-${i}`, personProperties: personOf(i) }));
