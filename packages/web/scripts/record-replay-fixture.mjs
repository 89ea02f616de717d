// Records a short session with rrweb's recorder in Chromium into test/fixtures/replay-session.json, the recording the
// player's tests replay: a checkout page where someone types an email, masks a password, adds an item, waits, and
// goes to a second screen (a history.pushState, as a single-page app navigates).
// Usage: node packages/web/scripts/record-replay-fixture.mjs [--chromium /usr/bin/chromium]
/* global window, document, history -- the functions given to page.evaluate run in the recorded page */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values: args } = parseArgs({ options: { chromium: { type: 'string', default: '/usr/bin/chromium' } } });
const require = createRequire(import.meta.url);
const recorder = fs.readFileSync(path.join(path.dirname(require.resolve('@rrweb/record')), 'record.umd.min.cjs'), 'utf8');
const out = fileURLToPath(new URL('../test/fixtures/replay-session.json', import.meta.url));

const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title>
<style>body{font:16px system-ui;margin:24px;color:#222}button{padding:6px 12px}#cart li{margin:4px 0}</style></head>
<body><h1>Checkout</h1><p id="status">Your cart is empty.</p><ul id="cart"></ul>
<label>Email <input id="email" type="email"></label> <label>Password <input id="password" type="password"></label>
<button id="add">Add a blue mug</button> <button id="pay">Pay now</button></body></html>`;

const browser = await chromium.launch({ executablePath: args.chromium, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 800, height: 500 } });
await page.route('http://shop.test/**', (route) => route.fulfill({ contentType: 'text/html', body: html }));
await page.goto('http://shop.test/checkout');
await page.addScriptTag({ content: recorder });
await page.evaluate(() => {
  window.events = [];
  window.rrwebRecord.record({ emit: (e) => window.events.push(e), maskAllInputs: true });
  document.getElementById('add').onclick = () => {
    const li = document.createElement('li');
    li.textContent = 'Blue mug × 1 — €12.00';
    document.getElementById('cart').append(li);
    document.getElementById('status').textContent = 'One item in your cart.';
  };
  document.getElementById('pay').onclick = () => {
    history.pushState({}, '', '/checkout/done');
    document.getElementById('status').textContent = 'Paid: your order 1042 is on its way.';
    document.getElementById('cart').replaceChildren();
  };
});
await page.mouse.move(100, 100);
await page.click('#email');
await page.keyboard.type('ada@example.com', { delay: 30 });
await page.click('#password');
await page.keyboard.type('hunter2', { delay: 30 });
await page.click('#add');
await page.waitForTimeout(800);
const beforeIdle = await page.evaluate(() => window.events.length);
await page.mouse.move(300, 200);
await page.click('#pay');
await page.waitForTimeout(500);
const events = await page.evaluate(() => window.events);
await browser.close();

// A minute of inactivity before the payment (recorded in a second rather than a minute): what "skip inactivity"
// jumps over.
const IDLE_MS = 60_000;
for (const e of events.slice(beforeIdle)) e.timestamp += IDLE_MS;
fs.mkdirSync(fileURLToPath(new URL('../test/fixtures/', import.meta.url)), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(events)}\n`);
console.log(`wrote ${events.length} events (${(fs.statSync(out).size / 1024).toFixed(1)} KB) to ${out}`);
