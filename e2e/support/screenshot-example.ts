// Takes docs/screenshots/example-early-access.png: the example app against a freshly started service with a
// concept feature ("Register interest") and beta features ("Try it"); and example-error-boundary.png, the cart's
// error boundary fallback. Run: `npx tsx support/screenshot-example.ts`.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium, serveStatic } from './browser';
import { buildExampleApp } from './example-app';
import { root, startService } from './service';

const svc = await startService();
const cleanups: (() => unknown)[] = [() => svc.stop()];
try {
  await svc.flag('new-banner', {
    groups: [{ properties: [], rollout_percentage: 100 }],
    payloads: { true: JSON.stringify({ title: 'Hello from the service' }) },
  });
  await svc.flag('checkout-experiment', {
    groups: [{ properties: [], rollout_percentage: 100 }],
    multivariate: {
      variants: [
        { key: 'control', rollout_percentage: 0 },
        { key: 'test', rollout_percentage: 100 },
      ],
    },
  });
  const feature = (body: object) => svc.api(`/api/projects/${svc.projectId}/early_access_feature/`, { method: 'POST', body });
  await feature({ name: 'Dark mode', description: 'A darker theme for late nights.', stage: 'beta' });
  await feature({ name: 'Keyboard shortcuts', description: 'Navigate everything without a mouse.', stage: 'alpha' });
  await feature({ name: 'AI assistant', description: 'Answers questions about your data.', stage: 'concept', payload: { eta: 'Q3' } });
  await feature({ name: 'Team spaces', description: 'Shared dashboards for your whole team.', stage: 'concept' });

  const dist = await buildExampleApp({ APP_PUBLIC_SERVICE_KEY: svc.token, APP_PUBLIC_SERVICE_HOST: svc.url });
  cleanups.push(() => rmSync(dist, { recursive: true, force: true }));
  const app = await serveStatic(dist);
  cleanups.push(() => app.close());
  const browser = await launchChromium();
  cleanups.push(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 800, height: 900 }, deviceScaleFactor: 1 });
  await page.goto(app.url);
  await page.getByRole('switch', { name: 'Try it: Dark mode' }).check();
  await page.getByRole('button', { name: 'Register interest in AI assistant' }).click();
  await page.getByText("You're on the list").waitFor();
  await page.getByTestId('new-banner').waitFor();
  const file = join(root, 'docs', 'screenshots', 'example-early-access.png');
  await page.screenshot({ path: file, fullPage: true });
  console.log(file);

  // The cart's ServiceErrorBoundary fallback after "Break the cart", with a margin of the page around it.
  await page.getByRole('button', { name: 'Break the cart' }).click();
  const fallback = page.getByTestId('cart-fallback');
  await fallback.waitFor();
  const box = (await fallback.boundingBox())!; // in the viewport: the page scrolled to the button
  box.y += await page.evaluate(() => scrollY);
  const errorFile = join(root, 'docs', 'screenshots', 'example-error-boundary.png');
  await page.screenshot({ path: errorFile, fullPage: true, clip: { x: box.x - 24, y: box.y - 24, width: box.width + 48, height: box.height + 48 } });
  console.log(errorFile);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup();
}
