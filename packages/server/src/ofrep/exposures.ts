import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { IngestService } from '../capture/ingest';
import type { FlagsRequest } from '../flag-evaluation/service';
import type { OfrepEvaluation } from './evaluation';

/** How many (project, person, flag, answer) exposures each process remembers having recorded. */
const REMEMBERED = 100_000;

/**
 * The exposures of OFREP's single-flag evaluations: a server provider asks once per evaluation in code, which is what
 * PostHog's SDKs report as `$feature_flag_called` (experiments read them), and no OpenFeature SDK sends that event. So
 * the first evaluation of each person, flag and answer records one through the ingestion pipeline, as posthog-node
 * sends it once per distinct id, flag and response. The bulk endpoint records none: a client provider fetches every
 * flag at once, and which it shows is not known here (as `/flags` records none).
 */
export class Exposures {
  private readonly recorded = new LRUCache<string, true>({ max: REMEMBERED });

  constructor(private readonly ingest: IngestService) {}

  /**
   * Records the exposure to `response` (the flag's variant, else whether it is enabled, as PostHog's SDKs report it)
   * unless this process already has; resolves once it is stored. Never rejects: a failure is logged.
   */
  async record(projectId: number, request: FlagsRequest, answer: OfrepEvaluation, response: string | boolean, log: FastifyBaseLogger): Promise<void> {
    const seen = `${projectId}\u0000${request.distinctId}\u0000${answer.key}\u0000${String(response)}`;
    if (this.recorded.has(seen)) return;
    this.recorded.set(seen, true);
    const properties: Record<string, unknown> = {
      $feature_flag: answer.key,
      $feature_flag_response: response,
      [`$feature/${answer.key}`]: response,
      $feature_flag_reason: answer.reason,
      $feature_flag_id: answer.metadata.id,
      $feature_flag_version: answer.metadata.version,
      $lib: 'ofrep',
    };
    if (Object.keys(request.groups).length) properties.$groups = request.groups;
    try {
      const { events } = await this.ingest.normalize(
        { items: [{ event: '$feature_flag_called', distinct_id: request.distinctId, properties }], batch: {} },
        {},
        Number.MAX_SAFE_INTEGER,
      );
      await this.ingest.capture(projectId, events);
    } catch (error) {
      // Recorded on a later evaluation: the answer itself does not depend on it.
      this.recorded.delete(seen);
      log.warn({ err: error }, 'an OFREP exposure was not recorded');
    }
  }
}
