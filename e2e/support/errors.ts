// Exceptions as apps send them (posthog-js's `$exception` wire shape), for the error tracking tests and screenshots.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A real minified bundle and its source map (checkout-bundle.json: a small checkout and a library under node_modules,
 * built with esbuild --minify --sourcemap --sources-content), and the TypeError it throws as Chromium and posthog-js
 * report it: frames oldest first, the throw site last, positions in the minified file.
 */
export const checkoutBundle = JSON.parse(readFileSync(join(import.meta.dirname, 'checkout-bundle.json'), 'utf8')) as {
  release: string;
  url: string;
  code: string;
  map: string;
  exception: { type: string; value: string; mechanism: object; stacktrace: { type: 'raw'; frames: { function: string; colno: number }[] } };
};

/** One `$exception` event of the checkout's TypeError (with a trail of steps), `minutesAgo` before now. */
export function checkoutException(distinctId: string, minutesAgo: number, extra: Record<string, unknown> = {}) {
  const at = Date.now() - minutesAgo * 60_000;
  return {
    event: '$exception',
    distinct_id: distinctId,
    timestamp: new Date(at).toISOString(),
    properties: {
      $exception_list: [checkoutBundle.exception],
      $exception_level: 'error',
      $exception_steps: [
        { $message: '/cart', $type: 'pageview', $timestamp: new Date(at - 41_000).toISOString() },
        { $message: 'Clicked "Apply coupon"', $type: 'click', $timestamp: new Date(at - 9_500).toISOString() },
        { $message: 'Checkout clicked', $type: 'custom', $timestamp: new Date(at - 800).toISOString(), cart_id: 'c_19' },
      ],
      $release: checkoutBundle.release,
      $current_url: 'https://shop.example.com/checkout',
      $lib: 'web',
      $lib_version: '0.1.0',
      $browser: 'Chrome',
      $browser_version: '142',
      $os: 'Mac OS X',
      ...extra,
    },
  };
}

/** An exception without a stack (a failed lazy chunk), of another kind than the checkout's. */
export function chunkLoadException(distinctId: string, minutesAgo: number) {
  return {
    event: '$exception',
    distinct_id: distinctId,
    timestamp: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    properties: {
      $exception_list: [
        {
          type: 'ChunkLoadError',
          value: 'Loading chunk 7 failed. (error: https://shop.example.com/assets/settings-9e1b2c.js)',
          mechanism: { type: 'onunhandledrejection', handled: false },
        },
      ],
      $current_url: 'https://shop.example.com/settings',
      $lib: 'web',
      $browser: 'Firefox',
    },
  };
}

/** POST /batch/ as posthog-js sends it; throws unless the service stored the events (200). */
export async function sendBatch(base: string, token: string, batch: object[]) {
  const res = await fetch(`${base}/batch/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: token, batch }),
  });
  if (res.status !== 200) throw new Error(`/batch/: ${res.status} ${await res.text()}`);
}
