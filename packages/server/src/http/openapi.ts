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

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `anyOf` of one-value enums of one type (TypeBox's union of literals) as the one enum it means, which generators name. */
function asEnum(schema: Schema): Schema {
  const members = schema.anyOf;
  if (!Array.isArray(members) || members.length < 2) return schema;
  const type = (members[0] as Schema).type;
  const single = (m: Schema) => Object.keys(m).every((k) => k === 'type' || k === 'enum') && m.type === type && Array.isArray(m.enum) && m.enum.length === 1;
  if (!members.every((m) => isSchema(m) && single(m))) return schema;
  const { anyOf: _, ...rest } = schema;
  return { ...rest, type, enum: members.map((m) => (m as { enum: unknown[] }).enum[0]) };
}

/** The schemas inside a schema, as [holder, key] pairs (the keywords that hold schemas in the route schemas). */
function* subschemas(schema: Schema): Generator<[Record<string | number, unknown>, string | number]> {
  for (const key of ['items', 'additionalProperties', 'not'] as const) if (isSchema(schema[key])) yield [schema, key];
  for (const key of ['properties', 'patternProperties'] as const) {
    const map = schema[key];
    if (isSchema(map)) for (const name of Object.keys(map)) if (isSchema(map[name])) yield [map, name];
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) for (let i = 0; i < list.length; i++) if (isSchema(list[i])) yield [list as unknown as Record<number, unknown>, i];
  }
}

/**
 * Gives the response schemas that carry a `title` (`FeatureFlag`, `Stage`) one place, `components.schemas.<title>`,
 * and refers to it from every response that has them, so that clients generated from the document (the web app's
 * types) have one named type for each. Request bodies stay inline: their constraints read best where they apply.
 * Two different schemas with one title are a mistake in the routes, and fail the document.
 */
export function nameSchemas<T extends { paths?: object; components?: object }>(document: T): T & { components: { schemas: Record<string, unknown> } } {
  const schemas: Record<string, Schema> = {};
  const texts = new Map<string, string>();
  const visit = (schema: Schema): Schema => {
    schema = asEnum(schema);
    for (const [holder, key] of subschemas(schema)) holder[key] = visit(holder[key] as Schema);
    // A schema that may be null where it is used (a union with null, which the document writes as the schema with
    // `nullable`, and the union's description) is a reference to the schema, or null, there.
    const { title, nullable, ...rest } = schema;
    if (typeof title !== 'string' || !/^[A-Z]\w*$/.test(title)) return schema;
    const { description, ...own } = rest;
    const named = nullable === true ? own : rest;
    const text = JSON.stringify(named);
    if (texts.has(title) && texts.get(title) !== text) throw new Error(`Two different schemas are named ${title}: give one of them its own title`);
    texts.set(title, text);
    schemas[title] = { title, ...named };
    const ref = { $ref: `#/components/schemas/${title}` };
    return nullable === true ? { allOf: [ref], nullable: true, ...(description === undefined ? {} : { description }) } : ref;
  };
  for (const item of Object.values(document.paths ?? {}) as Record<string, unknown>[])
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      for (const response of Object.values((operation as { responses?: Record<string, unknown> }).responses ?? {}))
        for (const media of Object.values((response as { content?: Record<string, { schema?: unknown }> }).content ?? {}))
          if (isSchema(media.schema)) media.schema = visit(media.schema);
    }
  const components = (document.components ?? {}) as { schemas?: Record<string, unknown> };
  // With those the document names already (a schema that refers to itself, by its `$id`), in one order.
  const sorted = Object.fromEntries(Object.entries({ ...components.schemas, ...schemas }).sort(([a], [b]) => a.localeCompare(b)));
  return { ...document, components: { ...components, schemas: sorted } };
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
    // A schema that refers to itself (a tree's node) is named by its `$id` among the document's schemas.
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    // A copy: the document's schemas may be the objects the routes validate and serialize with.
    transformObject: (documents) =>
      'openapiObject' in documents ? nameSchemas(nameOperations(structuredClone(documents.openapiObject))) : documents.swaggerObject,
  });
  // BaseLayout: no top bar (swagger-ui's logo, whose inline <style> the CSP refuses, and a box to explore other URLs).
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: DOCS_CSP, uiConfig: { layout: 'BaseLayout' } });
}
