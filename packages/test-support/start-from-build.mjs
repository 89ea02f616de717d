// A vitest global setup (`globalSetup` of the suites that start service processes): the sources are built once, and the
// suite's processes start from that build (`serviceBin`) rather than compiling the sources through tsx at every start.
// Each run builds into a folder of its own (suites run side by side in `npm test`), removed at the end.
import fs from 'node:fs';
import path from 'node:path';
import { buildService } from './service-process.mjs';

export default function setup() {
  const entry = buildService(`.test-build-${process.pid}`);
  process.env.SERVICE_BIN = entry;
  return () => fs.rmSync(path.dirname(entry), { recursive: true, force: true });
}
