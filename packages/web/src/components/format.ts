/** A date and time in the reader's locale, or '—'. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** How long ago, in words ("5 min ago"). */
export function timeAgo(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = Date.now() - new Date(iso).getTime();
  if (Number.isNaN(ms)) return iso;
  const s = Math.round(ms / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  if (s < 86400 * 30) return `${Math.round(s / 86400)} d ago`;
  return formatTime(iso);
}

/** Any value as short text for a table cell. */
export function show(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** JSON text → value, or an error message. Empty text is `undefined`. */
export function parseJson(text: string): { value?: unknown; error?: string } {
  if (text.trim() === '') return {};
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
}

/** `datetime-local` input text (the reader's time zone) → ISO, or undefined when it is no time. */
export const localToIso = (local: string) => (local && !Number.isNaN(new Date(local).getTime()) ? new Date(local).toISOString() : undefined);

/** ISO → `datetime-local` input text in the reader's time zone ('' when it is no time). */
export function isoToLocal(iso?: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
