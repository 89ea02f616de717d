import { Badge, Button, Card, Checkbox, Group, Modal, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useProjectId } from '../../api/hooks';
import { WEBHOOK_KINDS, type Webhook } from '../../api/types';
import { confirm } from '../../components/confirm';
import { CopyValue } from '../../components/copy-code';
import { useFormErrors } from '../../components/form-errors';
import { timeAgo } from '../../components/format';
import { describeError, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { Section } from './section';
import { settingsApi, settingsQueries, webhooksChanged } from './api';

/** Settings → Webhooks: the project's webhooks, their deliveries, and a new one. */
export function WebhooksSettings() {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const hooks = useQuery(settingsQueries.webhooks(projectId));
  const [url, setUrl] = useState('');
  const [kinds, setKinds] = useState<string[]>(['feature_flag.changed']);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<Webhook['id'] | null>(null);
  const errors = useFormErrors((attr) => (attr === 'url' || attr === 'kinds' ? attr : undefined));
  const refresh = () => webhooksChanged(queryClient, projectId);
  const create = useMutation({
    mutationFn: () => settingsApi.createWebhook(projectId, { url: url.trim(), kinds }),
    onSuccess: (hook) => {
      setUrl('');
      setSecret(hook.secret ?? null);
      void refresh();
    },
    onError: (e) => errors.fromError(e),
  });
  const update = useMutation({
    mutationFn: ({ id, enabled }: { id: Webhook['id']; enabled: boolean }) => settingsApi.setWebhookEnabled(projectId, id, enabled),
    onSuccess: () => void refresh(),
    onError: (e) => toast({ color: 'red', title: 'Could not change the webhook', message: describeError(e) }),
  });
  const remove = useMutation({
    mutationFn: (id: Webhook['id']) => settingsApi.removeWebhook(projectId, id),
    onSuccess: () => void refresh(),
    onError: (e) => toast({ color: 'red', title: 'Could not delete the webhook', message: describeError(e) }),
  });
  return (
    <Section
      title="Webhooks"
      description="The service POSTs a signed JSON body (Standard Webhooks) to your URL when these things happen, and retries on failure."
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          errors.clear();
          if (!/^https?:\/\/\S+$/i.test(url.trim())) return errors.set('url', 'Enter a full http(s) URL.');
          if (kinds.length === 0) return errors.set('kinds', 'Pick at least one kind of event.');
          create.mutate();
        }}
        noValidate
      >
        <Stack gap="sm">
          <TextInput
            label="URL"
            placeholder="https://example.com/hooks/service"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={errors.field('url') ?? errors.general}
            maxLength={2048}
          />
          <Checkbox.Group label="Send for" value={kinds} onChange={setKinds} error={errors.field('kinds')}>
            <Group mt={4}>
              {WEBHOOK_KINDS.map((k) => (
                <Checkbox key={k} value={k} label={k} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group>
            <Button type="submit" loading={create.isPending}>
              Add webhook
            </Button>
          </Group>
        </Stack>
      </form>
      {hooks.isPending ? (
        <LoadingState />
      ) : hooks.error ? (
        <ErrorState error={hooks.error} retry={() => hooks.refetch()} missingApi="Webhooks need the webhooks API." />
      ) : hooks.data.results.length === 0 ? (
        <Text size="sm" c="dimmed">
          No webhooks yet.
        </Text>
      ) : (
        <Stack gap="sm">
          {hooks.data.results.map((h) => (
            <Card key={h.id} withBorder padding="sm">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} className="wrap-anywhere">
                    {h.url}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {h.kinds.join(', ')} · secret {h.secret_mask}
                  </Text>
                </div>
                <Group gap="xs" wrap="nowrap">
                  <Switch
                    aria-label={`Enabled: ${h.url}`}
                    checked={h.enabled}
                    onChange={(e) => update.mutate({ id: h.id, enabled: e.currentTarget.checked })}
                  />
                  <Button size="compact-xs" variant="default" onClick={() => setOpen(open === h.id ? null : h.id)}>
                    {open === h.id ? 'Hide deliveries' : 'Deliveries'}
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    onClick={async () => {
                      const ok = await confirm({
                        title: 'Delete this webhook?',
                        message: `Nothing more is sent to ${h.url}.`,
                        confirmLabel: 'Delete webhook',
                        danger: true,
                      });
                      if (ok) remove.mutate(h.id);
                    }}
                  >
                    Delete
                  </Button>
                </Group>
              </Group>
              {open === h.id && <Deliveries projectId={projectId} webhookId={h.id} />}
            </Card>
          ))}
        </Stack>
      )}
      <Modal opened={!!secret} onClose={() => setSecret(null)} title="Signing secret" size="lg">
        <Stack>
          <Text size="sm">Verify each delivery's signature with this secret. It is shown only once.</Text>
          {secret && <CopyValue value={secret} label="Copy the secret" />}
          <Button onClick={() => setSecret(null)}>Done</Button>
        </Stack>
      </Modal>
    </Section>
  );
}

function Deliveries({ projectId, webhookId }: { projectId: number; webhookId: string }) {
  const deliveries = useQuery(settingsQueries.deliveries(projectId, webhookId));
  if (deliveries.isPending) return <LoadingState />;
  if (deliveries.error) return <ErrorState error={deliveries.error} retry={() => deliveries.refetch()} />;
  if (deliveries.data.results.length === 0)
    return (
      <Text size="sm" c="dimmed" mt="sm">
        Nothing was sent yet.
      </Text>
    );
  return (
    <Table mt="sm" fz="xs" aria-label="Deliveries">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Kind</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Attempts</Table.Th>
          <Table.Th>Response</Table.Th>
          <Table.Th>Created</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {deliveries.data.results.map((d) => (
          <Table.Tr key={String(d.id)}>
            <Table.Td>{d.kind}</Table.Td>
            <Table.Td>
              <Badge size="xs" color={d.status === 'succeeded' ? 'green' : d.status === 'failed' ? 'red' : 'yellow'}>
                {d.status}
              </Badge>
            </Table.Td>
            <Table.Td>{d.attempts}</Table.Td>
            <Table.Td className="wrap-anywhere">{String(d.last_response_code ?? d.last_error ?? '—')}</Table.Td>
            <Table.Td>{timeAgo(d.created_at)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
