// Waiting in tests for what happens on its own (a log line written asynchronously, a timer, a worker). Types in wait.d.mts.

/** Waits until `done()` holds, looking every 50 ms for up to `ms` (5 s by default); whether it did. */
export async function eventually(done, ms = 5_000) {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) if (done()) return true;
  return done();
}
