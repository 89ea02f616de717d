// `npm run bench -- <name> [args...]` runs bench/<name>.mjs (the module runs on import; if it exports
// `main`, that is called with the remaining arguments).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [name, ...args] = process.argv.slice(2);
const file = name && /^[\w-]+$/.test(name) ? path.join(here, `${name}.mjs`) : undefined;
if (!file || name === 'run' || !fs.existsSync(file)) {
  const names = fs
    .readdirSync(here)
    .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
    .map((f) => f.slice(0, -4));
  console.error(`usage: npm run bench -- <name>, with bench/<name>.mjs one of: ${names.sort().join(', ')}`);
  process.exit(name ? 1 : 0);
}
process.argv = [process.argv[0], file, ...args];
const module = await import(pathToFileURL(file).href);
if (typeof module.main === 'function') await module.main(args);
