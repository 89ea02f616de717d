// The benchmark figure of the web app: gzip bytes of the JS and CSS that index.html loads (its module script, the
// modules it preloads, its style sheets). Run after a build: node packages/web/scripts/first-load-size.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = fileURLToPath(new URL('../../server/web-dist/', import.meta.url));
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const files = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let total = 0;
for (const file of files) {
  const size = gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
console.log(`${(total / 1024).toFixed(1).padStart(7)} KB  gzip, first load (budget 200 KB)`);
if (total > 200 * 1024) process.exitCode = 1;
