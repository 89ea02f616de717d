// The web app (packages/web) as users get it: built into packages/server/web-dist and served by a started service at /,
// driven in Debian's Chromium; with an axe-core scan and a few helpers over its forms.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { root, startService, type Service } from './service';

/**
 * Builds the web app when its sources are newer than packages/server/web-dist (quick when nothing changed; `npm test`'s
 * pretest has done it already). Test files run in parallel: a lock folder keeps them from building at the same time.
 */
export async function ensureWebAppBuilt() {
  const lock = join(tmpdir(), 'service-e2e-web-build.lock');
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 150_000) rmSync(lock, { recursive: true, force: true }); // left by a killed run
      if (Date.now() > deadline) throw new Error(`another test file has been building the web app for 3 minutes (${lock})`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    const result = spawnSync(process.execPath, [join(root, 'packages', 'web', 'scripts', 'ensure-built.mjs')], { encoding: 'utf8', timeout: 120_000 });
    const index = join(root, 'packages', 'server', 'web-dist', 'index.html');
    if (result.status !== 0 || !existsSync(index) || /failed/.test(result.stderr))
      throw new Error(`the web app is not built:\n${result.stdout}\n${result.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface WebApp {
  svc: Service;
  /** The service's origin, e.g. http://127.0.0.1:41234. */
  base: string;
  browser: Browser;
  /** A new context (a new visitor: own cookies and storage), closed after the file. */
  newContext(options?: { colorScheme?: 'light' | 'dark' }): Promise<BrowserContext>;
  /** A page in a new context. */
  newPage(options?: { colorScheme?: 'light' | 'dark' }): Promise<Page>;
  /** Closes the browser (and its contexts) and stops the service. */
  stop(): Promise<void>;
}

/**
 * One started service (with the built web app) and one Chromium for a test file: call in `beforeAll`, and `stop()` in
 * `afterAll` (contexts are closed with the browser).
 */
export async function startWebApp(): Promise<WebApp> {
  await ensureWebAppBuilt();
  const svc = await startService();
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    await svc.stop();
    throw error;
  }
  const newContext = async (options: { colorScheme?: 'light' | 'dark' } = {}) => {
    const context = await browser.newContext({ baseURL: svc.url, viewport: { width: 1280, height: 860 }, colorScheme: options.colorScheme ?? 'light' });
    context.setDefaultTimeout(10_000);
    return context;
  };
  return {
    svc,
    base: svc.url,
    browser,
    newContext,
    async newPage(options) {
      return (await newContext(options)).newPage();
    },
    async stop() {
      await browser.close();
      await svc.stop();
    },
  };
}

/** Makes the service's first account (its owner) through the API, as the signup page does. */
export async function signUp(base: string, owner: { name: string; email: string; password: string }) {
  const res = await fetch(`${base}/api/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(owner),
  });
  if (res.status !== 201) throw new Error(`sign up as ${owner.email}: ${res.status} ${await res.text()}`);
}

/** Logs in through the login page (which must be open or is opened). */
export async function logIn(page: Page, email: string, password: string) {
  if (new URL(page.url()).pathname !== '/login') await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/**
 * Logs a context in through the API (no page needed) and returns the session's CSRF token, for calls a test makes
 * as that user with `context.request`.
 */
export async function apiLogIn(context: BrowserContext, base: string, email: string, password: string): Promise<string> {
  const res = await context.request.post(`${base}/api/login`, { data: { email, password }, headers: { origin: base } });
  if (!res.ok()) throw new Error(`log in as ${email}: ${res.status()} ${await res.text()}`);
  return (await res.json()).csrf_token as string;
}

/** The text of the elements that describe a form control (`aria-describedby`): its description and its error. */
export async function descriptionOf(control: Locator): Promise<string> {
  return control.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' | '),
  );
}

/** Whether the page scrolls sideways (a long word broke the layout). */
export const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

/**
 * Runs axe-core (WCAG 2.x A/AA and best practices) on the page as it is now. The source is evaluated through the
 * DevTools protocol, which the app's Content-Security-Policy (`script-src 'self'`) does not apply to.
 * Returns the serious and critical violations.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Throws, naming each serious or critical violation (id, help, targets), when axe finds any on the page. */
export async function expectAccessible(page: Page, where: string) {
  const violations = await axeViolations(page);
  if (violations.length === 0) return;
  const lines = violations.map(
    (v) =>
      `  ${v.id} (${v.impact}): ${v.help}\n` +
      v.nodes
        .slice(0, 8)
        .map((n) => `    ${JSON.stringify(n.target)} ${n.html.slice(0, 160)}\n      ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300)}`)
        .join('\n'),
  );
  throw new Error(`axe found ${violations.length} serious or critical violation(s) on ${where}:\n${lines.join('\n')}`);
}

/**
 * axe on the page as it is now, in light and then dark (the app follows `prefers-color-scheme`), with transitions off
 * so that no colour is caught half-way; light again after.
 */
export async function expectAccessibleLightAndDark(page: Page, where: string) {
  await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.locator(`html[data-mantine-color-scheme="${scheme}"]`).waitFor({ state: 'attached' });
    await expectAccessible(page, `${where} (${scheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
