// Types of wait.mjs.

/** Waits until `done()` holds, looking every 50 ms for up to `ms` (5 s by default); whether it did. */
export function eventually(done: () => boolean, ms?: number): Promise<boolean>;
