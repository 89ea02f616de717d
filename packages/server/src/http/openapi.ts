import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { serverVersion } from '../version';
import { DOCS_CSP } from './security-headers';

type Operation = {
  operationId?: string;
  summary?: string;
  responses?: Record<string, { content?: Record<string, { schema?: { properties?: Record<string, { type?: string }> } }> }>;
};

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
/** The DRF action of each method; a GET is `list` when it answers a page (`results`), `retrieve` otherwise. */
const ACTIONS: Record<string, string> = { put: 'update', post: 'create', delete: 'destroy', patch: 'partial_update' };
/** How a summary says each action. */
const VERBS: Record<string, string> = { list: 'List', retrieve: 'Retrieve', create: 'Create', update: 'Replace', partial_update: 'Update', destroy: 'Delete' };

const isPage = (operation: Operation) => operation.responses?.['200']?.content?.['application/json']?.schema?.properties?.results?.type === 'array';

/**
 * Names every operation as PostHog's API does (DRF): the path's words without `api`, the `projects/{project_id}`
 * prefix of project routes and the path parameters, then the action (`feature_flags_list`, `feature_flags_retrieve`,
 * `early_access_feature_destroy`), and gives one without a summary a plain one ("List feature flags"). An operationId
 * a route sets is kept; two operations of one name are a mistake in the routes, and fail the document.
 */
export function nameOperations<T extends { paths?: object }>(document: T): T {
  const names = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {}) as [string, Record<string, unknown>][]) {
    const words = path
      .replace(/^\/api(?=\/)/, '')
      .replace(/^\/projects\/\{project_id\}(?=\/)/, '')
      .split('/')
      .filter((part) => part && !part.startsWith('{'));
    for (const [method, value] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const operation = value as Operation;
      const action = ACTIONS[method] ?? (method === 'get' ? (isPage(operation) ? 'list' : 'retrieve') : method);
      operation.operationId ??= [...words, action].join('_').replace(/\W+/g, '_');
      if (names.has(operation.operationId)) throw new Error(`Two operations are named ${operation.operationId}: give one of them its own operationId`);
      names.add(operation.operationId);
      // Words as people write them: "personal API key", not "personal api key".
      const thing = words
        .join(' ')
        .replace(/_/g, ' ')
        .replace(/s$/, '')
        .replace(/\bapi\b/g, 'API');
      operation.summary ??= action === 'list' ? `List ${thing}s` : `${VERBS[action] ?? method.toUpperCase()} ${/^[aeiou]/.test(thing) ? 'an' : 'a'} ${thing}`;
    }
  }
  return document;
}

const DESCRIPTION = `Feature flags, early access features and product events.

Every operation but the SDK's and the sign-in ones takes a personal API key (\`Authorization: Bearer phx_...\`) or the web
app's session. A key has scopes (\`<object>:read\`, \`<object>:write\`, \`*\`), never more than its user's role, and may
be limited to some projects (\`project_ids\`). A key limited to some projects acts on those projects only: every operation
outside \`/api/projects/{project_id}/\` answers it 403 (members, invites, creating a project, the organization's activity
log), but listing its projects, \`/api/users/@me\`, and listing, making and revoking the keys it could have made itself
(its user's, limited to its projects, with scopes it has).`;

/**
 * The OpenAPI document of every route registered after it (served at `/api/schema/`), and its browsable reference at
 * `/api/docs` (swagger-ui, with its own CSP). Register it before the routes, and before the rate limit: the reference's
 * page and files are not counted against the client.
 */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Service API', version: serverVersion, description: DESCRIPTION },
      servers: [{ url: '/' }],
      components: { securitySchemes: { PersonalApiKey: { type: 'http', scheme: 'bearer' } } },
      security: [{ PersonalApiKey: [] }],
    },
    transformObject: (documents) => ('openapiObject' in documents ? nameOperations(documents.openapiObject) : documents.swaggerObject),
  });
  // BaseLayout: no top bar (swagger-ui's logo, whose inline <style> the CSP refuses, and a box to explore other URLs).
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: DOCS_CSP, uiConfig: { layout: 'BaseLayout' } });
}
