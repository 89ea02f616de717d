import fs from 'node:fs';

/** The server package's version (package.json sits one folder up from src/ and from dist/, where the build runs). */
export const serverVersion = (JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
