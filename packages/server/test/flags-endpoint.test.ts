import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type AppConfig } from '../src/app';
import { personReads } from '../src/persons/store';
import { startService, testConfig, type TestService } from './helpers';

// `POST /flags` and `/decide` reach their endpoint two ways: over HTTP the app's server hands them over before Fastify
// routes anything; through Fastify (inject) the routes hand them over. Both must answer alike, errors included.

let s: TestService;
beforeAll(async () => {
  s = await startService();
  const flag = (key: string, filters: Record<string, unknown>) =>
    s.app.inject({ method: 'POST', url: `/api/projects/${s.projectId}/feature_flags/`, headers: s.headers, payload: { key, filters } });
  await flag('half', { groups: [{ properties: [], rollout_percentage: 50 }] });
  await flag('pro', { groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro'] }], rollout_percentage: 100 }] });
  await flag('colors', {
    groups: [{ properties: [], rollout_percentage: 100 }],
    multivariate: {
      variants: [
        { key: 'red', rollout_percentage: 50 },
        { key: 'blue', rollout_percentage: 50 },
      ],
    },
    payloads: { red: '{"hex":"#f00"}' },
  });
});
afterAll(() => s.close());

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
  /** Header names as sent, in order (over HTTP only). */
  names?: string[];
}

/** Two apps on one database, one reached over HTTP and one through inject, each with its own limits' counters. */
async function pair(config: Partial<AppConfig>) {
  const over = await buildApp({ ...testConfig, ...config }, s.services);
  const through = await buildApp({ ...testConfig, ...config }, s.services);
  await over.listen({ port: 0, host: '127.0.0.1' });
  return { over, through, close: () => Promise.all([over.close(), through.close()]) };
}

function overHttp(app: FastifyInstance, url: string, payload: string | Buffer, headers: Record<string, string>): Promise<Answer> {
  const { port } = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { port, host: '127.0.0.1', method: 'POST', path: url, headers: { ...headers, 'content-length': String(Buffer.byteLength(payload)) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
            names: response.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** An answer with what differs between any two answers (date, request id, evaluation time, the seconds left of a window) made equal. */
function comparable({ status, headers, body }: Omit<Answer, 'names'>) {
  const kept = Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name))
      .map(([name, value]) => [name, ['x-ratelimit-reset', 'retry-after'].includes(name) ? Number(value) > 50 : value]),
  );
  return {
    status,
    headers: kept,
    body: body
      .replace(/"requestId":"[^"]+"/, '"requestId":"-"')
      .replace(/"evaluatedAt":\d+/, '"evaluatedAt":0')
      .replace(/available in (\d+) seconds/, (_, seconds: string) => `available in ${Number(seconds) > 50 ? 'most of a minute' : seconds} seconds`),
  };
}

type Case = [name: string, url: string, body: string | Buffer, headers?: Record<string, string>];

async function sameAnswers(config: Partial<AppConfig>, cases: Case[]) {
  const { over, through, close } = await pair(config);
  try {
    for (const [name, url, body, headers = {}] of cases) {
      const all = { 'content-type': 'application/json', ...headers };
      const viaHttp = await overHttp(over, url, body, all);
      const viaInject = await through.inject({ method: 'POST', url, payload: body, headers: all });
      expect(comparable(viaHttp), name).toEqual(comparable({ status: viaInject.statusCode, headers: viaInject.headers, body: viaInject.body }));
    }
  } finally {
    await close();
  }
}

describe('POST /flags and /decide over HTTP and through Fastify', () => {
  const json = (body: Record<string, unknown>) => JSON.stringify({ token: s.token, ...body });

  it('answers every shape, encoding and mistake alike', async () => {
    await sameAnswers({ sdkBodyLimit: 4096 }, [
      ['v2', '/flags/?v=2', json({ distinct_id: 'u1' })],
      ['no slash', '/flags?v=2', json({ distinct_id: 'u2', person_properties: { plan: 'pro' } })],
      ['legacy', '/flags/?v=1', json({ distinct_id: 'u3' })],
      ['config', '/flags/?v=2&config=true', json({ distinct_id: 'u3' })],
      ['decide v3', '/decide/?v=3', json({ distinct_id: 'u4' })],
      ['decide v2', '/decide/?v=2', json({ distinct_id: 'u4' })],
      ['decide list', '/decide', json({ distinct_id: 'u4' })],
      ['some keys', '/flags/?v=2', json({ distinct_id: 'u5', flag_keys_to_evaluate: ['colors', 'nope', 'colors'] })],
      ['gzip', '/flags/?v=2', gzipSync(json({ distinct_id: 'u6' })), { 'content-encoding': 'gzip' }],
      ['base64', '/flags/?v=2&compression=base64', Buffer.from(json({ distinct_id: 'u7' })).toString('base64')],
      [
        'form',
        '/flags/?v=2',
        `data=${encodeURIComponent(Buffer.from(json({ distinct_id: 'u8' })).toString('base64'))}`,
        { 'content-type': 'application/x-www-form-urlencoded' },
      ],
      ['text/plain', '/flags/?v=2', json({ distinct_id: 'u9' }), { 'content-type': 'text/plain' }],
      ['origin', '/flags/?v=2', json({ distinct_id: 'u9' }), { origin: 'https://app.example.com', 'access-control-request-headers': 'content-type,x-a' }],
      ['token in the query', `/flags/?v=2&token=${s.token}`, JSON.stringify({ distinct_id: 'u1' })],
      ['unknown token in the query', '/flags/?v=2&token=phc_nope', JSON.stringify({ distinct_id: 'u1' })],
      ['no token', '/flags/?v=2', JSON.stringify({ distinct_id: 'u1' })],
      ['unknown token', '/flags/?v=2', JSON.stringify({ token: 'phc_nope', distinct_id: 'u1' })],
      ['bad JSON', '/flags/?v=2', '{"token":'],
      ['empty body', `/flags/?v=2&token=${s.token}`, ''],
      ['a list', `/flags/?v=2&token=${s.token}`, '[1]'],
      ['no distinct id', '/flags/?v=2', json({})],
      ['bad person properties', '/flags/?v=2', json({ distinct_id: 'u', person_properties: 'x' })],
      ['too deep', '/flags/?v=2', json({ distinct_id: 'u', person_properties: JSON.parse(`${'{"a":'.repeat(150)}1${'}'.repeat(150)}`) })],
      ['v twice', '/flags/?v=2&v=3', json({ distinct_id: 'u' })],
      ['too large', '/flags/?v=2', json({ distinct_id: 'u', person_properties: { x: 'y'.repeat(5000) } })],
      ['disabled', '/flags/?v=2', json({ distinct_id: 'u', disable_flags: true })],
    ]);
  });

  it('counts the per-project limit of each path, and the failed-auth throttle, alike', async () => {
    await sameAnswers({ publicRateLimitPerMinute: 2, authFailureLimitPerMinute: 2 }, [
      ['first', '/flags/?v=2', json({ distinct_id: 'u' })],
      ['decide has its own budget', '/decide/?v=3', json({ distinct_id: 'u' })],
      ['second', '/flags/?v=2', json({ distinct_id: 'u' })],
      ['over the limit', '/flags/?v=2', json({ distinct_id: 'u' })],
      ['unknown token', '/flags/?v=2', JSON.stringify({ token: 'phc_a', distinct_id: 'u' })],
      ['unknown token again', '/flags/?v=2', JSON.stringify({ token: 'phc_b', distinct_id: 'u' })],
      ['throttled, even with a right token', '/decide/?v=3', json({ distinct_id: 'u' })],
    ]);
  });

  it('sends each header once over HTTP: the security headers, readable from any site, CORS, the rate limit, on answers and errors alike', async () => {
    const { over, close } = await pair({ publicRateLimitPerMinute: 1 });
    try {
      const origin = { origin: 'https://app.example.com', 'content-type': 'application/json' };
      const answers = [
        await overHttp(over, '/flags/?v=2', json({ distinct_id: 'u' }), origin),
        await overHttp(over, '/flags/?v=2', json({ distinct_id: 'u' }), origin),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 429]);
      for (const answer of answers) {
        expect(new Set(answer.names).size).toBe(answer.names!.length);
        expect(answer.headers).toMatchObject({
          'cross-origin-resource-policy': 'cross-origin',
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'SAMEORIGIN',
          'access-control-allow-origin': 'https://app.example.com',
          'access-control-allow-credentials': 'true',
          'x-ratelimit-limit': '1',
          'content-type': 'application/json; charset=utf-8',
        });
        expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
        expect(answer.headers['strict-transport-security']).toContain('max-age=');
      }
      expect(answers[1].headers['retry-after']).toMatch(/^\d+$/);
    } finally {
      await close();
    }
  });

  it('answers a throttled address with CORS headers, so that a browser can read the 429', async () => {
    const { over, close } = await pair({ authFailureLimitPerMinute: 1 });
    try {
      const origin = { origin: 'https://app.example.com', 'content-type': 'application/json' };
      expect((await overHttp(over, '/flags/?v=2', JSON.stringify({ token: 'phc_nope', distinct_id: 'u' }), origin)).status).toBe(401);
      const throttled = await overHttp(over, '/flags/?v=2', json({ distinct_id: 'u' }), origin);
      expect(throttled.status).toBe(429);
      expect(throttled.headers).toMatchObject({ 'access-control-allow-origin': 'https://app.example.com', 'cross-origin-resource-policy': 'cross-origin' });
    } finally {
      await close();
    }
  });

  it('closes the connection after refusing a body it did not read', async () => {
    const { over, close } = await pair({ sdkBodyLimit: 1024 });
    try {
      const refused = await overHttp(over, '/flags/?v=2', json({ distinct_id: 'u', person_properties: { x: 'y'.repeat(2000) } }), {});
      expect(refused.status).toBe(413);
      expect(refused.headers.connection).toBe('close');
      const answered = await overHttp(over, '/flags/?v=2', json({ distinct_id: 'u' }), {});
      expect(answered.headers.connection).toBe('keep-alive');
    } finally {
      await close();
    }
  });

  it('with TRUST_PROXY, throttles the client address X-Forwarded-For names, not the proxy', async () => {
    const { over, close } = await pair({ trustProxy: true, authFailureLimitPerMinute: 1 });
    try {
      const from = (address: string) => ({ 'x-forwarded-for': address, 'content-type': 'application/json' });
      expect((await overHttp(over, '/flags/?v=2', JSON.stringify({ token: 'phc_nope', distinct_id: 'u' }), from('203.0.113.7'))).status).toBe(401);
      expect((await overHttp(over, '/flags/?v=2', json({ distinct_id: 'u' }), from('203.0.113.7'))).status).toBe(429);
      expect((await overHttp(over, '/flags/?v=2', json({ distinct_id: 'u' }), from('198.51.100.4'))).status).toBe(200);
    } finally {
      await close();
    }
  });

  it('sends names, variants and payloads past ASCII escaped: ASCII bytes, counted in Content-Length, the same JSON', async () => {
    const name = 'Café ☕ 新機能 🚀';
    const payload = JSON.stringify({ greeting: 'héllo 👋', separator: '\u2028' });
    const created = await s.app.inject({
      method: 'POST',
      url: `/api/projects/${s.projectId}/feature_flags/`,
      headers: s.headers,
      payload: {
        key: 'unicode',
        name,
        filters: {
          groups: [{ properties: [], rollout_percentage: 100 }],
          multivariate: { variants: [{ key: 'grün', rollout_percentage: 100 }] },
          payloads: { grün: payload },
        },
      },
    });
    expect(created.statusCode).toBe(201);
    const { over, close } = await pair({});
    try {
      for (const url of ['/flags/?v=2', '/decide/?v=3']) {
        const answer = await overHttp(over, url, json({ distinct_id: 'u1' }), {});
        expect(answer.status).toBe(200);
        expect(answer.body).toMatch(/^[\x20-\x7e]+$/);
        expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
        const body = JSON.parse(answer.body) as {
          flags?: Record<string, { variant: string; metadata: { description: string } }>;
          featureFlags: object;
          featureFlagPayloads: object;
        };
        expect(body.featureFlags).toMatchObject({ unicode: 'grün' });
        expect(body.featureFlagPayloads).toMatchObject({ unicode: payload });
        if (url.startsWith('/flags')) expect(body.flags!.unicode).toMatchObject({ variant: 'grün', metadata: { description: name, payload } });
      }
    } finally {
      await close();
    }
  });
});

describe('person reads', () => {
  it('see a write made in the same turn of the event loop, after a read began its snapshot', async () => {
    const read = s.services.db.preparedRead(personReads.propertiesQuery(s.services.db.kysely));
    const now = new Date().toISOString();
    expect(await read(s.projectId, 'same-turn')).toEqual([]);
    // No timer or I/O between the reads: on SQLite they share a turn, and so its read transaction, unless a write ends it.
    const { id } = await s.services.db.kysely
      .insertInto('persons')
      .values({ project_id: s.projectId, uuid: crypto.randomUUID(), properties: '{"plan":"pro"}', is_identified: 1, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await s.services.db.kysely.insertInto('person_distinct_ids').values({ project_id: s.projectId, distinct_id: 'same-turn', person_id: id }).execute();
    expect(await read(s.projectId, 'same-turn')).toEqual([{ properties: '{"plan":"pro"}' }]);
  });
});
