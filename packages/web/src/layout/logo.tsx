import { Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';

export function Logo() {
  return (
    <Link to="/" style={{ textDecoration: 'none', color: 'inherit' }} aria-label="Service home">
      <Group gap={8} wrap="nowrap">
        <svg width="24" height="24" viewBox="0 0 32 32" aria-hidden="true">
          <rect width="32" height="32" rx="7" fill="var(--mantine-color-indigo-6)" />
          <path d="M10 7v18M10 8h12l-3 5 3 5H10" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinejoin="round" strokeLinecap="round" />
        </svg>
        <Text fw={700} visibleFrom="xs">
          Service
        </Text>
      </Group>
    </Link>
  );
}
