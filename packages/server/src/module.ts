import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { Changes } from './changes';
import type { Config } from './config';
import type { Db } from './db/database';
import type { AuthFailures } from './http/auth-failures';
import type { FrontDoor } from './http/front-door';
import type { LargeBodySlots } from './http/sdk-body';

/** The settings the modules' services read. */
export type ServicesConfig = Pick<Config, 'ingestMaxPendingEvents'> &
  Partial<
    Pick<
      Config,
      | 'webhookAllowPrivate'
      | 'sourcemapCacheBytes'
      | 'sourcemapMaxSegments'
      | 'sourcemapMaxLines'
      | 'sourcemapMaxSourceBytes'
      | 'sourcemapLoadBytesPerSecond'
      | 'flagCacheProjects'
      | 'streamMaxConnectionsPerToken'
      | 'replayStorageDir'
      | 'replayRetentionDays'
    >
  > & {
    /** How often open `/flags/stream` streams get a heartbeat comment, in milliseconds; default 25 s (tests shorten it). */
    streamHeartbeatMs?: number;
  };

/** The settings the modules' routes and jobs read. */
export type RoutesConfig = Pick<Config, 'sdkBodyLimit' | 'captureBatchBodyLimit' | 'publicRateLimitPerMinute' | 'eventMaxBytes'> &
  Partial<Pick<Config, 'webhookAllowPrivate' | 'webhookPollMs' | 'webhookRetryBaseMs' | 'sourcemapMaxBytes' | 'replayBodyLimit' | 'replayRetentionDays'>> & {
    /** Where `/static/` files are read from; default the installed service-js package's dist/static (tests use their own). */
    staticDir?: string;
    /** Where the built web app (index.html, assets/) is read from; default the server package's web-dist/ (tests use their own). */
    webDir?: string;
  };

/** A kind of item the activity log records. */
export interface ActivityKind {
  /** The scope object whose `:read` lets one read its entries. */
  object: string;
  /** An organization's item (logged without a project, read at `/api/organization/activity_log/`), not a project's. */
  organization?: boolean;
}

/** What every module's service factory may take, besides the services of the modules before it. */
export interface Core {
  db: Db;
  changes: Changes;
  config: ServicesConfig;
  /** What webhooks can be sent for: every module's `webhookKinds`. */
  webhookKinds: readonly string[];
  /** What the activity log records: every module's `activityKinds`. */
  activityKinds: Readonly<Record<string, ActivityKind>>;
}

/** What a module's routes are registered with (the options of its Fastify plugin). */
export interface RouteContext<S> {
  services: S;
  config: RoutesConfig;
  /** The app's budget of large SDK bodies, shared by every SDK route. */
  largeBodies: LargeBodySlots;
  /** The failed-authentication throttle, for routes answered outside Fastify's hooks. */
  authFailures: AuthFailures;
  /** Where routes answered before Fastify routes anything are registered. */
  frontDoor: FrontDoor;
  log: FastifyBaseLogger;
}

/** Work a module runs while the app runs: started when it is ready, stopped when it closes. */
export interface Job {
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

/**
 * A domain of the service, as its folder's `index.ts` exports it; the app composes them (`src/modules.ts`). `S` is what
 * the app gives its parts: every module's services (a part names what it takes of them in its own parameter type).
 */
export interface ServerModule<S = never> {
  /** The module's folder. */
  name: string;
  /**
   * Makes the module's services from what it takes of the core and of the services of the modules before it; a module
   * that adds an ingestion step does it here (`ingest.pipeline.use`). Returns the services it adds, by name.
   */
  services?: (deps: S) => object;
  routes?: FastifyPluginAsync<RouteContext<S>>;
  /** Its jobs; they run in one worker of several on SQLite (`runsJobs`), in each on PostgreSQL. */
  jobs?: (context: RouteContext<S>) => Job[];
  /** What must finish before the database closes (accepted events committed, say). */
  close?: (services: S) => Promise<void>;
  /** What webhooks can be sent for about its items (`enqueueWebhooks`). */
  webhookKinds?: readonly string[];
  /** The kinds of items it records in the activity log (`recordActivity`), by the scope an entry names. */
  activityKinds?: Readonly<Record<string, ActivityKind>>;
}
