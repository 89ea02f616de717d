import { Anchor, Breadcrumbs, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
// The styles of the pages' components (the shell's are in first-load.css): every page of a project has a header.
import '../styles/pages.css';

/** A page's title (also the document's), an optional trail back, a line of help and the page's main actions. */
export function PageHeader({
  title,
  description,
  actions,
  trail,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  trail?: { label: string; to: string }[];
}) {
  useEffect(() => {
    if (typeof title === 'string') document.title = `${title} · Service`;
  }, [title]);
  return (
    <Stack gap={4} mb="lg">
      {trail && (
        <Breadcrumbs separator="›" fz="sm">
          {trail.map((t) => (
            <Anchor key={t.to} component={Link} to={t.to} size="sm">
              {t.label}
            </Anchor>
          ))}
        </Breadcrumbs>
      )}
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Title order={1} size="h2" className="wrap-anywhere" style={{ minWidth: 0, flex: '1 1 300px' }}>
          {title}
        </Title>
        {actions && <Group gap="sm">{actions}</Group>}
      </Group>
      {description && (
        <Text c="dimmed" size="sm" className="wrap-anywhere">
          {description}
        </Text>
      )}
    </Stack>
  );
}
