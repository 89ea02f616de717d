import { Anchor, Badge, Group, Paper, Table, Text, Timeline, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useProjectId } from '../../api/hooks';
import { replayUrl } from '../replays/filters';
import { formatTime, show } from '../../components/format';
import { stepsOf, type ErrorEvent } from './types';

/** A property as text, when it is a non-empty string. */
export const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** Where the error happened: page, release, library, browser. */
export function Context({ event }: { event: ErrorEvent }) {
  const p = event.properties;
  const join = (...parts: unknown[]) => parts.map(text).filter(Boolean).join(' ') || undefined;
  const rows: [string, string | undefined][] = [
    ['When', formatTime(event.timestamp)],
    ['URL', text(p.$current_url)],
    ['Release', text(p.$release)],
    ['Library', join(p.$lib, p.$lib_version)],
    ['Browser', join(p.$browser, p.$browser_version)],
    ['OS', join(p.$os, p.$os_version)],
    ['Level', text(p.$exception_level)],
  ];
  const projectId = useProjectId();
  const session = text(p.$session_id);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="context-title">
      <Title order={2} size="h5" id="context-title" mb="xs">
        Context
      </Title>
      <Table fz="sm" verticalSpacing={4} aria-label="Context of the occurrence" layout="fixed">
        <Table.Tbody>
          {rows
            .filter(([, v]) => v)
            .map(([k, v]) => (
              <Table.Tr key={k}>
                <Table.Th w={80} fw={500} c="dimmed" scope="row">
                  {k}
                </Table.Th>
                <Table.Td className="mono wrap-anywhere">{v}</Table.Td>
              </Table.Tr>
            ))}
          {session && (
            <Table.Tr>
              <Table.Th w={80} fw={500} c="dimmed" scope="row">
                Replay
              </Table.Th>
              <Table.Td>
                <Anchor component={Link} to={replayUrl(projectId, session, event.timestamp)} size="sm">
                  Watch the session
                </Anchor>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** The `$exception_steps` trail: what the person did just before. */
export function Steps({ event }: { event: ErrorEvent }) {
  const steps = stepsOf(event.properties);
  const at = Date.parse(event.timestamp);
  const before = (ts?: string) => {
    const ms = at - Date.parse(ts ?? '');
    if (!Number.isFinite(ms)) return undefined;
    return ms < 1000 ? `${Math.max(0, ms)} ms before` : ms < 120_000 ? `${(ms / 1000).toFixed(1)} s before` : `${Math.round(ms / 60_000)} min before`;
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="steps-title">
      <Title order={2} size="h5" id="steps-title" mb="sm">
        Steps before the error
      </Title>
      {steps.length === 0 ? (
        <Text size="sm" c="dimmed">
          No steps came with this occurrence. service-js records page views and clicks, and your own with <code>addExceptionStep</code>.
        </Text>
      ) : (
        <Timeline bulletSize={14} lineWidth={2} active={steps.length} aria-label="Steps before the error">
          {steps.map((step, n) => {
            const extra = Object.entries(step).filter(([k]) => !k.startsWith('$'));
            return (
              <Timeline.Item
                key={n}
                title={
                  <Group gap={6} wrap="nowrap" align="baseline">
                    <Text size="sm" fw={600} className="wrap-anywhere">
                      {step.$message}
                    </Text>
                    {step.$type && (
                      <Badge size="xs" variant="light" color="gray" tt="none">
                        {step.$type}
                      </Badge>
                    )}
                  </Group>
                }
              >
                {before(step.$timestamp) && (
                  <Text size="xs" c="dimmed">
                    {before(step.$timestamp)}
                  </Text>
                )}
                {extra.length > 0 && (
                  <Text size="xs" className="mono wrap-anywhere" c="dimmed">
                    {extra.map(([k, v]) => `${k}: ${show(v)}`).join(' · ')}
                  </Text>
                )}
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
    </Paper>
  );
}
