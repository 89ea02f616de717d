// The test support shared across packages (see package.json); types in index.d.mts.
export { buildService, freePort, repositoryBin, restApi, serviceBin, spawnService } from './service-process.mjs';
export { DISTINCT_IDS, flagSet, personOf } from './flag-set.mjs';
export { record } from './results.mjs';
export { openEventStream } from './event-stream.mjs';
export { postgresSchema } from './postgres.mjs';
export { eventually } from './wait.mjs';
