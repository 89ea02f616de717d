#!/usr/bin/env node
// The `service` command. Installed from npm it runs the build (dist/main.js). In the repository, where the
// sources sit beside it (they are not in the package), it runs them through tsx instead, so no build step
// sits between `npm install` and `npm start`, and tests always run the code as it is.
import { existsSync } from 'node:fs';

const source = new URL('../src/main.ts', import.meta.url);
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import('../dist/main.js');
}
