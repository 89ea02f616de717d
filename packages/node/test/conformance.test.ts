// The flag-engine's conformance fixture (local-mode cases), run through this client's local evaluation path:
// each case's definitions are served at /flags/definitions by a fixture server, and read back through
// getFeatureFlag / getFeatureFlagPayload / getAllFlags with onlyEvaluateLocally.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cases from '@service/test-support/flag-cases.json' with { type: 'json' };
import { FlagEvaluationError, Service } from '../src/index';

type Expected = { enabled: boolean; variant: string | null; payload?: unknown } | 'inconclusive' | null;
interface Case {
  name: string;
  mode?: string;
  flags: unknown[];
  groupTypeMapping?: Record<string, string>;
  cohorts?: Record<string, unknown>;
  context: {
    distinctId: string;
    personProperties?: Record<string, unknown>;
    groups?: Record<string, string>;
    groupProperties?: Record<string, Record<string, unknown>>;
  };
  expected: Record<string, Expected>;
}

const localCases = (cases as unknown as Case[]).filter((c) => c.mode === 'local');
const supported = new Set(['distinctId', 'personProperties', 'groups', 'groupProperties']);

let server: http.Server;
let host: string;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const token = new URL(req.url!, 'http://x').searchParams.get('token');
    const c = localCases[Number(token)];
    if (!req.url!.startsWith('/flags/definitions') || !c) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ flags: c.flags, group_type_mapping: c.groupTypeMapping ?? {}, cohorts: c.cohorts ?? {} }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Payloads are stored as JSON strings; the client hands them out parsed. */
const parsed = (p: unknown) => (p === null || p === undefined ? undefined : typeof p === 'string' ? JSON.parse(p) : p);

describe('flag-engine conformance cases (local mode) through the client', () => {
  it('has local cases to run', () => expect(localCases.length).toBeGreaterThan(20));

  it.each(localCases.map((c, i) => [c.name, c, i] as const))('%s', async (_name, c, i) => {
    expect(Object.keys(c.context).filter((k) => !supported.has(k))).toEqual([]);
    const client = new Service(String(i), { host, personalApiKey: 'phx_fixture', featureFlagsPollingInterval: 60_000 });
    const { distinctId, ...context } = c.context;
    const options = { ...context, onlyEvaluateLocally: true, sendFeatureFlagEvents: false };
    try {
      const all = await client.getAllFlags(distinctId, options);
      for (const [key, expected] of Object.entries(c.expected)) {
        if (expected === null) {
          expect(await client.getFeatureFlag(key, distinctId, options), key).toBeUndefined();
          expect(all, key).not.toHaveProperty([key]);
        } else if (expected === 'inconclusive') {
          const error = await client.getFeatureFlag(key, distinctId, options).catch((e: unknown) => e);
          expect(error, key).toBeInstanceOf(FlagEvaluationError);
          expect(error, key).toMatchObject({ reason: 'inconclusive' });
          expect(all, key).not.toHaveProperty([key]);
        } else {
          const value = expected.variant ?? expected.enabled;
          expect(await client.getFeatureFlag(key, distinctId, options), key).toBe(value);
          expect(await client.isFeatureEnabled(key, distinctId, options), key).toBe(expected.enabled);
          expect(all[key], key).toBe(value);
          if ('payload' in expected) expect(await client.getFeatureFlagPayload(key, distinctId, options), key).toEqual(parsed(expected.payload));
        }
      }
    } finally {
      await client.shutdown(0);
    }
  });
});
