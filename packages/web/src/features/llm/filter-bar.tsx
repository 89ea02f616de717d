import { Button, Checkbox, Group, NativeSelect, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import type { LlmFilters } from './api';
import { DATES } from './filters';

/** A text filter that writes to the address 300 ms after the last keystroke, and follows the address when it changes. */
export function TextFilter({
  label,
  placeholder,
  value,
  onChange,
  width,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (v: string) => void;
  width: number;
}) {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  const debounced = useDebouncedCallback(onChange, 300);
  if (value !== seen) {
    setSeen(value);
    setText(value);
  }
  return (
    <TextInput
      label={label}
      placeholder={placeholder}
      value={text}
      onChange={(e) => {
        setText(e.currentTarget.value);
        debounced(e.currentTarget.value.trim());
      }}
      w={{ base: '100%', sm: width }}
      maxLength={500}
    />
  );
}

/** The list filters kept in the address: setting one goes back to the first page. */
export function useFilterNavigation() {
  const navigate = useNavigate();
  const set = (patch: LlmFilters) =>
    void navigate({ to: '.', search: (prev: Record<string, string | undefined>) => ({ ...prev, page: undefined, ...patch }), replace: true });
  const clear = () => void navigate({ to: '.', search: {}, replace: true });
  return { set, clear };
}

/** The filters both lists have: person, model, time range, errors only; `children` adds a list's own. */
export function FilterBar({ filters, children }: { filters: LlmFilters; children?: ReactNode }) {
  const { set, clear } = useFilterNavigation();
  return (
    <Group gap="sm" mb="md" align="flex-end" wrap="wrap">
      <TextFilter
        label="Person"
        placeholder="Distinct id"
        value={filters.distinct_id ?? ''}
        onChange={(v) => set({ distinct_id: v || undefined })}
        width={180}
      />
      <TextFilter label="Model" placeholder="gpt-4o-mini" value={filters.model ?? ''} onChange={(v) => set({ model: v || undefined })} width={180} />
      {children}
      <NativeSelect
        label="When"
        data={[{ value: '', label: 'Any time' }, ...DATES]}
        value={filters.date_from ?? ''}
        onChange={(e) => set({ date_from: e.currentTarget.value || undefined })}
        w={150}
      />
      <Checkbox
        label="Errors only"
        checked={filters.is_error === 'true'}
        onChange={(e) => set({ is_error: e.currentTarget.checked ? 'true' : undefined })}
        mb={8}
      />
      {Object.keys(filters).length > 0 && (
        <Button variant="subtle" onClick={clear}>
          Clear filters
        </Button>
      )}
    </Group>
  );
}
