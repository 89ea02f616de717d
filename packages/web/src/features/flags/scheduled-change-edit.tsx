import { Button, Group, Modal, NativeSelect, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ScheduledChange, ScheduledChangePayload } from '../../api/types';
import { useFormErrors } from '../../components/form-errors';
import { isoToLocal, localToIso } from '../../components/format';
import { toast } from '../../components/toast';
import { flagKeys, scheduleApi } from './api';

const statusOf = (payload: ScheduledChangePayload) => (payload.active === undefined ? 'keep' : payload.active ? 'on' : 'off');

/**
 * A dialog to change a pending change's time, the status it sets and its rollout (`PATCH …/scheduled_changes/:id/`);
 * variants it sets are kept. Closed (`change` null) it renders nothing.
 */
export function EditScheduledChange({
  projectId,
  flagId,
  change,
  onClose,
}: {
  projectId: number;
  flagId: number;
  change: ScheduledChange | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={change !== null} onClose={onClose} title="Edit the scheduled change">
      {change && <EditForm key={change.id} projectId={projectId} flagId={flagId} change={change} onClose={onClose} />}
    </Modal>
  );
}

function EditForm({ projectId, flagId, change, onClose }: { projectId: number; flagId: number; change: ScheduledChange; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [at, setAt] = useState(isoToLocal(change.scheduled_at));
  const [active, setActive] = useState<string>(statusOf(change.payload));
  const [rollout, setRollout] = useState<number | string>(change.payload.rollout_percentage ?? '');
  const errors = useFormErrors((attr) => (attr.startsWith('payload') ? 'payload' : attr));
  const save = useMutation({
    mutationFn: (body: { scheduled_at: string; payload: ScheduledChangePayload }) => scheduleApi.update(projectId, flagId, change.id, body),
    onSuccess: () => {
      toast({ color: 'green', message: 'Saved the scheduled change.' });
      onClose();
    },
    onError: (error) => errors.fromError(error),
    onSettled: () => queryClient.invalidateQueries({ queryKey: flagKeys.schedule(projectId, flagId) }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    errors.clear();
    const scheduledAt = localToIso(at);
    if (!scheduledAt) return errors.set('scheduled_at', 'Pick a date and time.');
    const payload: ScheduledChangePayload = change.payload.variants ? { variants: change.payload.variants } : {};
    if (active !== 'keep') payload.active = active === 'on';
    if (rollout !== '') payload.rollout_percentage = Number(rollout);
    if (!Object.keys(payload).length) return errors.set('payload', 'Choose what changes: turn the flag on or off, or set a rollout.');
    save.mutate({ scheduled_at: scheduledAt, payload });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput label="When" type="datetime-local" value={at} onChange={(e) => setAt(e.currentTarget.value)} error={errors.field('scheduled_at')} />
        <NativeSelect
          label="Status"
          value={active}
          onChange={(e) => setActive(e.currentTarget.value)}
          data={[
            { value: 'keep', label: 'Keep as it is' },
            { value: 'on', label: 'Turn on' },
            { value: 'off', label: 'Turn off' },
          ]}
        />
        <NumberInput
          label="Rollout (%)"
          placeholder="unchanged"
          value={rollout}
          onChange={setRollout}
          min={0}
          max={100}
          clampBehavior="strict"
          error={errors.field('payload')}
        />
        {change.payload.variants && (
          <Text size="sm" c="dimmed">
            The variants it sets are kept.
          </Text>
        )}
        {errors.general && (
          <Text size="sm" c="red" role="alert">
            {errors.general}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
