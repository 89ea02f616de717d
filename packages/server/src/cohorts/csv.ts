import { Slices } from '../turns';

/** The fields of one CSV line (RFC 4180 quoting; a quoted field does not span lines). */
function fields(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}

/**
 * The distinct ids of an uploaded CSV: the column named `distinct_id` when the first line names one, else the first
 * column of every line; blank lines are skipped. Read in slices (a million lines is tens of megabytes).
 */
export async function distinctIdsOfCsv(text: string): Promise<string[]> {
  const lines = text.split(/\r?\n/);
  const header = fields(lines[0] ?? '').map((f) => f.trim().toLowerCase());
  const column = header.indexOf('distinct_id');
  const ids: string[] = [];
  const slices = new Slices();
  await slices.begin();
  for (let i = column >= 0 ? 1 : 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const id = fields(line)[Math.max(column, 0)]?.trim();
    if (id) ids.push(id);
    if ((i & 4095) === 0 && slices.over) await slices.next();
  }
  return ids;
}
