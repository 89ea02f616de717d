import { Button, Group } from '@mantine/core';
import { Link } from '@tanstack/react-router';

const PAGES = [
  { path: '', label: 'Overview' },
  { path: '/generations', label: 'Generations' },
  { path: '/traces', label: 'Traces' },
  { path: '/prompts', label: 'Prompts' },
] as const;

/** The LLM section's pages, under each page's header: the current one marked for screen readers too. */
export function LlmNav({ projectId, current }: { projectId: number; current: (typeof PAGES)[number]['label'] }) {
  return (
    <Group component="nav" aria-label="LLM observability" gap={4} mb="md">
      {PAGES.map((p) => (
        <Button
          key={p.label}
          component={Link}
          to={`/project/${projectId}/llm${p.path}`}
          size="compact-sm"
          variant={p.label === current ? 'light' : 'subtle'}
          color={p.label === current ? undefined : 'gray'}
          aria-current={p.label === current ? 'page' : undefined}
        >
          {p.label}
        </Button>
      ))}
    </Group>
  );
}
