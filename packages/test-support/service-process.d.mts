// Types of service-process.mjs.
import type { ChildProcess } from 'node:child_process';

/** The repository's `service` command: `packages/server/bin/service.js` (it runs the sources through tsx). */
export const repositoryBin: string;

/**
 * The service's command line for tests and benchmarks: the build of the sources a test run made first (`SERVICE_BIN`,
 * set by `buildService` in the suites' global setup), else the repository's command.
 */
export const serviceBin: string;

/** Builds the server from its sources (tsup, the flag engine bundled in) into `outDir` of the server package (default `dist`); the entry's path. */
export function buildService(outDir?: string): string;

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number>;

export interface ServiceProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** What the process printed so far. */
  output(): string;
  /** Printed at first start only (on an empty database): project id, project token and personal API key. */
  projectId: number;
  token: string;
  key: string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts `service start` with this environment (PORT, DATA_DIR, DATABASE_URL ...) and resolves once it listens;
 * `bin` is the command's script, by default the repository's (another is an installed package's); `startTimeoutMs`:
 * how long it may take to listen (default 30 s; several workers take longer).
 */
export function spawnService(env: NodeJS.ProcessEnv, port?: number, bin?: string, startTimeoutMs?: number): Promise<ServiceProcess>;

/** Calls the REST API with a personal API key; the parsed JSON answer, or a thrown error on a non-2xx status. */
export function restApi(url: string, key: string): <T = unknown>(method: string, route: string, body?: unknown) => Promise<T>;
