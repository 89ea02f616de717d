// A synthetic but realistic session recording, as posthog-js sends it: rrweb events of a dashboard page (a full snapshot
// of some 2,000 nodes with its stylesheet inlined, again every 5 minutes as posthog-js takes them), and per 2-second
// batch what an active user makes: mouse moves (rrweb's 10 positions an event, 4 events a batch), scrolls, clicks,
// typing into a search box, table rows changing. Per-event compression as posthog-js does it (fflate gzip of the JSON as
// a Latin-1 string, `cv: '2024-10'`), batches as `$snapshot` events, bodies gzip (`?compression=gzip-js`).
import { randomUUID } from 'node:crypto';
import { gzipSync, strFromU8, strToU8 } from 'fflate';

/** A seeded PRNG (mulberry32), so every run sends the same recording. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'account active billing cancel customer dashboard enterprise export invoice monthly order paid pending plan refund region renewal revenue seats status team trial upgrade usage'.split(
    ' ',
  );

export const BATCH_MS = 2000;
const FULL_SNAPSHOT_EVERY_MS = 5 * 60 * 1000;

/** rrweb's serialized DOM of the page: nav, a 200-row table, a form; its stylesheet inlined as rrweb does (`_cssText`). */
function page(rand, ids) {
  const words = (n) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const text = (content) => ({ type: 3, textContent: content, id: ids.next++ });
  const el = (tagName, attributes, childNodes = []) => ({ type: 2, tagName, attributes, childNodes, id: ids.next++ });
  const css = Array.from(
    { length: 600 },
    (_, i) => `.c-${i.toString(36)}-${words(1)}{margin:${i % 16}px;color:#${(i * 2654435761).toString(16).slice(-6)};display:flex}`,
  ).join('');
  const nav = el(
    'nav',
    { class: 'sidebar nav-primary' },
    Array.from({ length: 20 }, (_, i) => el('a', { href: `/app/${words(1)}/${i}`, class: 'nav-link' }, [text(words(2))])),
  );
  const rows = Array.from({ length: 200 }, (_, r) =>
    el(
      'tr',
      { class: r % 2 ? 'row odd' : 'row', 'data-id': String(10_000 + r) },
      Array.from({ length: 6 }, (_, c) => el('td', { class: `col-${c}` }, [text(c === 0 ? `#${10_000 + r}` : words(1 + (c % 3)))])),
    ),
  );
  const table = el('table', { class: 'data-table' }, [el('tbody', {}, rows)]);
  const form = el('form', { class: 'search' }, [
    el('input', { type: 'search', name: 'q', placeholder: 'Search orders', value: '' }),
    el('button', { type: 'submit' }, [text('Search')]),
  ]);
  const head = el('head', {}, [el('title', {}, [text('Orders · Dashboard')]), el('style', { _cssText: css })]);
  const body = el('body', { class: 'app' }, [nav, el('main', { class: 'content' }, [el('h1', {}, [text('Orders')]), form, table])]);
  return {
    type: 0,
    childNodes: [{ type: 1, name: 'html', publicId: '', systemId: '', id: ids.next++ }, el('html', { lang: 'en' }, [head, body])],
    id: ids.next++,
  };
}

/** The rrweb events of a recording of `minutes`, by 2-second batch: each batch a list of events. */
export function recordingBatches(minutes, seed = 1) {
  const rand = random(seed);
  const ids = { next: 1 };
  const start = Date.UTC(2026, 10, 20, 10);
  const batches = [];
  let rowId = 0;
  for (let t = 0; t < minutes * 60_000; t += BATCH_MS) {
    const at = start + t;
    const events = [];
    if (t % FULL_SNAPSHOT_EVERY_MS === 0) {
      events.push({
        type: 4,
        timestamp: at,
        data: { href: `https://shop.example.com/app/orders?page=${t / FULL_SNAPSHOT_EVERY_MS}`, width: 1440, height: 900 },
      });
      events.push({ type: 2, timestamp: at + 1, data: { node: page(rand, ids), initialOffset: { left: 0, top: 0 } } });
    }
    for (let m = 0; m < 4; m++) {
      const positions = Array.from({ length: 10 }, (_, i) => ({
        x: Math.floor(rand() * 1440),
        y: Math.floor(rand() * 900),
        id: 40 + Math.floor(rand() * 400),
        timeOffset: -450 + i * 50,
      }));
      events.push({ type: 3, timestamp: at + 100 + m * 500, data: { source: 1, positions } });
    }
    if (rand() < 0.5) events.push({ type: 3, timestamp: at + 700, data: { source: 3, id: 1, x: 0, y: Math.floor(rand() * 4000) } });
    if (rand() < 0.3)
      events.push({
        type: 3,
        timestamp: at + 900,
        data: { source: 2, type: 2, id: 40 + Math.floor(rand() * 400), x: Math.floor(rand() * 1440), y: Math.floor(rand() * 900) },
      });
    if (rand() < 0.2)
      events.push({ type: 3, timestamp: at + 1100, data: { source: 5, text: '*'.repeat(1 + Math.floor(rand() * 12)), isChecked: false, id: 30 } });
    const adds = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => ({
      parentId: 25,
      nextId: null,
      node: { type: 2, tagName: 'tr', attributes: { class: 'row new', 'data-id': String(20_000 + rowId++) }, childNodes: [], id: ids.next++ },
    }));
    const texts = Array.from({ length: Math.floor(rand() * 4) }, () => ({
      id: 100 + Math.floor(rand() * 1200),
      value: WORDS[Math.floor(rand() * WORDS.length)],
    }));
    const attributes = rand() < 0.5 ? [{ id: 100 + Math.floor(rand() * 1200), attributes: { class: rand() < 0.5 ? 'row selected' : 'row' } }] : [];
    events.push({
      type: 3,
      timestamp: at + 1500,
      data: { source: 0, texts, attributes, removes: rand() < 0.3 ? [{ parentId: 25, id: 2000 + rowId }] : [], adds },
    });
    batches.push(events);
  }
  return batches;
}

const gzipToString = (data) => strFromU8(gzipSync(strToU8(JSON.stringify(data))), true);

/** posthog-js's `compressEvent`. */
export function compressEvent(event) {
  if (event.type === 2) return { ...event, data: gzipToString(event.data), cv: '2024-10' };
  if (event.type === 3 && event.data.source === 0) {
    const { texts, attributes, removes, adds } = event.data;
    return {
      ...event,
      cv: '2024-10',
      data: { ...event.data, texts: gzipToString(texts), attributes: gzipToString(attributes), removes: gzipToString(removes), adds: gzipToString(adds) },
    };
  }
  return event;
}

/** A batch as posthog-js sends it to `/s/?compression=gzip-js`: the body's bytes. */
export function snapshotBody(events, { token, sessionId, windowId, distinctId }) {
  const data = events.map(compressEvent);
  const body = [
    {
      event: '$snapshot',
      uuid: randomUUID(),
      timestamp: new Date(events[0].timestamp).toISOString(),
      properties: {
        $snapshot_data: data,
        $session_id: sessionId,
        $window_id: windowId,
        $snapshot_bytes: JSON.stringify(data).length,
        distinct_id: distinctId,
        token,
        $lib: 'web',
      },
    },
  ];
  return Buffer.from(gzipSync(strToU8(JSON.stringify(body))));
}
