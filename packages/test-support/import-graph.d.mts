// Types of import-graph.mjs.

/** Each source file under `dir` (relative, with `/`) with the files under `dir` it imports, as the tsconfig at `tsconfig` resolves them. */
export function importGraph(dir: string, tsconfig: string): Map<string, string[]>;

/** The import circles of a graph: each group of files that reach one another, sorted; none when it has none. */
export function importCycles(graph: Map<string, string[]>): string[][];

/** The source files under `dir` longer than `max` lines (default 500), with their lengths. */
export function longFiles(dir: string, max?: number): { file: string; lines: number }[];
