import { ActionIcon, Autocomplete, Button, Group, Stack, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';

/** One property filter as the page edits it: the property's name and the value it must have (compared as text). */
export interface PropertyFilterDraft {
  key: string;
  value: string;
}

/** The filters in the page's address (`properties`, the API's JSON list), or none when it holds anything else. */
export function parsePropertyFilters(text: string | undefined): PropertyFilterDraft[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((f: unknown) =>
      typeof f === 'object' && f !== null && typeof (f as { key?: unknown }).key === 'string'
        ? [{ key: (f as { key: string }).key, value: String((f as { value?: unknown }).value ?? '') }]
        : [],
    );
  } catch {
    return [];
  }
}

/** The API's `properties` for the filters that name a property and a value, or undefined when none does. */
export function propertyFiltersParam(filters: PropertyFilterDraft[]): string | undefined {
  const complete = filters.filter((f) => f.key.trim() !== '' && f.value !== '').map((f) => ({ key: f.key.trim(), value: f.value }));
  return complete.length ? JSON.stringify(complete) : undefined;
}

/**
 * The events page's property filters: rows of a property name (suggested from `keys`) and a value; the page's address
 * (`properties`) follows a moment after the last keystroke. A row without a name or value filters nothing yet.
 */
export function PropertyFilters({ value, keys, onChange }: { value: string | undefined; keys: string[]; onChange: (properties: string | undefined) => void }) {
  const [rows, setRows] = useState<PropertyFilterDraft[]>(() => parsePropertyFilters(value));
  // The address changed otherwise (Clear filters, back): the rows follow it.
  const [seen, setSeen] = useState(value);
  const [written, setWritten] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (value !== written) setRows(parsePropertyFilters(value));
  }
  const write = useDebouncedCallback((next: PropertyFilterDraft[]) => {
    const param = propertyFiltersParam(next);
    setWritten(param);
    onChange(param);
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
