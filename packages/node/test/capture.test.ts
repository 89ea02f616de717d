import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Service, type ServiceOptions } from '../src/index';
import { startService, type RunningService } from './service';

let service: RunningService;
beforeAll(async () => {
  service = await startService();
});
afterAll(() => service?.close());

/** A client whose errors are collected instead of logged. */
function client(options: ServiceOptions = {}, token = service.token) {
  const errors: Error[] = [];
  const c = new Service(token, { host: service.url, ...options });
  c.on('error', (e) => errors.push(e));
  return { c, errors };
}

describe('capture', () => {
  it('reaches the database with uuid, timestamp, $lib, $lib_version and $groups', async () => {
    const { c, errors } = client();
    const at = new Date(Date.now() - 60_000);
    c.capture({
      distinctId: 'cap-1',
      event: 'purchase',
      properties: { amount: 30 },
      groups: { company: 'acme' },
      timestamp: at,
      uuid: '01890000-0000-7000-8000-000000000001',
    });
    await c.flush();
    const { results } = await service.waitForEvents({ event: 'purchase', distinct_id: 'cap-1' }, 1);
    expect(results).toHaveLength(1);
    const [stored] = results;
    expect(stored).toMatchObject({ id: '01890000-0000-7000-8000-000000000001', event: 'purchase', distinct_id: 'cap-1' });
    expect(stored!.properties).toMatchObject({ amount: 30, $lib: 'service-node', $lib_version: '0.1.0', $groups: { company: 'acme' } });
    expect(Math.abs(Date.parse(stored!.timestamp) - at.getTime())).toBeLessThan(5_000);
    expect(errors).toEqual([]);
    await c.shutdown();
  });

  it('stores identify, alias and groupIdentify as $identify, $create_alias and $groupidentify (gzip off)', async () => {
    const { c, errors } = client({ gzip: false });
    c.identify({ distinctId: 'cap-2', properties: { email: 'ada@example.com', $set_once: { first_seen: '2026-01-01' } } });
    c.alias({ distinctId: 'cap-2', alias: 'ada@example.com' });
    c.groupIdentify({ groupType: 'company', groupKey: 'acme', properties: { plan: 'enterprise' } });
    await c.shutdown();
    expect(errors).toEqual([]);
    const identify = await service.waitForEvents({ event: '$identify', distinct_id: 'cap-2' }, 1);
    expect(identify.results[0]!.properties).toMatchObject({ $set: { email: 'ada@example.com' }, $set_once: { first_seen: '2026-01-01' } });
    const alias = await service.waitForEvents({ event: '$create_alias', distinct_id: 'cap-2' }, 1);
    expect(alias.results[0]!.properties).toMatchObject({ distinct_id: 'cap-2', alias: 'ada@example.com' });
    const group = await service.waitForEvents({ event: '$groupidentify', distinct_id: '$company_acme' }, 1);
    expect(group.results[0]!.properties).toMatchObject({ $group_type: 'company', $group_key: 'acme', $group_set: { plan: 'enterprise' } });
  });

  it('loses nothing on shutdown: 1,000 events captured, then shutdown, gives 1,000 stored', async () => {
    const { c, errors } = client({ flushAt: 20, flushInterval: 5_000 });
    const uuids = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const uuid = crypto.randomUUID();
      uuids.add(uuid);
      c.capture({ distinctId: 'cap-3', event: 'bulk', properties: { i }, uuid });
    }
    await c.shutdown();
    expect(errors).toEqual([]);
    const page = await service.waitForEvents({ event: 'bulk', distinct_id: 'cap-3' }, 1000);
    expect(page.count).toBe(1000);
    expect(new Set(page.results.map((e) => e.id))).toEqual(uuids);
  });

  it('drops the oldest events beyond maxQueueSize, with a warning', async () => {
    const warn = vi.fn();
    const { c } = client({ maxQueueSize: 5, flushAt: 1000, flushInterval: 60_000, logger: { warn, error: vi.fn() } });
    for (let i = 0; i < 8; i++) c.capture({ distinctId: 'cap-4', event: 'overflow', properties: { i } });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('dropped the oldest event'));
    await c.shutdown();
    const page = await service.waitForEvents({ event: 'overflow', distinct_id: 'cap-4' }, 5);
    expect(page.results.map((e) => e.properties.i).sort()).toEqual([3, 4, 5, 6, 7]);
  });

  it('reports a rejected batch (401, wrong token) to the error listener, drops it and does not retry', async () => {
    const { c, errors } = client({ fetchRetryDelay: 10_000 }, 'phc_not_a_token');
    c.capture({ distinctId: 'cap-5', event: 'nope' });
    const started = Date.now();
    await c.shutdown(5_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/answered 401.*1 events dropped/)]);
  });

  it('never throws into the caller: bad input and a missing listener go to the logger', async () => {
    const error = vi.fn();
    const warn = vi.fn();
    const c = new Service(service.token, { host: service.url, logger: { warn, error } });
    expect(() => c.capture({ distinctId: '', event: 'x' })).not.toThrow();
    expect(() => c.capture(undefined as never)).not.toThrow();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    // A circular reference costs only itself (see robustness.test.ts): a warning, the event is kept.
    expect(() => c.capture({ distinctId: 'cap-6', event: 'circular', properties: circular })).not.toThrow();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('properties.self'));
    expect(() => c.identify(null as never)).not.toThrow();
    expect(error).toHaveBeenCalledTimes(3);
    c.capture({ distinctId: 'cap-6', event: 'fine' });
    await expect(c.shutdown()).resolves.toBeUndefined();
    expect((await service.waitForEvents({ event: 'fine', distinct_id: 'cap-6' }, 1)).count).toBe(1);
  });
});
