import { ActionIcon, Autocomplete, Button, Group, Stack, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';

/** One property filter as the page edits it: the property's name and the value it must have (compared as text). */
export interface PropertyFilterDraft {
  key: string;
  value: string;
}

/**
 * The filters in the page's address (`properties`: the router reads a JSON list as a list; a JSON text of one is taken
 * too), or none when it holds anything else.
 */
export function parsePropertyFilters(value: unknown): PropertyFilterDraft[] {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list.flatMap((f: unknown) =>
    typeof f === 'object' && f !== null && typeof (f as { key?: unknown }).key === 'string'
      ? [{ key: (f as { key: string }).key, value: String((f as { value?: unknown }).value ?? '') }]
      : [],
  );
}

/** The filters that name a property and a value, as the API takes them, or undefined when none does. */
export function completeFilters(filters: PropertyFilterDraft[]): PropertyFilterDraft[] | undefined {
  const complete = filters.filter((f) => f.key.trim() !== '' && f.value !== '').map((f) => ({ key: f.key.trim(), value: f.value }));
  return complete.length ? complete : undefined;
}

/**
 * The events page's property filters: rows of a property name (suggested from `keys`) and a value; the page's address
 * (`properties`, a JSON list) follows a moment after the last keystroke. A row without a name or value filters nothing yet.
 */
export function PropertyFilters({
  value,
  keys,
  onChange,
}: {
  value: unknown;
  keys: string[];
  onChange: (properties: PropertyFilterDraft[] | undefined) => void;
}) {
  const [rows, setRows] = useState<PropertyFilterDraft[]>(() => parsePropertyFilters(value));
  // The address changed otherwise (Clear filters, back): the rows follow it.
  const current = JSON.stringify(completeFilters(parsePropertyFilters(value)) ?? null);
  const [seen, setSeen] = useState(current);
  const [written, setWritten] = useState(current);
  if (current !== seen) {
    setSeen(current);
    if (current !== written) setRows(parsePropertyFilters(value));
  }
  const write = useDebouncedCallback((next: PropertyFilterDraft[]) => {
    const complete = completeFilters(next);
    setWritten(JSON.stringify(complete ?? null));
    onChange(complete);
  }, 400);
  const set = (next: PropertyFilterDraft[]) => {
    setRows(next);
    write(next);
  };
  return (
    <Stack gap="xs" mb="md">
      {rows.map((row, i) => (
        <Group key={i} gap="sm" align="flex-end" wrap="wrap">
          <Autocomplete
            label={`Property ${i + 1}`}
            placeholder="$current_url"
            data={keys}
            limit={50}
            value={row.key}
            onChange={(key) => set(rows.map((r, j) => (j === i ? { ...r, key } : r)))}
            w={{ base: '100%', sm: 240 }}
            maxLength={400}
          />
          <TextInput
            label={`Value of property ${i + 1}`}
            description="Exactly, as text: true, 3, pro"
            value={row.value}
            onChange={(e) => {
              const text = e.currentTarget.value;
              set(rows.map((r, j) => (j === i ? { ...r, value: text } : r)));
            }}
            w={{ base: '100%', sm: 240 }}
            maxLength={1000}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            mb={2}
            aria-label={`Remove property filter ${i + 1}`}
            onClick={() => set(rows.filter((_, j) => j !== i))}
          >
            ✕
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button variant="default" size="xs" disabled={rows.length >= 20} onClick={() => setRows([...rows, { key: '', value: '' }])}>
          Add property filter
        </Button>
      </Group>
    </Stack>
  );
}
