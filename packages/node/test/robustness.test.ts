// Issue 10, item 8: the client never throws into the host app. Flag methods throw only
// FlagEvaluationError (or answer the documented default); event methods never throw, and a value JSON
// cannot hold costs that value, not the event.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FlagEvaluationError, Service, type FlagOptions } from '../src/index';
import { startService, type RunningService } from './service';

let service: RunningService;
let local: Service;
let remote: Service;
const warn = vi.fn();
const logger = { warn, error: vi.fn() };

beforeAll(async () => {
  service = await startService();
  await service.createFlag({ key: 'everyone', filters: { groups: [{ rollout_percentage: 100 }] } });
  await service.createFlag({ key: 'young', filters: { groups: [{ properties: [{ key: 'age', type: 'person', operator: 'lte', value: 25 }] }] } });
  await service.createFlag({ key: 'pro', filters: { groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: 'pro' }] }] } });
  local = new Service(service.token, { host: service.url, personalApiKey: service.key, logger });
  remote = new Service(service.token, { host: service.url, logger });
  await local.reloadFeatureFlags();
});

afterAll(async () => {
  await Promise.all([local?.shutdown(), remote?.shutdown()]);
  await service?.close();
});

/** `{ age, self: <itself> }`: a person property object JSON.stringify cannot serialize. */
function circularPerson(age: number): Record<string, unknown> {
  const person: Record<string, unknown> = { age };
  person.self = person;
  return person;
}

describe('flag methods with null options (issue 10, item 8)', () => {
  for (const [name, client] of [
    ['local', () => local],
    ['remote', () => remote],
  ] as const) {
    it(`${name}: null options mean no options`, async () => {
      const c = client();
      const none = null as unknown as FlagOptions;
      await expect(c.isFeatureEnabled('everyone', 'null-opts', none)).resolves.toBe(true);
      await expect(c.getFeatureFlag('everyone', 'null-opts', none)).resolves.toBe(true);
      await expect(c.getFeatureFlagPayload('everyone', 'null-opts', none)).resolves.toBeUndefined();
      await expect(c.getAllFlags('null-opts', none)).resolves.toMatchObject({ everyone: true });
      await expect(c.getAllFlagsAndPayloads('null-opts', none)).resolves.toMatchObject({ featureFlags: { everyone: true } });
    });
  }
});

describe('flag methods with person properties JSON cannot hold (issue 10, item 8)', () => {
  it('a BigInt person property is sent as its decimal string, as posthog-node does', async () => {
    await expect(remote.isFeatureEnabled('young', 'bigint-1', { personProperties: { age: 20n } })).resolves.toBe(true);
    await expect(remote.isFeatureEnabled('young', 'bigint-1', { personProperties: { age: 30n } })).resolves.toBe(false);
    // 'pro' cannot be decided locally (no plan given): the service is asked, with the BigInt in the request.
    await expect(local.getAllFlags('bigint-2', { personProperties: { age: 20n } })).resolves.toMatchObject({ everyone: true, young: true, pro: false });
  });

  it('a circular person property is left out (with a warning); the other properties still count', async () => {
    warn.mockClear();
    await expect(remote.isFeatureEnabled('young', 'circular-1', { personProperties: circularPerson(20) })).resolves.toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('personProperties.self'));
    await expect(local.getAllFlags('circular-2', { personProperties: circularPerson(20) })).resolves.toMatchObject({ everyone: true, young: true, pro: false });
    const groupProperties = { company: circularPerson(1) };
    await expect(remote.getAllFlags('circular-3', { groups: { company: 'acme' }, groupProperties })).resolves.toMatchObject({ everyone: true });
  });

  it('local evaluation reads person properties as the service receives them: a Symbol is left out, an object is a plain object; never a TypeError', async () => {
    const onlyLocally = (plan: unknown) => local.isFeatureEnabled('pro', 'odd-values', { personProperties: { plan }, onlyEvaluateLocally: true });
    const byService = (plan: unknown) => remote.isFeatureEnabled('pro', 'odd-values', { personProperties: { plan } });
    // JSON leaves a Symbol out: locally the property is missing, so the flag cannot be decided here.
    await expect(onlyLocally(Symbol('pro'))).rejects.toMatchObject({ name: 'FlagEvaluationError', reason: 'inconclusive' });
    // String() throws for a null-prototype object; a toString the service never sees must not count either.
    for (const plan of [Object.create(null), { toString: () => 'pro' }]) {
      await expect(onlyLocally(plan)).resolves.toBe(await byService(plan));
    }
  });
});

describe('a malformed /flags answer (issue 10, item 8)', () => {
  let fake: http.Server;
  let answer = '';
  let client: Service;

  beforeAll(async () => {
    // A stand-in for a broken (or other) server: answers every request with `answer`.
    fake = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(req.url?.startsWith('/flags') ? answer : '{}'));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    client = new Service('phc_fake', { host: `http://127.0.0.1:${(fake.address() as AddressInfo).port}`, logger: { warn: vi.fn(), error: vi.fn() } });
  });

  afterAll(async () => {
    await client?.shutdown();
    await new Promise((resolve) => fake?.close(resolve));
  });

  it('a null flag is a flag the service failed to evaluate: FlagEvaluationError api_error, and left out of getAllFlags', async () => {
    for (const body of [
      { flags: { x: null, y: { key: 'y', enabled: true } } },
      { flags: { x: 'on', y: { key: 'y', enabled: true } } },
      { flags: { x: { key: 'x', enabled: 'yes' }, y: { key: 'y', enabled: true } } },
      { flags: { x: { key: 'x', enabled: true, variant: 7 }, y: { key: 'y', enabled: true } } },
      { featureFlags: { x: null, y: true } },
      { featureFlags: { x: 1, y: true } },
    ]) {
      answer = JSON.stringify(body);
      const error = await client.isFeatureEnabled('x', 'malformed').catch((e: unknown) => e);
      expect(error, answer).toBeInstanceOf(FlagEvaluationError);
      expect(error, answer).toMatchObject({ reason: 'api_error' });
      await expect(client.getAllFlags('malformed'), answer).resolves.toEqual({ y: true });
    }
  });

  it('an answer without a flags object is an api_error, not "no flags"', async () => {
    for (const body of [{ flags: null }, { featureFlags: null }, { flags: ['x'] }, {}, []]) {
      answer = JSON.stringify(body);
      await expect(client.isFeatureEnabled('x', 'malformed'), answer).rejects.toMatchObject({ name: 'FlagEvaluationError', reason: 'api_error' });
      await expect(client.getAllFlags('malformed'), answer).rejects.toMatchObject({ name: 'FlagEvaluationError', reason: 'api_error' });
    }
  });
});

describe('events with values JSON cannot hold (issue 10, item 8)', () => {
  it('capture, identify and groupIdentify keep the event and drop only the bad value, with a warning', async () => {
    const warnings = vi.fn();
    const errors: Error[] = [];
    const c = new Service(service.token, { host: service.url, logger: { warn: warnings, error: vi.fn() } });
    c.on('error', (e) => errors.push(e));
    const cart: Record<string, unknown> = { items: 2 };
    cart.self = cart;
    expect(() =>
      c.capture({ distinctId: 'robust-1', event: 'odd-values', properties: { big: 12345678901234567890n, cart, fn: () => 1, sym: Symbol('s'), kept: 'yes' } }),
    ).not.toThrow();
    c.identify({ distinctId: 'robust-1', properties: { plan: 'pro', me: circularPerson(40), $set_once: { first: 1n } } });
    c.groupIdentify({ groupType: 'company', groupKey: 'acme', properties: { seats: 10n, org: circularPerson(1) } });
    await c.shutdown();
    expect(errors).toEqual([]);
    expect(warnings).toHaveBeenCalledWith(expect.stringContaining('properties.cart.self'));

    const [captured] = (await service.waitForEvents({ event: 'odd-values', distinct_id: 'robust-1' }, 1)).results;
    expect(captured!.properties).toMatchObject({ big: '12345678901234567890', cart: { items: 2 }, kept: 'yes' });
    expect(captured!.properties).not.toHaveProperty('cart.self');
    expect(captured!.properties).not.toHaveProperty('fn');
    expect(captured!.properties).not.toHaveProperty('sym');
    const [identify] = (await service.waitForEvents({ event: '$identify', distinct_id: 'robust-1' }, 1)).results;
    expect(identify!.properties).toMatchObject({ $set: { plan: 'pro', me: { age: 40 } }, $set_once: { first: '1' } });
    const [group] = (await service.waitForEvents({ event: '$groupidentify', distinct_id: '$company_acme' }, 1)).results;
    expect(group!.properties).toMatchObject({ $group_set: { seats: '10', org: { age: 1 } } });
  });
});
