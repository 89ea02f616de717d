import { ActionIcon, Badge, Button, Card, Group, NativeSelect, NumberInput, SegmentedControl, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { FeatureFlag, ScheduledChange, ScheduledChangePayload } from '../../api/types';
import { confirm } from '../../components/confirm';
import { useFormErrors } from '../../components/form-errors';
import { formatTime, isoToLocal, localToIso } from '../../components/format';
import { ListSkeleton } from '../../components/list';
import { describeError, EmptyState, ErrorState } from '../../components/states';
import { toast } from '../../components/toast';
import { flagKeys, scheduleApi, scheduleQueries } from './api';
import { EditScheduledChange } from './scheduled-change-edit';

const STATUS_COLOR: Record<ScheduledChange['status'], string> = { pending: 'blue', applied: 'green', failed: 'red', cancelled: 'gray' };

/** A change in words: "Turn off, rollout 50 %". */
export function describeChange(payload: ScheduledChangePayload): string {
  const parts: string[] = [];
  if (payload.active !== undefined) parts.push(payload.active ? 'Turn on' : 'Turn off');
  if (payload.rollout_percentage !== undefined) parts.push(`rollout ${payload.rollout_percentage} %`);
  if (payload.variants) parts.push(`variants ${payload.variants.map((v) => `${v.key} ${v.rollout_percentage} %`).join(', ')}`);
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const DAY = 86_400_000;
/** A whole hour `days` from now, as `datetime-local` text. */
const inDays = (days: number) => {
  const at = new Date(Date.now() + days * DAY);
  at.setMinutes(0, 0, 0);
  return isoToLocal(at.toISOString());
};

/** The flag's scheduled changes (soonest first), a form to schedule one or a ramp, and editing or cancelling pending ones. */
export function ScheduledChanges({ projectId, flag, writable }: { projectId: number; flag: FeatureFlag; writable: boolean }) {
  const queryClient = useQueryClient();
  const changes = useQuery(scheduleQueries.list(projectId, flag.id));
  const [editing, setEditing] = useState<ScheduledChange | null>(null);
  const cancel = useMutation({
    mutationFn: (id: number) => scheduleApi.cancel(projectId, flag.id, id),
    onSuccess: () => toast({ message: 'Cancelled the scheduled change.' }),
    onError: (error) => toast({ color: 'red', title: 'Could not cancel the change', message: describeError(error) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: flagKeys.schedule(projectId, flag.id) }),
  });
  const ask = async (change: ScheduledChange) => {
    const ok = await confirm({
      title: 'Cancel this scheduled change?',
      message: `${describeChange(change.payload)} on ${formatTime(change.scheduled_at)} will not happen.`,
      confirmLabel: 'Cancel change',
    });
    if (ok) cancel.mutate(change.id);
  };

  return (
    <Stack gap="lg">
      {writable && <ScheduleForm projectId={projectId} flag={flag} />}
      <Card withBorder padding="lg" component="section" aria-label="Scheduled changes">
        <Text fw={600} mb="sm">
          Scheduled changes
        </Text>
        {changes.isPending ? (
          <ListSkeleton />
        ) : changes.error ? (
          <ErrorState error={changes.error} retry={() => changes.refetch()} title="Could not load the scheduled changes" />
        ) : changes.data.results.length === 0 ? (
          <EmptyState title="Nothing scheduled">Schedule a change to turn the flag on or off, or to ramp its rollout up over days.</EmptyState>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Change</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Scheduled by</Table.Th>
                  <Table.Th aria-label="Actions" />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {changes.data.results.map((change) => (
                  <Table.Tr key={change.id}>
                    <Table.Td>{formatTime(change.scheduled_at)}</Table.Td>
                    <Table.Td>
                      {describeChange(change.payload)}
                      {change.ramp_id && (
                        <Badge ml="xs" size="sm" variant="light" color="grape">
                          ramp
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATUS_COLOR[change.status]} title={change.failure_reason ?? undefined}>
                        {change.status}
                      </Badge>
                      {change.failure_reason && (
                        <Text size="xs" c="red">
                          {change.failure_reason}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td className="wrap-anywhere">{change.created_by}</Table.Td>
                    <Table.Td>
                      {writable && change.status === 'pending' && (
                        <Group gap={4} wrap="nowrap">
                          <Button
                            size="xs"
                            variant="subtle"
                            onClick={() => setEditing(change)}
                            aria-label={`Edit the change on ${formatTime(change.scheduled_at)}`}
                          >
                            Edit
                          </Button>
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            onClick={() => ask(change)}
                            aria-label={`Cancel the change on ${formatTime(change.scheduled_at)}`}
                          >
                            Cancel
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      <EditScheduledChange projectId={projectId} flagId={flag.id} change={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}

type Kind = 'once' | 'ramp';
interface Step {
  at: string;
  percentage: number | string;
}

/** Schedule one change (turn on or off, and/or a rollout percentage) or a ramp of rollout percentages. */
function ScheduleForm({ projectId, flag }: { projectId: number; flag: FeatureFlag }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>('once');
  const [at, setAt] = useState(inDays(1));
  const [active, setActive] = useState<string>(flag.active ? 'off' : 'on');
  const [rollout, setRollout] = useState<number | string>('');
  const [steps, setSteps] = useState<Step[]>([
    { at: inDays(1), percentage: 10 },
    { at: inDays(3), percentage: 50 },
    { at: inDays(7), percentage: 100 },
  ]);
  const errors = useFormErrors((attr) => (attr.startsWith('ramp') ? 'ramp' : attr.startsWith('payload') ? 'payload' : attr));
  const schedule = useMutation({
    mutationFn: (body: object) => scheduleApi.create(projectId, flag.id, body),
    onSuccess: ({ results }) => {
      toast({ color: 'green', message: results.length === 1 ? 'Scheduled the change.' : `Scheduled a ramp of ${results.length} steps.` });
      errors.clear();
      return queryClient.invalidateQueries({ queryKey: flagKeys.schedule(projectId, flag.id) });
    },
    onError: (error) => errors.fromError(error),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    errors.clear();
    if (kind === 'once') {
      const scheduledAt = localToIso(at);
      if (!scheduledAt) return errors.set('scheduled_at', 'Pick a date and time.');
      const payload: ScheduledChangePayload = {};
      if (active !== 'keep') payload.active = active === 'on';
      if (rollout !== '') payload.rollout_percentage = Number(rollout);
      if (!Object.keys(payload).length) return errors.set('payload', 'Choose what changes: turn the flag on or off, or set a rollout.');
      return schedule.mutate({ scheduled_at: scheduledAt, payload });
    }
    const ramp = steps.map((step) => ({ scheduled_at: localToIso(step.at), rollout_percentage: Number(step.percentage) }));
    if (ramp.some((step) => !step.scheduled_at || Number.isNaN(step.rollout_percentage)))
      return errors.set('ramp', 'Give every step a date and time and a percentage.');
    schedule.mutate({ ramp });
  };
  const setStep = (i: number, change: Partial<Step>) => setSteps((all) => all.map((step, j) => (j === i ? { ...step, ...change } : step)));

  return (
    <Card withBorder padding="lg" component="section" aria-label="Schedule a change">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Text fw={600}>Schedule a change</Text>
            <SegmentedControl
              aria-label="Kind of schedule"
              value={kind}
              onChange={(value) => {
                setKind(value as Kind);
                errors.clear();
              }}
              data={[
                { value: 'once', label: 'Once' },
                { value: 'ramp', label: 'Ramp' },
              ]}
            />
          </Group>
          {kind === 'once' ? (
            <Group align="flex-start" wrap="wrap">
              <TextInput
                label="When"
                type="datetime-local"
                value={at}
                onChange={(e) => setAt(e.currentTarget.value)}
                error={errors.field('scheduled_at')}
                w={220}
              />
              <NativeSelect
                label="Status"
                value={active}
                onChange={(e) => setActive(e.currentTarget.value)}
                data={[
                  { value: 'keep', label: 'Keep as it is' },
                  { value: 'on', label: 'Turn on' },
                  { value: 'off', label: 'Turn off' },
                ]}
                w={180}
              />
              <NumberInput
                label="Rollout (%)"
                placeholder="unchanged"
                value={rollout}
                onChange={setRollout}
                min={0}
                max={100}
                clampBehavior="strict"
                w={160}
                error={errors.field('payload')}
              />
            </Group>
          ) : (
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                Each step sets the rollout of every condition set at its time, e.g. 10 % tomorrow, 50 % in three days, 100 % in a week.
              </Text>
              {steps.map((step, i) => (
                <Group key={i} align="flex-end" wrap="wrap">
                  <TextInput
                    label={`Step ${i + 1}: when`}
                    type="datetime-local"
                    value={step.at}
                    onChange={(e) => setStep(i, { at: e.currentTarget.value })}
                    w={220}
                  />
                  <NumberInput
                    label={`Step ${i + 1}: rollout (%)`}
                    value={step.percentage}
                    onChange={(value) => setStep(i, { percentage: value })}
                    min={0}
                    max={100}
                    clampBehavior="strict"
                    w={180}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    mb={2}
                    aria-label={`Remove step ${i + 1}`}
                    disabled={steps.length === 1}
                    onClick={() => setSteps((all) => all.filter((_, j) => j !== i))}
                  >
                    ×
                  </ActionIcon>
                </Group>
              ))}
              <Group>
                <Button
                  variant="light"
                  size="xs"
                  disabled={steps.length >= 20}
                  onClick={() =>
                    setSteps((all) => [
                      ...all,
                      {
                        at: isoToLocal(new Date(Date.parse(localToIso(all.at(-1)?.at ?? '') ?? new Date().toISOString()) + DAY).toISOString()),
                        percentage: 100,
                      },
                    ])
                  }
                >
                  Add a step
                </Button>
              </Group>
              {errors.field('ramp') && (
                <Text size="sm" c="red" role="alert">
                  {errors.field('ramp')}
                </Text>
              )}
            </Stack>
          )}
          {errors.general && (
            <Text size="sm" c="red" role="alert">
              {errors.general}
            </Text>
          )}
          <Group>
            <Button type="submit" loading={schedule.isPending}>
              {kind === 'once' ? 'Schedule change' : 'Schedule ramp'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
