import type { FastifyInstance } from 'fastify';
import type { IngestService } from '../capture/ingest';
import {
  DEFAULT_SOURCEMAP_CACHE_BYTES,
  DEFAULT_SOURCEMAP_LOAD_BYTES_PER_SECOND,
  DEFAULT_SOURCEMAP_MAX_LINES,
  DEFAULT_SOURCEMAP_MAX_SEGMENTS,
  DEFAULT_SOURCEMAP_MAX_SOURCE_BYTES,
} from '../config';
import type { Core, ServerModule } from '../module';
import { exceptionsStep, type ResolveFrames } from './ingest';
import { errorTrackingRoutes } from './routes';
import { ErrorTrackingService } from './service';
import { SourceMapResolver } from './sourcemaps/resolve';
import { sourceMapRoutes } from './sourcemaps/routes';
import { SourceMapService } from './sourcemaps/service';

type Routes = Parameters<typeof errorTrackingRoutes>[1] & Parameters<typeof sourceMapRoutes>[1];

/**
 * Error tracking: `$exception` events grouped into issues by an ingestion step (their frames source-mapped through the
 * uploaded maps first), the issues, and the source maps.
 */
export const errorTrackingModule = {
  name: 'error-tracking',
  services: ({ db, config, ingest }: Pick<Core, 'db' | 'config'> & { ingest: IngestService }) => {
    const resolver = new SourceMapResolver(db, {
      cacheBytes: config.sourcemapCacheBytes ?? DEFAULT_SOURCEMAP_CACHE_BYTES,
      loadBytesPerSecond: config.sourcemapLoadBytesPerSecond ?? DEFAULT_SOURCEMAP_LOAD_BYTES_PER_SECOND,
      limits: {
        maxSegments: config.sourcemapMaxSegments ?? DEFAULT_SOURCEMAP_MAX_SEGMENTS,
        maxLines: config.sourcemapMaxLines ?? DEFAULT_SOURCEMAP_MAX_LINES,
      },
    });
    const resolve: ResolveFrames = (projectId, release, frames) => resolver.resolveFrames(projectId, release, frames);
    ingest.pipeline.use(exceptionsStep(resolve));
    return {
      errorTracking: new ErrorTrackingService(db, resolve),
      sourceMaps: new SourceMapService(db.kysely, resolver, { maxSourceBytes: config.sourcemapMaxSourceBytes ?? DEFAULT_SOURCEMAP_MAX_SOURCE_BYTES }),
    };
  },
  routes: async (app: FastifyInstance, context: Routes) => {
    await app.register(errorTrackingRoutes, context);
    await app.register(sourceMapRoutes, context);
  },
  // Regrouping after a source map upload stops between two steps; a later upload of the release runs it again.
  close: ({ errorTracking }: { errorTracking: ErrorTrackingService }) => errorTracking.close(),
  webhookKinds: ['error.new_issue', 'error.regressed'],
  activityKinds: { ErrorTrackingIssue: { object: 'error_tracking' } },
} satisfies ServerModule;
