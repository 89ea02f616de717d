// Types of results.mjs.

/** Replaces (or appends) the `## <title>` section of bench/RESULTS.md. */
export function record(title: string, body: string): void;
