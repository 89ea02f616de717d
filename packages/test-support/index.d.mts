export { buildService, freePort, repositoryBin, restApi, serviceBin, spawnService, type ServiceProcess } from './service-process.mjs';
export { DISTINCT_IDS, flagSet, personOf, type BenchFlag } from './flag-set.mjs';
export { record } from './results.mjs';
export { openEventStream, type EventStream } from './event-stream.mjs';
export { postgresSchema } from './postgres.mjs';
export { eventually } from './wait.mjs';
