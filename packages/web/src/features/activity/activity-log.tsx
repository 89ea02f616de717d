import { Anchor, Button, Group, Table, Text, Timeline, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Fragment, useState, type ReactNode } from 'react';
import type { ActivityEntry } from '../../api/types';
import { formatTime, timeAgo } from '../../components/format';
import { EmptyState, ErrorState, LoadingState } from '../../components/states';
import { activityQueries } from './api';

type Change = { field: string; before?: unknown; after?: unknown };

/**
 * Who made a change: the session's user, else a personal API key (by its label, and its user's name when `userName`
 * knows it), the command line, or a removed user.
 */
export function whoDid(entry: ActivityEntry, userName?: (id: number) => string | undefined): string {
  if (entry.user) return entry.user.name || entry.user.email || 'A removed user';
  if (entry.actor?.type === 'personal_api_key') {
    const owner = entry.actor.user_id === null ? undefined : userName?.(entry.actor.user_id);
    return `API key “${entry.actor.name}”${owner ? ` of ${owner}` : ''}`;
  }
  if (entry.actor?.type === 'command_line') return 'The command line';
  return entry.actor?.name || 'An API key';
}

/**
 * The history of one item (`GET /api/projects/:id/activity_log/?scope=…&item_id=…`, newest first): who did what, when,
 * and each field's value before and after, with a way to the whole project's activity. `noun` names the item in
 * "<who> updated <noun>".
 */
export function ActivityLog({
  projectId,
  scope,
  itemId,
  noun,
}: {
  projectId: number;
  scope: 'FeatureFlag' | 'EarlyAccessFeature' | 'Cohort';
  itemId: string;
  noun: string;
}) {
  const log = useQuery(activityQueries.item(projectId, scope, itemId));
  const everything = (
    <Anchor component={Link} to={`/project/${projectId}/activity?scope=${scope}`} size="sm">
      All changes in this project
    </Anchor>
  );
  if (log.isPending) return <LoadingState label="Loading the history…" />;
  if (log.error)
    return (
      <ErrorState error={log.error} retry={() => log.refetch()} title="Could not load the history" missingApi="The history needs the activity log endpoint." />
    );
  if (log.data.results.length === 0)
    return (
      <EmptyState title="No changes recorded yet" action={everything}>
        Every change to {noun} (who, when, what) will show here.
      </EmptyState>
    );
  return (
    <>
      <ActivityTimeline entries={log.data.results} subject={() => noun} />
      <Group mt="md">{everything}</Group>
    </>
  );
}

/** Entries of the activity log, newest first: "<who> <did> <subject>", when, and what changed (before → after). */
export function ActivityTimeline({
  entries,
  subject,
  who = whoDid,
}: {
  entries: ActivityEntry[];
  subject: (entry: ActivityEntry) => ReactNode;
  who?: (entry: ActivityEntry) => string;
}) {
  return (
    <Timeline bulletSize={14} lineWidth={2} role="list">
      {entries.map((entry) => (
        <Timeline.Item
          key={entry.id}
          role="listitem"
          title={
            <Text size="sm" fw={600} className="wrap-anywhere">
              {who(entry)} {entry.activity} {subject(entry)}
            </Text>
          }
        >
          <Text size="xs" c="dimmed" title={formatTime(entry.created_at)}>
            {timeAgo(entry.created_at)} · {formatTime(entry.created_at)}
          </Text>
          {entry.detail?.changes &&
            entry.detail.changes.length > 0 &&
            (entry.activity === 'created' ? (
              <CreatedValues changes={entry.detail.changes} scope={entry.scope} />
            ) : (
              <Changes changes={entry.detail.changes} created={false} scope={entry.scope} />
            ))}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

/** What an item was created with: folded away, since a creation says little beyond its name and a flag's has dozens of values. */
function CreatedValues({ changes, scope }: { changes: Change[]; scope: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="subtle" size="compact-xs" px={0} mt={2} onClick={() => setOpen(!open)} aria-expanded={open}>
        {open ? 'Hide the values it was created with' : 'Show the values it was created with'}
      </Button>
      {open && <Changes changes={changes} created scope={scope} />}
    </>
  );
}

const isObject = (v: unknown): v is object => v !== null && typeof v === 'object';
const isPlainList = (v: unknown) => Array.isArray(v) && v.length > 0 && v.every((item) => !isObject(item));

/**
 * Every leaf of a JSON value by its path (`groups[0].rollout_percentage`); an empty object or array, and a list of plain
 * values (a filter's values), is a leaf.
 */
function leaves(value: unknown, path = '', out = new Map<string, unknown>(), named = false): Map<string, unknown> {
  if (isObject(value) && !isPlainList(value)) {
    // An item of a list with a `key` (a variant) is named by it: `variants[control]` rather than `variants[0]`, and its
    // `key` is not repeated as a value of its own.
    const keyOf = (v: unknown) => (isObject(v) && typeof (v as { key?: unknown }).key === 'string' ? (v as { key: string }).key : undefined);
    const entries: [string, unknown, boolean][] = Array.isArray(value)
      ? value.map((v, i) => [`${path}[${keyOf(v) ?? i}]`, v, keyOf(v) !== undefined])
      : Object.entries(value)
          .filter(([k]) => !(named && k === 'key'))
          .map(([k, v]) => [path ? `${path}.${k}` : k, v, false]);
    if (entries.length === 0) out.set(path, value);
    for (const [p, v, n] of entries) leaves(v, p, out, n);
  } else out.set(path, value);
  return out;
}

/** The words for the parts of a path (`filters`, `multivariate`: none, they only group the rest). */
const WORDS: Record<string, string> = {
  filters: '',
  multivariate: '',
  groups: 'condition',
  super_groups: 'early access condition',
  properties: 'filter',
  variants: 'variant',
  payloads: 'payload',
  rollout_percentage: 'rollout %',
  active: 'enabled',
  ensure_experience_continuity: 'persist across authentication',
  documentation_url: 'documentation URL',
  aggregation_group_type_index: 'group type',
  scheduled_at: 'when',
};

/**
 * A flag's scheduled change (field `scheduled_change`, its value `{id, scheduled_at, …payload}`) as a field named by
 * the change, "Scheduled change #12 › when", so that a ramp's steps read apart; its id is not a value of its own.
 */
function namedChange(c: Change): Change {
  if (c.field !== 'scheduled_change') return c;
  const id = [c.before, c.after].map((v) => (isObject(v) ? (v as { id?: unknown }).id : undefined)).find((v) => v !== undefined);
  // Its time as the rest of the app shows times, rather than ISO text.
  const shown = (v: unknown) =>
    isObject(v)
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => k !== 'id')
            .map(([k, value]) => [k, k === 'scheduled_at' && typeof value === 'string' ? formatTime(value) : value]),
        )
      : v;
  return { field: id === undefined ? c.field : `scheduled_change #${String(id)}`, before: shown(c.before), after: shown(c.after) };
}

/**
 * A path as words: `filters.groups[0].rollout_percentage` → "Condition 1 › rollout %", `…variants[control]…` →
 * "Variant “control” › …". A flag's `name` is its description.
 */
export function fieldLabel(path: string, scope?: string): string {
  if (scope === 'FeatureFlag' && path === 'name') return 'Description';
  const parts = path
    .split('.')
    .flatMap((segment) => {
      const [, word = segment, index] = /^([^[]*)(?:\[(.*)\])?$/.exec(segment) ?? [];
      const text = WORDS[word] ?? word.replace(/_/g, ' ');
      if (index === undefined) return text ? [text] : [];
      const which = /^\d+$/.test(index) ? String(Number(index) + 1) : `“${index}”`;
      return [`${text || word} ${which}`];
    })
    .filter(Boolean);
  const label = parts.join(' › ') || path;
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** A value for a reader: text as it is, lists joined, nothing as "—". */
export function showValue(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.every((v) => !isObject(v)) ? value.map(String).join(', ') : JSON.stringify(value);
  if (isObject(value)) return Object.keys(value).length === 0 ? 'none' : JSON.stringify(value);
  return String(value);
}

/**
 * The rows of one entry's changes. A created item lists its values; a change of an object (a flag's `filters`) lists
 * only the parts that changed, by path, instead of two blobs of JSON that differ in one number. Paths read as words.
 */
export function Changes({ changes, created, scope }: { changes: Change[]; created: boolean; scope?: string }) {
  const rows: { label: string; before?: unknown; after?: unknown }[] = [];
  for (const c of changes.map(namedChange)) {
    if (!isObject(c.before) && !isObject(c.after)) {
      if (created && (c.after === null || c.after === undefined)) continue;
      rows.push({ label: fieldLabel(c.field, scope), before: c.before, after: c.after });
      continue;
    }
    const before = isObject(c.before) ? leaves(c.before) : new Map([['', c.before]]);
    const after = isObject(c.after) ? leaves(c.after) : new Map([['', c.after]]);
    for (const path of new Set([...before.keys(), ...after.keys()])) {
      const [b, a] = [before.get(path), after.get(path)];
      if (created && (a === null || a === undefined)) continue;
      const full = path === '' ? c.field : path.startsWith('[') ? `${c.field}${path}` : `${c.field}.${path}`;
      if (showValue(b) !== showValue(a)) rows.push({ label: fieldLabel(full, scope), before: b, after: a });
    }
  }
  return (
    <Table mt={4} fz="xs" withRowBorders={false} layout="fixed" verticalSpacing={4}>
      <colgroup>
        <col style={{ width: created ? '34%' : '30%' }} />
        {!created && <col style={{ width: '32%' }} />}
        {!created && <col style={{ width: 28 }} />}
        <col />
      </colgroup>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>
            <VisuallyHidden>Field</VisuallyHidden>
          </Table.Th>
          {!created && (
            <Table.Th>
              <VisuallyHidden>Before</VisuallyHidden>
            </Table.Th>
          )}
          {!created && <Table.Th aria-hidden />}
          <Table.Th>
            <VisuallyHidden>{created ? 'Value' : 'After'}</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r, i) => (
          <Table.Tr key={i}>
            <Table.Td fw={600} className="wrap-anywhere">
              {/* A long label breaks after its separators rather than inside a word. */}
              {r.label.split(/(?<= › )/).map((part, j) => (
                <Fragment key={j}>
                  {j > 0 && <wbr />}
                  {part}
                </Fragment>
              ))}
            </Table.Td>
            {!created && (
              <Table.Td className="wrap-anywhere" c="red">
                <s>{showValue(r.before)}</s>
              </Table.Td>
            )}
            {!created && <Table.Td aria-hidden>→</Table.Td>}
            <Table.Td className="wrap-anywhere" c={created ? undefined : 'green'}>
              {showValue(r.after)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
