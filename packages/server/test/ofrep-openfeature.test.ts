// The official OpenFeature server SDK with its OFREP provider (@openfeature/server-sdk, @openfeature/ofrep-provider)
// against the service listening on a port: values, variants, objects, reasons, metadata and errors as callers see them.
import { ErrorCode, OpenFeature, type Client } from '@openfeature/server-sdk';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './helpers';

let s: TestService;
let baseUrl: string;
let client: Client;

beforeAll(async () => {
  s = await startService();
  baseUrl = await s.app.listen({ port: 0, host: '127.0.0.1' });
  const flags: object[] = [
    { key: 'new-nav', filters: { groups: [{ properties: [{ key: 'plan', value: 'pro', type: 'person' }], rollout_percentage: 100 }] } },
    {
      key: 'pricing-test',
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: {
          variants: [
            { key: 'control', rollout_percentage: 50 },
            { key: 'cheap', rollout_percentage: 50 },
          ],
        },
      },
    },
    { key: 'theme', filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: '{"accent":"#7f56d9","dense":true}' } } },
    { key: 'retired', active: false, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } },
  ];
  for (const payload of flags) {
    const res = await s.app.inject({ method: 'POST', url: `/api/projects/${s.projectId}/feature_flags/`, headers: s.headers, payload });
    expect(res.statusCode, res.body).toBe(201);
  }
  await OpenFeature.setProviderAndWait('service', new OFREPProvider({ baseUrl, headers: [['Authorization', `Bearer ${s.token}`]] }));
  client = OpenFeature.getClient('service');
});
afterAll(async () => {
  await OpenFeature.close();
  await s.close();
});

describe('@openfeature/server-sdk with @openfeature/ofrep-provider', () => {
  it('reads a boolean flag for the context, with its reason and metadata', async () => {
    const pro = await client.getBooleanDetails('new-nav', false, { targetingKey: 'ana', plan: 'pro' });
    expect(pro).toMatchObject({ value: true, variant: 'true', reason: 'TARGETING_MATCH', flagMetadata: { enabled: true, version: 1 } });
    expect(await client.getBooleanValue('new-nav', true, { targetingKey: 'ana', plan: 'free' })).toBe(false);
    expect(await client.getBooleanDetails('retired', true, { targetingKey: 'ana' })).toMatchObject({ value: false, reason: 'DISABLED' });
  });

  it('reads a multivariate flag as its variant, the same one for the same person on every call', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const details = await client.getStringDetails('pricing-test', 'none', { targetingKey: `visitor-${i}` });
      expect(details.reason).toBe('SPLIT');
      expect(details.variant).toBe(details.value);
      expect(await client.getStringValue('pricing-test', 'none', { targetingKey: `visitor-${i}` })).toBe(details.value);
      seen.add(details.value);
    }
    expect(seen).toEqual(new Set(['control', 'cheap']));
  });

  it('reads a flag with a JSON payload as an object', async () => {
    expect(await client.getObjectValue('theme', {}, { targetingKey: 'ana' })).toEqual({ accent: '#7f56d9', dense: true });
  });

  it('gives the default with the OFREP error code for a missing flag, a missing targeting key, a bad context and a wrong type', async () => {
    expect(await client.getBooleanDetails('no-such-flag', true, { targetingKey: 'ana' })).toMatchObject({
      value: true,
      reason: 'ERROR',
      errorCode: ErrorCode.FLAG_NOT_FOUND,
    });
    expect(await client.getBooleanDetails('new-nav', true, { plan: 'pro' })).toMatchObject({ value: true, errorCode: ErrorCode.TARGETING_KEY_MISSING });
    expect(await client.getBooleanDetails('new-nav', true, { targetingKey: 'ana', groups: 'acme' })).toMatchObject({
      value: true,
      errorCode: ErrorCode.INVALID_CONTEXT,
    });
    expect(await client.getNumberDetails('pricing-test', 7, { targetingKey: 'ana' })).toMatchObject({ value: 7, errorCode: ErrorCode.TYPE_MISMATCH });
  });

  it('gives the default, with an error, to a client whose token is wrong', async () => {
    await OpenFeature.setProviderAndWait('wrong', new OFREPProvider({ baseUrl, headers: [['X-API-Key', 'phc_wrong']] }));
    const details = await OpenFeature.getClient('wrong').getBooleanDetails('new-nav', false, { targetingKey: 'ana', plan: 'pro' });
    expect(details).toMatchObject({ value: false, reason: 'ERROR', errorCode: ErrorCode.GENERAL });
  });
});
