// Session recordings shaped as posthog-js sends them: rrweb events, per-event compressed (`cv: '2024-10'`, fflate's
// gzip as a Latin-1 string, as posthog-js's `compressEvent` does), in `$snapshot` events, the body gzip-js.
import { randomUUID } from 'node:crypto';
import { gzipSync, strFromU8, strToU8 } from 'fflate';

export type RrwebEvent = { type: number; timestamp: number; data: Record<string, unknown> } & Record<string, unknown>;

const gzipToString = (data: unknown) => strFromU8(gzipSync(strToU8(JSON.stringify(data))), true);

/** posthog-js's `compressEvent`: a full snapshot's data, a mutation's and a stylesheet rule's lists, compressed. */
export function compressEvent(event: RrwebEvent): RrwebEvent {
  if (event.type === 2) return { ...event, data: gzipToString(event.data) as never, cv: '2024-10' };
  if (event.type === 3 && event.data.source === 0) {
    const { texts, attributes, removes, adds } = event.data;
    return {
      ...event,
      cv: '2024-10',
      data: { ...event.data, texts: gzipToString(texts), attributes: gzipToString(attributes), removes: gzipToString(removes), adds: gzipToString(adds) },
    };
  }
  if (event.type === 3 && event.data.source === 8) {
    const { adds, removes } = event.data;
    return {
      ...event,
      cv: '2024-10',
      data: { ...event.data, adds: adds ? gzipToString(adds) : undefined, removes: removes ? gzipToString(removes) : undefined },
    };
  }
  return event;
}

let nodeId = 100;

/** A page's worth of rrweb events from `start`: meta, a full snapshot, then mutations, clicks, typing, console logs. */
export function recording(start: number, { href = 'https://app.example.com/home', seconds = 10, text = 'Hello' } = {}): RrwebEvent[] {
  const events: RrwebEvent[] = [
    { type: 4, timestamp: start, data: { href, width: 1280, height: 720 } },
    {
      type: 2,
      timestamp: start + 1,
      data: {
        node: {
          type: 0,
          id: 1,
          childNodes: [
            { type: 1, name: 'html', publicId: '', systemId: '', id: 2 },
            {
              type: 2,
              tagName: 'html',
              attributes: {},
              id: 3,
              childNodes: [{ type: 2, tagName: 'body', attributes: {}, id: 4, childNodes: [{ type: 3, textContent: text, id: 5 }] }],
            },
          ],
        },
        initialOffset: { left: 0, top: 0 },
      },
    },
  ];
  for (let s = 1; s <= seconds; s++) {
    const t = start + s * 1000;
    events.push({
      type: 3,
      timestamp: t,
      data: {
        source: 0,
        texts: [],
        attributes: [],
        removes: [],
        adds: [{ parentId: 4, nextId: null, node: { type: 3, textContent: `tick ${s}`, id: nodeId++ } }],
      },
    });
    events.push({ type: 3, timestamp: t + 100, data: { source: 2, type: 2, id: 4, x: 10, y: 20 } });
    events.push({ type: 3, timestamp: t + 200, data: { source: 5, text: '*****', isChecked: false, id: 5 } });
  }
  events.push({
    type: 6,
    timestamp: start + seconds * 1000 + 300,
    data: { plugin: 'rrweb/console@1', payload: { level: 'error', payload: ['"boom"'], trace: [] } },
  });
  events.push({
    type: 6,
    timestamp: start + seconds * 1000 + 301,
    data: { plugin: 'rrweb/console@1', payload: { level: 'warn', payload: ['"careful"'], trace: [] } },
  });
  events.push({
    type: 6,
    timestamp: start + seconds * 1000 + 302,
    data: { plugin: 'rrweb/console@1', payload: { level: 'log', payload: ['"hi"'], trace: [] } },
  });
  events.push({ type: 3, timestamp: start + seconds * 1000 + 400, data: { source: 8, id: 7, adds: [{ rule: 'body { color: red }', index: 0 }] } });
  return events;
}

export interface SnapshotOptions {
  sessionId: string;
  windowId?: string;
  distinctId?: string;
  uuid?: string;
  token?: string;
  compress?: boolean;
  currentUrl?: string;
}

/** A `$snapshot` event as posthog-js captures it. */
export function snapshotEvent(data: RrwebEvent[], o: SnapshotOptions) {
  const snapshotData = o.compress === false ? data : data.map(compressEvent);
  return {
    event: '$snapshot',
    uuid: o.uuid ?? randomUUID(),
    timestamp: new Date(data[0]?.timestamp ?? Date.now()).toISOString(),
    properties: {
      $snapshot_data: snapshotData,
      $session_id: o.sessionId,
      $window_id: o.windowId ?? 'window-1',
      $snapshot_bytes: JSON.stringify(snapshotData).length,
      $lib: 'web',
      $lib_version: '1.449.2',
      distinct_id: o.distinctId ?? 'user-1',
      ...(o.token ? { token: o.token } : {}),
      ...(o.currentUrl ? { $current_url: o.currentUrl } : {}),
    },
  };
}

/** A request body as posthog-js sends it to `/s/?compression=gzip-js`: the events' JSON list, gzip. */
export const gzipJsBody = (events: unknown[]) => Buffer.from(gzipSync(strToU8(JSON.stringify(events))));
