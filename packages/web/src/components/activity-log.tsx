import { Table, Text, Timeline } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { api, qs } from '../api/client';
import type { ActivityEntry, Page } from '../api/types';
import { formatTime, show } from './format';

type Change = { field: string; before?: unknown; after?: unknown };
import { EmptyState, ErrorState, LoadingState } from './states';

/** Who made a change that no session's user made: a personal API key (by its label), the command line, or a removed user. */
function actorName(entry: ActivityEntry): string {
  if (entry.actor?.type === 'personal_api_key') return `API key “${entry.actor.name}”`;
  if (entry.actor?.type === 'command_line') return 'The command line';
  return entry.actor?.name || 'An API key';
}

/**
 * The history of one item (`GET /api/projects/:id/activity_log/?scope=…&item_id=…`, newest first): who did what, when,
 * and each field's value before and after. `noun` names the item in "<who> updated <noun>".
 */
export function ActivityLog({
  projectId,
  scope,
  itemId,
  noun,
}: {
  projectId: number;
  scope: 'FeatureFlag' | 'EarlyAccessFeature';
  itemId: string;
  noun: string;
}) {
  const log = useQuery({
    queryKey: ['activity_log', projectId, scope, itemId],
    queryFn: () => api.get<Page<ActivityEntry>>(`/api/projects/${projectId}/activity_log/${qs({ scope, item_id: itemId, limit: 100 })}`),
  });
  if (log.isPending) return <LoadingState label="Loading the history…" />;
  if (log.error)
    return (
      <ErrorState error={log.error} retry={() => log.refetch()} title="Could not load the history" missingApi="The history needs the activity log endpoint." />
    );
  if (log.data.results.length === 0) return <EmptyState title="No changes recorded yet">Every change to {noun} (who, when, what) will show here.</EmptyState>;
  return (
    <Timeline bulletSize={14} lineWidth={2}>
      {log.data.results.map((entry) => (
        <Timeline.Item
          key={entry.id}
          title={
            <Text size="sm" fw={600}>
              {entry.user?.name || entry.user?.email || actorName(entry)} {entry.activity} {noun}
            </Text>
          }
        >
          <Text size="xs" c="dimmed">
            {formatTime(entry.created_at)}
          </Text>
          {entry.detail?.changes && entry.detail.changes.length > 0 && <Changes changes={entry.detail.changes} created={entry.activity === 'created'} />}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

/** Every leaf of a JSON value by its path (`groups[0].rollout_percentage`); an empty object or array is a leaf. */
function leaves(value: unknown, path = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value !== null && typeof value === 'object') {
    // An item of a list with a `key` (a variant) is named by it: `variants[control]` rather than `variants[0]`.
    const name = (v: unknown, i: number) =>
      v !== null && typeof v === 'object' && typeof (v as { key?: unknown }).key === 'string' ? (v as { key: string }).key : i;
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [`${path}[${name(v, i)}]`, v])
      : Object.entries(value).map(([k, v]) => [path ? `${path}.${k}` : k, v]);
    if (entries.length === 0) out.set(path, value);
    for (const [p, v] of entries) leaves(v, p, out);
  } else out.set(path, value);
  return out;
}

/**
 * The rows of one entry's changes. A created item lists its values; a change of an object (a flag's `filters`) lists
 * only the parts that changed, by path, instead of two blobs of JSON that differ in one number.
 */
function Changes({ changes, created }: { changes: Change[]; created: boolean }) {
  const rows: { label: string; before?: unknown; after?: unknown }[] = [];
  for (const c of changes) {
    const bothObjects = c.before !== null && typeof c.before === 'object' && c.after !== null && typeof c.after === 'object';
    if (created || !bothObjects) {
      rows.push({ label: c.field, before: c.before, after: c.after });
      continue;
    }
    const before = leaves(c.before);
    const after = leaves(c.after);
    for (const path of new Set([...before.keys(), ...after.keys()]))
      if (show(before.get(path)) !== show(after.get(path))) rows.push({ label: `${c.field}.${path}`, before: before.get(path), after: after.get(path) });
  }
  return (
    <Table mt={4} fz="xs" withRowBorders={false} layout="fixed" verticalSpacing={4}>
      <colgroup>
        <col style={{ width: created ? '30%' : '34%' }} />
        {!created && <col style={{ width: '30%' }} />}
        {!created && <col style={{ width: 28 }} />}
        <col />
      </colgroup>
      <Table.Tbody>
        {rows.map((r, i) => (
          <Table.Tr key={i}>
            <Table.Td fw={600} className="wrap-anywhere">
              {/* A long path breaks after its dots and brackets rather than inside a word. */}
              {r.label.split(/(?<=[.\]])/).map((part, j) => (
                <Fragment key={j}>
                  {j > 0 && <wbr />}
                  {part}
                </Fragment>
              ))}
            </Table.Td>
            {!created && (
              <Table.Td className="mono wrap-anywhere" c="red">
                {show(r.before)}
              </Table.Td>
            )}
            {!created && <Table.Td>→</Table.Td>}
            <Table.Td className="mono wrap-anywhere" c={created ? undefined : 'green'}>
              {show(r.after)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
