import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A surveys bundle as served: its bytes, the posthog-js version it is of, and its SRI hash (`sha384-…`). */
export interface SurveysScript {
  bytes: Buffer;
  version: string;
  integrity: string;
}

let loaded: SurveysScript | undefined;

/**
 * posthog-js's own `dist/surveys.js`, from the posthog-js package the service depends on (pinned to one version), read
 * once. Its hash is the one posthog-js publishes in `dist/integrity.json`, checked against the bytes: a file that does
 * not match stops the start rather than serving what no page could load with the published hash.
 */
export function posthogSurveysScript(): SurveysScript {
  if (loaded) return loaded;
  const manifest = createRequire(import.meta.url).resolve('posthog-js/package.json');
  const dir = path.dirname(manifest);
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const bytes = readFileSync(path.join(dir, 'dist', 'surveys.js'));
  const integrity = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
  const published = publishedIntegrity(dir);
  if (published !== undefined && published !== integrity) {
    throw new Error(`posthog-js ${version}'s dist/surveys.js does not match its dist/integrity.json (${published}; the file is ${integrity}).`);
  }
  loaded = { bytes, version, integrity };
  return loaded;
}

function publishedIntegrity(dir: string): string | undefined {
  try {
    const { files } = JSON.parse(readFileSync(path.join(dir, 'dist', 'integrity.json'), 'utf8')) as { files?: Record<string, string> };
    return files?.['surveys.js'];
  } catch {
    return undefined;
  }
}
