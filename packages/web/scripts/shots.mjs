// What the screenshot scripts share: their command line, Debian's Chromium, an account and its CSRF token, calls to the
// API, events through /batch/, a second project for the empty states, and one shot of a page in a colour scheme.
// Command line: --base (the service), --email and --password (the account, made on a service without one),
// --chromium (the browser), then page names to shoot only those.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string', default: 'http://localhost:8000' },
    email: { type: 'string', default: 'ada@example.com' },
    password: { type: 'string', default: 'correct horse' },
    chromium: { type: 'string', default: '/usr/bin/chromium' },
  },
});
export const { base, email, password } = args;
/** The pages named on the command line (none: all of them). */
export const only = positionals;
export const wanted = (name) => !only.length || only.includes(name);
export const out = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));
fs.mkdirSync(out, { recursive: true });
export const SCHEMES = ['light', 'dark'];

/** A number from 0 to 1 that is the same on every run for the same inputs (so the screenshots do not change by chance). */
export const noise = (...parts) => {
  let h = 2166136261;
  for (const c of parts.join(':')) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return ((h >>> 0) % 10_000) / 10_000;
};

export const launch = () =>
  chromium.launch({
    executablePath: args.chromium,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });

/** Logs the context in (signing up on a service without accounts) and answers its CSRF token. */
export async function session(context) {
  const setup = await (await context.request.get(`${base}/api/setup`)).json();
  const res = setup.needs_first_account
    ? await context.request.post(`${base}/api/signup`, { data: { email, password, name: 'Ada Lovelace' }, headers: { origin: base } })
    : await context.request.post(`${base}/api/login`, { data: { email, password }, headers: { origin: base } });
  if (!res.ok()) throw new Error(`could not log in: ${res.status()} ${await res.text()}`);
  return (await res.json()).csrf_token;
}

/** `call(method, url, data)`: the API's JSON answer as the logged-in context, or as `as` with other headers. */
export function api(context, csrf) {
  const headers = { origin: base, 'x-csrf-token': csrf };
  return async (method, url, data, extra = headers, as = context) => {
    const res = await as.request.fetch(`${base}${url}`, { method, data, headers: extra });
    if (!res.ok()) throw new Error(`${method} ${url}: ${res.status()} ${await res.text()}`);
    return res.status() === 204 ? null : res.json();
  };
}

/** Sends events through /batch/ as the SDKs do, `size` at a time. */
export async function send(context, token, events, size = 500) {
  for (let i = 0; i < events.length; i += size) {
    const res = await context.request.post(`${base}/batch/`, { data: { api_key: token, batch: events.slice(i, i + size) } });
    if (!res.ok()) throw new Error(`/batch/: ${res.status()} ${await res.text()}`);
  }
}

/** The account's first project, and a project of its own (made once) whose pages show the empty states. */
export async function projects(call) {
  const all = (await call('GET', '/api/projects/')).results;
  const empty = all.find((p) => p.name === 'Mobile app') ?? (await call('POST', '/api/projects/', { name: 'Mobile app' }));
  return { project: all[0], empty };
}

/** A logged-out or logged-in browser context in a colour scheme, and a page whose errors are printed. */
export async function open(browser, scheme, height = 860) {
  const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height } });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${scheme}] page error: ${error.message}`));
  page.on('console', (msg) => msg.type() === 'error' && console.error(`[${scheme}] console: ${msg.text()}`));
  return { context, page };
}

/** An error JSON for `api: { url, answer }` of a shot (`answer: 'hold'` never answers: the loading state). */
export const failure = (status, code, detail) => ({ status, body: { type: 'server_error', code, detail, attr: null } });

/**
 * `shot(name, url, ready, options)` writes <prefix>-<name>-<scheme>.png of `url` once `ready(page)` (which may act on
 * the page first) has returned a locator that is there. Defaults for every shot: `heading` (wait for the page's h1),
 * `idle` (wait until the network is quiet), `full` (the whole page, not the window), `pause` (ms for animations).
 */
export function shooter(page, scheme, prefix, defaults = {}) {
  return async (name, url, ready, options = {}) => {
    if (!wanted(name)) return;
    const { heading = false, idle = false, full = true, pause = 400, api: held } = { ...defaults, ...options };
    const answer = held && ((route) => (held.answer === 'hold' ? undefined : route.fulfill({ status: held.answer.status, json: held.answer.body })));
    if (held) await page.route(held.url, answer);
    await page.goto(new URL(url, base).href);
    if (heading) await page.getByRole('heading', { level: 1 }).first().waitFor();
    const locator = await ready?.(page);
    if (locator) await locator.first().waitFor();
    // A held request never lets the network be quiet.
    if (idle && !held) await page.waitForLoadState('networkidle');
    // A full-page shot of a page scrolled by the steps above would draw the fixed header halfway down.
    await page.evaluate(() => globalThis.scrollTo(0, 0));
    await page.waitForTimeout(pause);
    const file = `${prefix}-${name}-${scheme}.png`;
    await page.screenshot({ path: path.join(out, file), fullPage: full });
    if (held) await page.unroute(held.url, answer);
    console.log(file);
  };
}
