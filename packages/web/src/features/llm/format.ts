/** US dollars: cents for a dollar or more, down to a millionth below (calls often cost a fraction of a cent); '—' unknown. */
export function usd(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (value === 0) return '$0';
  if (Math.abs(value) >= 1) return `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return `$${value.toLocaleString('en-US', { maximumSignificantDigits: 3, maximumFractionDigits: 6 })}`;
}

/** A token count ("12,345"), or '—' when the provider returned no usage. */
export const tokens = (value: number | null | undefined) => (value === null || value === undefined ? '—' : Math.round(value).toLocaleString('en-US'));

/** Seconds as "850 ms", "2.4 s" or "3 min 5 s"; '—' when unknown. */
export function seconds(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (value < 1) return `${Math.round(value * 1000)} ms`;
  if (value < 60) return `${value.toFixed(value < 10 ? 2 : 1)} s`;
  return `${Math.floor(value / 60)} min ${Math.round(value % 60)} s`;
}

/** A share as a percentage ("2.5%"). */
export const percent = (value: number) => `${(value * 100).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
