// Screenshots of the error tracking pages, light and dark, into docs/screenshots/web-errors-<page>-<scheme>.png.
// Usage: a service running the built app (npm start), then
//   node packages/web/scripts/errors-screenshots.mjs --base http://localhost:8000 --email you@example.com --password ... [page ...]
// On a service without accounts it creates the first one with those credentials. On a project without issues it
// uploads the source map of a real minified bundle (e2e/support/checkout-bundle.json) and sends two weeks of
// exceptions through /batch/ as posthog-js and service-node send them; the empty page is a second project's.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCHEMES, api, launch, noise, open, projects, send, session, shooter } from './shots.mjs';

const bundle = JSON.parse(fs.readFileSync(fileURLToPath(new URL('../../../e2e/support/checkout-bundle.json', import.meta.url)), 'utf8'));
const day = 86_400_000;
const BROWSERS = [
  ['Chrome', '142', 'Mac OS X'],
  ['Chrome', '141', 'Windows'],
  ['Safari', '19.1', 'iOS'],
  ['Firefox', '145', 'Linux'],
];

/** The checkout's TypeError (source-mapped through the uploaded map) as posthog-js sends it. */
function browserException(id, at) {
  const [browser, version, os] = BROWSERS[Math.floor(noise(id, 'browser') * BROWSERS.length)];
  return {
    event: '$exception',
    distinct_id: id,
    timestamp: new Date(at).toISOString(),
    properties: {
      $exception_list: [bundle.exception],
      $exception_level: 'error',
      $exception_steps: [
        { $message: '/cart', $type: 'pageview', $timestamp: new Date(at - 41_000).toISOString() },
        { $message: 'Clicked "Apply coupon"', $type: 'click', $timestamp: new Date(at - 9_500).toISOString() },
        { $message: 'Checkout clicked', $type: 'custom', $timestamp: new Date(at - 800).toISOString(), cart_id: `c_${Math.floor(noise(id) * 900) + 100}` },
      ],
      $release: bundle.release,
      $current_url: 'https://shop.example.com/checkout',
      $lib: 'web',
      $lib_version: '0.1.0',
      $browser: browser,
      $browser_version: version,
      $os: os,
      $set: { email: `${id}@example.com` },
    },
  };
}

/** A server error from service-node: frames with the source lines it read, node_modules frames not in the app. */
function nodeException(id, at) {
  const frame = (filename, fn, lineno, inApp, context) => ({
    platform: 'node:javascript',
    filename,
    abs_path: `/srv/app/${filename}`,
    function: fn,
    lineno,
    colno: 11,
    in_app: inApp,
    ...context,
  });
  return {
    event: '$exception',
    distinct_id: id,
    timestamp: new Date(at).toISOString(),
    properties: {
      $exception_list: [
        {
          type: 'CardDeclinedError',
          value: `Payment for invoice in_${Math.floor(noise(id, 'inv') * 1e6)} was declined (insufficient_funds)`,
          mechanism: { type: 'generic', handled: true },
          stacktrace: {
            type: 'raw',
            frames: [
              frame('node_modules/fastify/lib/handleRequest.js', 'preHandlerCallback', 142, false),
              frame('src/billing/routes.ts', 'chargeRoute', 58, true, {
                pre_context: ['  app.post("/invoices/:id/charge", async (request, reply) => {', '    const invoice = await invoices.get(request.params.id)'],
                context_line: '    const receipt = await chargeInvoice(invoice, request.user)',
                post_context: ['    return reply.code(201).send(receipt)', '  })'],
              }),
              frame('src/billing/charge.ts', 'chargeInvoice', 23, true, {
                pre_context: [
                  'export async function chargeInvoice(invoice: Invoice, user: User) {',
                  '  const card = await cards.defaultFor(user.id)',
                  '  const intent = await stripe.paymentIntents.create({ amount: invoice.total, customer: card.customer })',
                ],
                context_line: '  if (intent.status === "requires_payment_method") throw new CardDeclinedError(invoice, intent)',
                post_context: ['  await invoices.markPaid(invoice.id, intent.id)', '  return receiptOf(invoice, intent)', '}'],
              }),
            ],
          },
        },
      ],
      $exception_level: 'error',
      $lib: 'service-node',
      $lib_version: '0.1.0',
      $release: '2026.11.20',
    },
  };
}

const simple = (id, at, type, value, url) => ({
  event: '$exception',
  distinct_id: id,
  timestamp: new Date(at).toISOString(),
  properties: { $exception_list: [{ type, value, mechanism: { type: 'onunhandledrejection', handled: false } }], $current_url: url, $lib: 'web' },
});

async function seed(context, csrf) {
  const call = api(context, csrf);
  const { project, empty } = await projects(call);
  const p = `/api/projects/${project.id}/error_tracking/`;
  const existing = await call('GET', `${p}issues/?order_by=occurrences`);
  const top = () => call('GET', `${p}issues/?order_by=occurrences&search=TypeError`).then((page) => page.results[0]);
  if (existing.count > 0) return { project, empty, issue: await top() };

  await call('POST', `${p}sourcemaps/`, { release: bundle.release, url: bundle.url, map: bundle.map });
  const now = Date.now();
  const batch = [];
  // The checkout error started 12 days ago and grew with a release; service-node's payment error is steady.
  for (let i = 0; i < 260; i++) {
    const ago = 12 * day * (1 - Math.sqrt(noise('checkout', i)));
    batch.push(browserException(`shopper-${Math.floor(noise('who', i) * 70)}`, now - ago - 60_000));
  }
  for (let i = 0; i < 48; i++) batch.push(nodeException(`customer-${Math.floor(noise('node', i) * 30)}`, now - noise('n', i) * 13 * day - 3_600_000));
  for (let i = 0; i < 17; i++)
    batch.push(
      simple(
        `visitor-${i % 11}`,
        now - noise('c', i) * 6 * day - 7_200_000,
        'ChunkLoadError',
        'Loading chunk 7 failed. (error: https://shop.example.com/assets/settings-9e1b2c.js)',
        'https://shop.example.com/settings',
      ),
    );
  const resolvedAt = now - 4 * day;
  for (let i = 0; i < 9; i++)
    batch.push(simple(`visitor-${i}`, resolvedAt - noise('f', i) * 5 * day, 'TypeError', 'Failed to fetch', 'https://shop.example.com/'));
  for (let i = 0; i < 31; i++)
    batch.push(
      simple(
        `visitor-${i % 19}`,
        now - noise('r', i) * 9 * day,
        'ResizeObserverError',
        'ResizeObserver loop completed with undelivered notifications.',
        'https://shop.example.com/products',
      ),
    );
  await send(context, project.api_token, batch, 200);
  const issues = (await call('GET', `${p}issues/?limit=100`)).results;
  const named = (name, value) => issues.find((i) => i.name === name && i.description.startsWith(value));
  await call('PATCH', `${p}issues/${named('TypeError', 'Failed to fetch').id}/`, { status: 'resolved' });
  await call('PATCH', `${p}issues/${named('ResizeObserverError', 'ResizeObserver').id}/`, { status: 'suppressed' });
  return { project, empty, issue: named('TypeError', 'Cannot read') };
}

const browser = await launch();
for (const scheme of SCHEMES) {
  const { context, page } = await open(browser, scheme);
  const { project, empty, issue } = await seed(context, await session(context));
  const shot = shooter(page, scheme, 'web-errors', { idle: true });
  await shot('list', `/project/${project.id}/error_tracking?status=all`, (p) => p.getByRole('table', { name: 'Error issues' }));
  await shot('issue', `/project/${project.id}/error_tracking/${issue.id}`, (p) => p.getByRole('img', { name: /^Occurrences per day/ }));
  await shot('empty', `/project/${empty.id}/error_tracking`, (p) => p.getByRole('heading', { name: 'No errors yet' }));
  await context.close();
}
await browser.close();
