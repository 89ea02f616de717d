import { execFile, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess, testStorage, unstoredEvents, type TestStorage } from './helpers';

const run = promisify(execFile);
const readme = path.resolve(__dirname, '../../../README.md');

const exited = (child: ChildProcess) =>
  new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));

describe('a service process', () => {
  let storage: TestStorage;
  let current: ChildProcess | undefined;
  let first: Awaited<ReturnType<typeof startServiceProcess>>;
  let restarted: Awaited<ReturnType<typeof startServiceProcess>>;
  beforeAll(async () => {
    storage = testStorage();
    first = await startServiceProcess(storage);
    current = first.child;
  });
  afterAll(async () => {
    current?.kill('SIGTERM');
    if (current) await exited(current);
    await storage.drop();
  });

  it('keeps every acknowledged event when killed with SIGKILL while clients send events', async () => {
    const token = first.token;
    const acknowledged: string[] = [];
    let sent = 0;
    let stop = false;
    const client = async () => {
      while (!stop) {
        const batch = Array.from({ length: 10 }, () => ({ uuid: randomUUID(), event: 'crash-test', distinct_id: `crash-${sent % 50}`, $set: { n: sent } }));
        sent += batch.length;
        try {
          const res = await fetch(`${first.url}/batch/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ api_key: token, batch }),
          });
          if (res.status === 200) acknowledged.push(...batch.map((e) => e.uuid));
          else await res.arrayBuffer();
        } catch {
          return; // the service is gone
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);
    while (acknowledged.length < 1000) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL');
    await exited(first.child);
    stop = true;
    await Promise.all(clients);
    expect(sent).toBeGreaterThan(acknowledged.length); // requests were in flight when it died

    restarted = await startServiceProcess(storage);
    current = restarted.child;
    expect(await unstoredEvents(storage, acknowledged)).toEqual([]);
    const res = await fetch(`${restarted.url}/e/`, {
      method: 'POST',
      body: JSON.stringify({ api_key: token, event: 'after restart', distinct_id: 'crash-0' }),
    });
    expect(res.status).toBe(200);
  });

  it('runs every example of the README section "Sending events", in order, successfully', async () => {
    const section = fs.readFileSync(readme, 'utf8').split('## Sending events')[1]!.split('\n## ')[0]!;
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBe(6);
    // The first block sets the variables; use what this service printed instead of the placeholders.
    const setup = `export SERVICE_HOST=${restarted.url} PROJECT_TOKEN=${first.token} SERVICE_KEY=${first.key} PROJECT_ID=${first.projectId}`;
    const script = [setup, ...blocks.slice(1).map((block) => `${block}\necho '<<END>>'`)].join('\n');
    const { stdout } = await run('bash', ['-e', '-c', script]);
    const [batch, gzipped, events, persons, earlyAccess] = stdout
      .split('<<END>>\n')
      .filter(Boolean)
      .map((s) => JSON.parse(s));
    expect(batch).toEqual({ status: 1 });
    expect(gzipped).toEqual({ status: 1 });
    expect(events.results.map((e: { event: string }) => e.event)).toEqual(['opened_app', 'signed_up']);
    expect(persons.results[0]).toMatchObject({ distinct_ids: ['user-1'], properties: { email: 'ada@example.com' } });
    expect(earlyAccess).toEqual({ earlyAccessFeatures: [] });
  });
});
