import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3';

/** How often the checkpointer copies the WAL into the database file. */
const CHECKPOINT_EVERY_MS = 200;
/** The WAL pages SQLite's own checkpoint waits for (its default), restored when the worker cannot run. */
const AUTOCHECKPOINT_PAGES = 1000;

// Runs in the worker, on its own connection. PASSIVE never waits for (nor blocks) readers and writers; once a
// checkpoint has copied every frame and nothing was written since, TRUNCATE empties the WAL file. The connection
// waits for no one (busy timeout 0): while a TRUNCATE waits for a reader, SQLite keeps every new writer out, and the
// reader may be this service's own, whose read ends only when its event loop turns, which its writer, busy-waiting,
// holds up; the write failed once DATABASE_TIMEOUT_MS had passed (test/checkpointer.test.ts). A TRUNCATE that cannot
// finish at once is tried again at a later idle tick.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.file, { timeout: 0 });
let idleAt = -1;
const timer = setInterval(() => {
  try {
    const [{ log, checkpointed }] = db.pragma('wal_checkpoint(PASSIVE)');
    if (log > 0 && log === checkpointed && log === idleAt) db.pragma('wal_checkpoint(TRUNCATE)');
    idleAt = log === checkpointed ? log : -1;
  } catch {}
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Moves WAL checkpoints off the event loop: SQLite runs them inside the commit that passes 1000 WAL pages, copying
 * pages and syncing the database file on the thread that commits. Here `sqlite` stops doing so and a worker thread
 * with its own connection checkpoints every CHECKPOINT_EVERY_MS instead. Resolves `stop` once the worker has closed.
 */
export function checkpointInWorker(sqlite: SQLite.Database, file: string): { stop(): Promise<void> } {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { module, file, everyMs: CHECKPOINT_EVERY_MS } });
  worker.unref();
  sqlite.pragma('wal_autocheckpoint = 0');
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  // Without the worker, SQLite checkpoints as it did, so the WAL stays bounded.
  worker.once('error', () => sqlite.open && sqlite.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`));
  return {
    stop: () => {
      // Keeps the process alive until the worker has closed its connection.
      worker.ref();
      worker.postMessage('stop');
      return exited;
    },
  };
}
