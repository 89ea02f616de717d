// Smaller security holes (issue 10, item 7): auth-failure throttling, CORS only on public SDK routes, security headers,
// slow-connection timeouts, no secrets in logs, LIKE wildcards in search, and a JSON 431.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '../src/app';
import { ConfigError, loadConfig } from '../src/config';
import { serviceEnv, startService, testStorage, type TestService } from './helpers';
import { eventually, spawnService } from '@service/test-support';

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(() => s.close());

describe('failed authentication is throttled per client address (issue 10: key guessing)', () => {
  let limited: TestService;
  beforeAll(async () => {
    limited = await startService({ authFailureLimitPerMinute: 3 } as Partial<AppConfig>);
  });
  afterAll(() => limited.close());

  const fromIp = (remoteAddress: string, url: string, headers: Record<string, string> = {}) => limited.app.inject({ url, headers, remoteAddress });

  it('answers 429 with Retry-After once an address used up its failed personal API keys, even for a right key', async () => {
    for (let i = 0; i < 3; i++) expect((await fromIp('10.0.0.1', '/api/projects/', limited.auth(`phx_guess${i}`))).statusCode).toBe(401);
    const guess = await fromIp('10.0.0.1', '/api/projects/', limited.auth('phx_guess-next'));
    expect(guess.statusCode).toBe(429);
    expect(guess.json()).toMatchObject({ type: 'throttled_error', code: 'throttled', attr: null });
    expect(Number(guess.headers['retry-after'])).toBeGreaterThan(0);
    // A right key from that address is throttled too: a 200 would tell the guesser it found one.
    expect((await fromIp('10.0.0.1', '/api/projects/', limited.headers)).statusCode).toBe(429);
    // Another address is not.
    expect((await fromIp('10.0.0.2', '/api/projects/', limited.headers)).statusCode).toBe(200);
  });

  it('counts unknown project tokens on SDK routes per address', async () => {
    const flags = (token: string) =>
      limited.app.inject({ method: 'POST', url: '/flags/?v=2', payload: { token, distinct_id: 'd' }, remoteAddress: '10.0.0.3' });
    for (let i = 0; i < 3; i++) expect((await flags(`phc_guess${i}`)).statusCode).toBe(401);
    const res = await flags('phc_guess-next');
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('throttled');
    expect((await flags(limited.token)).statusCode).toBe(429);
    expect((await fromIp('10.0.0.3', `/array/phc_guess/config`)).statusCode).toBe(429);
  });

  it('counts an IPv6 client by its /64', async () => {
    for (let i = 1; i <= 3; i++) expect((await fromIp(`2001:db8:7:7::${i}`, '/api/projects/', limited.auth(`phx_v6${i}`))).statusCode).toBe(401);
    expect((await fromIp('2001:db8:7:7:ffff::1', '/api/projects/', limited.headers)).statusCode).toBe(429);
    expect((await fromIp('2001:db8:7:8::1', '/api/projects/', limited.headers)).statusCode).toBe(200);
  });

  it('counts wrong invite tokens, in the link and when accepting, as failed authentications', async () => {
    const created = await limited.app.inject({ method: 'POST', url: '/api/organization/invites/', headers: limited.headers, payload: { role: 'member' } });
    const token = created.json().url.split('/invite/')[1];
    const lookUp = (remoteAddress: string, guess: string) => limited.app.inject({ url: `/api/invites/${guess}`, remoteAddress });
    const accept = (remoteAddress: string, guess: string) =>
      limited.app.inject({
        method: 'POST',
        url: `/api/invites/${guess}/accept`,
        remoteAddress,
        payload: { email: 'joiner@example.com', name: 'J', password: 'a long password' },
      });
    expect((await lookUp('10.0.0.4', 'a'.repeat(43))).statusCode).toBe(404);
    expect((await accept('10.0.0.4', 'b'.repeat(43))).statusCode).toBe(404);
    expect((await lookUp('10.0.0.4', 'malformed')).statusCode).toBe(404);
    const guess = await lookUp('10.0.0.4', 'c'.repeat(43));
    expect(guess.statusCode).toBe(429);
    expect(guess.json()).toMatchObject({ type: 'throttled_error', code: 'throttled' });
    // The right token waits too; from another address it works.
    expect((await lookUp('10.0.0.4', token)).statusCode).toBe(429);
    expect((await accept('10.0.0.4', token)).statusCode).toBe(429);
    expect((await lookUp('10.0.0.5', token)).statusCode).toBe(200);
    // Other 404s are no failed authentication.
    for (let i = 0; i < 5; i++) expect((await fromIp('10.0.0.6', '/api/projects/999999/', limited.headers)).statusCode).toBe(404);
    expect((await fromIp('10.0.0.6', '/api/projects/', limited.headers)).statusCode).toBe(200);
  });
});

describe('CORS only on public SDK routes', () => {
  const origin = 'https://evil.example';
  it.each(['/flags/definitions', '/api/feature_flag/local_evaluation'])('%s (personal API key) sends no CORS headers', async (path) => {
    const res = await s.app.inject({ url: `${path}?token=${s.token}`, headers: { ...s.headers, origin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('the REST API sends no CORS headers', async () => {
    const res = await s.app.inject({ url: '/api/projects/', headers: { ...s.headers, origin } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it.each([
    ['POST', '/flags/?v=2'],
    ['POST', '/decide/?v=3'],
    ['POST', '/e/'],
    ['GET', '/api/early_access_features/'],
    ['GET', '/array/TOKEN/config'],
  ] as const)('%s %s (public SDK route) echoes the Origin', async (method, path) => {
    const res = await s.app.inject({
      method,
      url: `${path.replace('TOKEN', s.token)}${path.includes('?') ? '&' : '?'}token=${s.token}`,
      headers: { origin },
      ...(method === 'POST' ? { payload: { token: s.token, distinct_id: 'd', event: 'e' } } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
  });
});

describe('security headers', () => {
  it('API responses carry nosniff, no-store, a strict CSP and no framing', async () => {
    const res = await s.app.inject({ url: '/api/projects/', headers: s.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBeDefined();
  });

  it('errors carry them too', async () => {
    const res = await s.app.inject({ url: '/api/projects/' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('the OpenAPI document is still served as JSON', async () => {
    const res = await s.app.inject({ url: '/api/schema' });
    expect(res.statusCode).toBe(200);
    expect(res.json().openapi).toMatch(/^3\./);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    ['POST', '/flags/?v=2'],
    ['POST', '/e/'],
    ['GET', '/api/early_access_features/'],
    ['GET', '/array/TOKEN/config'],
  ] as const)('%s %s (public SDK route) may be read cross-origin', async (method, path) => {
    const res = await s.app.inject({
      method,
      url: `${path.replace('TOKEN', s.token)}${path.includes('?') ? '&' : '?'}token=${s.token}`,
      headers: { origin: 'https://app.example' },
      ...(method === 'POST' ? { payload: { token: s.token, distinct_id: 'd', event: 'e' } } : {}),
    });
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('the REST API is same-origin only', async () => {
    const res = await s.app.inject({ url: '/api/projects/', headers: s.headers });
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});

/** A raw connection to a listening service; resolves with what the server sent once it closes the connection. */
function rawConnection(port: number, write: (socket: net.Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => write(socket));
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('error', (error) => ((error as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(error)));
    socket.on('close', () => resolve(received));
  });
}

/** The status and JSON body of a raw HTTP response. */
function parseRaw(raw: string) {
  const [head, body] = raw.split('\r\n\r\n');
  return { status: Number(head!.split(' ')[1]), body: JSON.parse(body!) as Record<string, unknown> };
}

describe('slow connections are closed', () => {
  let slow: TestService;
  let port: number;
  let timers: NodeJS.Timeout[] = [];
  beforeAll(async () => {
    slow = await startService({ headersTimeoutMs: 300, requestTimeoutMs: 600, connectionTimeoutMs: 800, keepAliveTimeoutMs: 500 } as Partial<AppConfig>);
    await slow.app.listen({ port: 0, host: '127.0.0.1' });
    port = (slow.app.server.address() as net.AddressInfo).port;
  });
  afterAll(async () => {
    timers.forEach(clearInterval);
    timers = [];
    await slow.close();
  });
  /** Writes a byte every 50 ms, so the connection is never idle. */
  const drip = (socket: net.Socket, byte: string) => timers.push(setInterval(() => socket.writable && socket.write(byte), 50));

  it('a partial request that sits idle is closed', async () => {
    const received = await rawConnection(port, (socket) => socket.write('GET /api/projects/ HTTP/1.1\r\nHost: x\r\n'));
    expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('headers sent a byte at a time are cut off with a JSON 408', async () => {
    const received = await rawConnection(port, (socket) => {
      socket.write('GET /api/projects/ HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      drip(socket, 'a');
    });
    const { status, body } = parseRaw(received);
    expect(status).toBe(408);
    expect(body).toMatchObject({ type: 'invalid_request', code: 'request_timeout', attr: null });
  });

  it('a body sent a byte at a time is cut off with a JSON 408', async () => {
    const received = await rawConnection(port, (socket) => {
      socket.write(
        `POST /e/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"token":"${slow.token}","event":"e","distinct_id":"`,
      );
      drip(socket, 'a');
    });
    const { status, body } = parseRaw(received);
    expect(status).toBe(408);
    expect(body).toMatchObject({ type: 'invalid_request', code: 'request_timeout', attr: null });
  });
});

describe('timeout and throttling configuration', () => {
  it('defaults to 10 s for headers, 30 s for a request and 60 failed authentications a minute', () => {
    expect(loadConfig({})).toMatchObject({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, authFailureLimitPerMinute: 60 });
  });

  it('refuses a headers timeout longer than the request timeout', () => {
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '10000' })).toThrow(ConfigError);
  });
});

describe('oversized headers', () => {
  it('answer a JSON 431', async () => {
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = s.app.server.address() as net.AddressInfo;
    const received = await rawConnection(port, (socket) => socket.write(`GET /api/projects/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100 * 1024)}\r\n\r\n`));
    const { status, body } = parseRaw(received);
    expect(status).toBe(431);
    expect(body).toMatchObject({ type: 'invalid_request', code: 'request_header_fields_too_large', attr: null });
    expect(typeof body.detail).toBe('string');
  });
});

describe('no secrets in the log', () => {
  it("masks the personal API key, project tokens, api_key query parameters and links' secrets", async () => {
    const storage = testStorage();
    const service = await spawnService(serviceEnv(storage, { LOG_LEVEL: 'info' }));
    try {
      const startup = service.output().length;
      const links = ['invitesecretA', 'invitesecretB', 'resetsecretC', 'resetsecretD'].map((secret) => secret.padEnd(43, 'x'));
      const secrets = [service.key, service.token, 'phx_wrongsecret123', 'phc_querysecret456', 'phx_personalsecret789', ...links];
      const get = (path: string, headers: Record<string, string> = {}) => fetch(`${service.url}${path}`, { headers });
      await get('/api/projects/', { authorization: `Bearer ${service.key}` });
      await get('/api/projects/', { authorization: 'Bearer phx_wrongsecret123' });
      await get(`/flags/definitions?token=${service.token}&send_cohorts`, { authorization: `Bearer ${service.key}` });
      await get(`/api/early_access_features/?api_key=phc_querysecret456`);
      await get(`/api/feature_flag/local_evaluation?personal_api_key=phx_personalsecret789&token=${service.token}`);
      await get(`/array/${service.token}/config`);
      await get(`/invite/${links[0]}`);
      await get(`/api/invites/${links[1]}/accept`);
      await get(`/reset-password/${links[2]}`);
      await get(`/api/password_resets/${links[3]}`);
      await fetch(`${service.url}/flags/?v=2&token=${service.token}`, { method: 'POST', body: JSON.stringify({ token: service.token, distinct_id: 'd' }) });
      // The log is written asynchronously: wait for the eleven request lines (a busy machine may take a moment).
      const logged = () => service.output().slice(startup);
      const requestLines = () =>
        logged()
          .split('\n')
          .filter((line) => line.includes('"method":')).length;
      await eventually(() => requestLines() >= 11);
      const log = logged();
      expect(requestLines()).toBe(11);
      expect(log).toContain('/flags/definitions'); // the requests were logged
      expect(log).toContain('send_cohorts'); // other query parameters are kept
      expect(log).toContain('/array/[redacted]/config');
      expect(log).toContain('/api/invites/[redacted]/accept');
      expect(log).toContain('/reset-password/[redacted]');
      for (const secret of secrets) expect(log).not.toContain(secret);
    } finally {
      await service.stop();
      await storage.drop();
    }
  });
});

describe('search treats % and _ literally', () => {
  beforeAll(async () => {
    for (const [key, name] of [
      ['like-percent', '100% rollout'],
      ['like-plain', '100 percent rollout'],
      ['likeunderscore', 'snake_case'],
      ['like-nounderscore', 'snakexcase'],
      ['like-backslash', 'back\\slash'],
      ['like-noslash', 'backslash'],
    ]) {
      const res = await s.app.inject({ method: 'POST', url: `/api/projects/${s.projectId}/feature_flags/`, headers: s.headers, payload: { key, name } });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  const search = async (term: string) => {
    const res = await s.app.inject({ url: `/api/projects/${s.projectId}/feature_flags/?search=${encodeURIComponent(term)}`, headers: s.headers });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().results as { key: string }[]).map((f) => f.key).sort();
  };

  it.each([
    ['%', ['like-percent']],
    ['0%', ['like-percent']],
    ['e_c', ['likeunderscore']],
    ['\\', ['like-backslash']],
    ['k\\s', ['like-backslash']],
  ])('"%s" finds only names containing it', async (term, keys) => {
    expect(await search(term)).toEqual(keys);
  });

  it('plain words still match key or name', async () => {
    expect(await search('ROLLOUT')).toEqual(['like-percent', 'like-plain']);
  });
});
