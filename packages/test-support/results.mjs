// Writes a section of bench/RESULTS.md; used by the benchmarks and by service-js's size script. Types in results.d.mts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench/RESULTS.md');

/** Replaces (or appends) the `## <title>` section of bench/RESULTS.md. */
export function record(title, body) {
  let text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmark results\n\nEach section is rewritten by the command it names.\n';
  const heading = `## ${title}`;
  const section = `${heading}\n\n${body.trim()}\n`;
  // The whole heading line, so that `## Flags` does not match `## Flags, before` (the leading newline makes up for the one added).
  const start = `\n${text}\n`.indexOf(`\n${heading}\n`);
  if (start === -1) text = `${text.trimEnd()}\n\n${section}`;
  else {
    const next = text.indexOf('\n## ', start + heading.length);
    text = `${text.slice(0, start)}${section}${next === -1 ? '' : text.slice(next)}`;
  }
  fs.writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
}
