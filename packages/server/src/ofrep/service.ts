import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { NotFoundError } from '../errors';
import type { ProjectFlags } from '../flag-evaluation/definitions';
import type { FlagsService } from '../flag-evaluation/service';
import { flagsRequestOf } from './context';
import { toOfrep, type OfrepEvaluation } from './evaluation';
import type { Exposures } from './exposures';

/** An OFREP bulk answer as sent: its JSON text and its ETag (a hash of the text). */
export interface BulkAnswer {
  body: string;
  etag: string;
}

/**
 * OFREP over the evaluator of `/flags` (the same compiled flags, stored person and group properties and engine): one
 * flag, or every flag for one context. A survey's flags are left out: they serve posthog-js's surveys, not callers.
 */
export class OfrepService {
  private readonly keys = new WeakMap<ProjectFlags, string[]>();

  constructor(
    private readonly flags: FlagsService,
    private readonly exposures: Exposures,
  ) {}

  /**
   * One flag for a context; FLAG_NOT_FOUND (404) for a key the project has no flag of. Its exposure is recorded
   * (`Exposures`) without holding the answer back: the evaluation is on the caller's hot path, and its answer does not
   * depend on the event (a failure to record it is logged on `log`).
   */
  async evaluateOne(projectId: number, key: string, body: unknown, log: FastifyBaseLogger): Promise<OfrepEvaluation> {
    const request = flagsRequestOf(body);
    const project = await this.flags.definitions.get(projectId);
    const definition = project.definitions.get(key);
    if (!definition || !this.flagKeys(project).includes(key)) throw new NotFoundError(`The project has no flag "${key}".`);
    request.flagKeys = [key];
    const [result] = await this.flags.results(projectId, project, request);
    const answer = toOfrep(definition, result!);
    if (!result!.inconclusive) void this.exposures.record(projectId, request, answer, result!.value, log);
    return answer;
  }

  /** Every flag for a context, with `extra` fields (the event streams), as JSON text and its ETag. */
  async evaluateAll(projectId: number, body: unknown, extra: Record<string, unknown>): Promise<BulkAnswer> {
    const request = flagsRequestOf(body);
    const project = await this.flags.definitions.get(projectId);
    request.flagKeys = this.flagKeys(project);
    const results = request.flagKeys.length ? await this.flags.results(projectId, project, request) : [];
    const flags = results.map((result) => toOfrep(project.definitions.get(result.key)!, result));
    const text = JSON.stringify({ flags, ...extra });
    return { body: text, etag: `"${createHash('sha1').update(text).digest('base64url')}"` };
  }

  /** The keys OFREP answers for: the project's flags but a survey's. */
  private flagKeys(project: ProjectFlags): string[] {
    let keys = this.keys.get(project);
    if (!keys) {
      const surveys = new Set(project.surveyKeys);
      this.keys.set(project, (keys = project.compiled.keys.filter((key) => !surveys.has(key))));
    }
    return keys;
  }
}
