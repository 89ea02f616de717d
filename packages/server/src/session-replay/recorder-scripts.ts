import type { FastifyPluginAsync } from 'fastify';
import { posthogScript, servePosthogScript, type PosthogScript } from '../http/posthog-script';

/**
 * posthog-js's recorders, which it loads from its `api_host` when the remote config turns recording on:
 * `lazy-recorder.js` by default, `posthog-recorder.js` when `scriptConfig` names it (PostHog sets it for some
 * projects), and the older `recorder.js`. Served from the posthog-js package the service depends on, pinned with
 * their published SRI hashes, so the recorder never changes under the host app.
 */
export const RECORDER_SCRIPTS = ['lazy-recorder.js', 'posthog-recorder.js', 'recorder.js'] as const;

export const recorderScriptRoutes: FastifyPluginAsync<{ scripts?: PosthogScript[] }> = async (
  app,
  { scripts = RECORDER_SCRIPTS.map((name) => posthogScript(name)) },
) => {
  for (const script of scripts) servePosthogScript(app, script);
};
