/**
 * Prints the service's OpenAPI document (what `/api/schema/` serves) as JSON, from an app on a throwaway SQLite
 * database: the web app's API types are generated from it (`npm run api-types -w packages/web`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { createServices } from '../src/services';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'service-openapi-'));
try {
  const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), runsJobs: false };
  const db = await openDatabase(config);
  const app = await buildApp(config, createServices(db, config));
  await app.ready();
  const document = JSON.stringify(app.swagger());
  await app.close();
  await db.close();
  process.stdout.write(document);
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
