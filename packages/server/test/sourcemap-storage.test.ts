import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StackFrame } from '../src/error-tracking/sourcemaps/resolve';
import { uuidv7 } from '../src/uuid';
import { startService, type TestService } from './helpers';

// How maps are stored: in parts of up to a megabyte, written and read a statement each (see migration 0018), so that
// neither an upload nor a cache miss holds the event loop for the whole map.

let s: TestService;
beforeAll(async () => {
  s = await startService();
});
afterAll(async () => {
  await s.close();
});

const base = `/api/projects/${'{id}'}/error_tracking/sourcemaps`;
const url = (app: TestService) => base.replace('{id}', String(app.projectId));

/** A map of generated lines 1..lines each mapped to the same line of src/big.ts, with about `bytes` of source content. */
function mapOf(lines: number, bytes: number, mark: string) {
  const content = Array.from({ length: lines }, (_, i) => `line ${i + 1} of ${mark}`).join('\n');
  return JSON.stringify({
    version: 3,
    sources: ['src/big.ts'],
    names: [],
    mappings: `AAAA${';AACA'.repeat(lines - 1)}`,
    sourcesContent: [`${content}\n//${'x'.repeat(Math.max(0, bytes - content.length))}`],
  });
}

async function upload(release: string, map: string, source?: string) {
  const res = await s.app.inject({ method: 'POST', url: `${url(s)}/`, headers: s.headers, payload: { release, url: '~/assets/big.js', map, source } });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
  return res.json() as { id: string };
}

const parts = (mapId: string) =>
  s.services.db.kysely.selectFrom('source_map_parts').select(['kind', 'seq', 'bytes']).where('map_id', '=', mapId).orderBy('kind').orderBy('seq').execute();

const frame = (lineno: number): StackFrame => ({ filename: 'https://shop.example.com/assets/big.js', function: 'f', lineno, colno: 1, in_app: true });

describe('source map storage', () => {
  it('stores a map and its minified file in parts of up to a megabyte, and reads the map back from them in a service that has not seen the upload', async () => {
    const map = mapOf(500, 2_600_000, 'v1');
    const { id } = await upload('parts-1', map, 'function f(){}\n'.repeat(500));
    const stored = await parts(id);
    const mapParts = stored.filter((p) => p.kind === 'map');
    expect(mapParts.map((p) => p.seq)).toEqual([0, 1, 2]);
    expect(mapParts.every((p) => p.bytes.length <= 1024 * 1024)).toBe(true);
    expect(Buffer.concat(mapParts.map((p) => p.bytes)).toString()).toBe(map);
    expect(stored.filter((p) => p.kind === 'source').map((p) => p.seq)).toEqual([0]);
    const row = await s.services.db.kysely.selectFrom('source_maps').select(['map', 'source']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ map: '', source: null });

    const other = await startService({}, s.storage);
    try {
      const [resolved] = await other.services.sourceMaps.resolver.resolveFrames(s.projectId, 'parts-1', [frame(420)]);
      expect(resolved).toMatchObject({ resolved: true, filename: 'src/big.ts', lineno: 420, context_line: 'line 420 of v1' });
    } finally {
      await other.close({ keepData: true });
    }
  });

  it('deletes the parts of a replaced map and of a deleted one', async () => {
    const first = await upload('parts-2', mapOf(10, 1_500_000, 'first'));
    expect((await parts(first.id)).length).toBe(2);
    const second = await upload('parts-2', mapOf(10, 10, 'second'));
    expect(await parts(first.id)).toEqual([]);
    expect((await parts(second.id)).length).toBe(1);
    const [resolved] = await s.services.sourceMaps.resolver.resolveFrames(s.projectId, 'parts-2', [frame(3)]);
    expect(resolved).toMatchObject({ resolved: true, context_line: 'line 3 of second' });

    expect((await s.app.inject({ method: 'DELETE', url: `${url(s)}/${second.id}/`, headers: s.headers })).statusCode).toBe(204);
    expect(await parts(second.id)).toEqual([]);
  });

  it('sweeps parts no map names once they are an hour old (an upload cut short), not younger ones', async () => {
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString();
    const young = new Date().toISOString();
    const [cutShort, inFlight] = [uuidv7(), uuidv7()];
    await s.services.db.kysely
      .insertInto('source_map_parts')
      .values([
        { project_id: s.projectId, map_id: cutShort, kind: 'map', seq: 0, bytes: Buffer.from('{"version"'), created_at: old },
        { project_id: s.projectId, map_id: inFlight, kind: 'map', seq: 0, bytes: Buffer.from('{"version"'), created_at: young },
      ])
      .execute();
    await upload('parts-3', mapOf(5, 10, 'sweep'));
    expect(await parts(cutShort)).toEqual([]);
    expect((await parts(inFlight)).length).toBe(1);
  });

  it('still reads a map stored whole in its row', async () => {
    await s.services.db.kysely
      .insertInto('source_maps')
      .values({
        id: uuidv7(),
        project_id: s.projectId,
        release: 'whole',
        url: '~/assets/big.js',
        map: mapOf(10, 10, 'whole'),
        source: null,
        size: 10,
        created_at: new Date().toISOString(),
      })
      .execute();
    const [resolved] = await s.services.sourceMaps.resolver.resolveFrames(s.projectId, 'whole', [frame(7)]);
    expect(resolved).toMatchObject({ resolved: true, context_line: 'line 7 of whole' });
  });
});
