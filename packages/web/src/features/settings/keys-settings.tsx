import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  MultiSelect,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isAdmin, useMe, useProjectId, useProjects } from '../../api/hooks';
import type { CreatedPersonalApiKey, PersonalApiKey } from '../../api/types';
import { confirm } from '../../components/confirm';
import { CopyValue } from '../../components/copy-code';
import { useFormErrors } from '../../components/form-errors';
import { formatTime, timeAgo } from '../../components/format';
import { describeError, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { Section } from './section';
import { keysChanged, settingsApi, settingsQueries } from './api';

/** What a key's scope can name (`<object>:read|write`), as the service lists them, with the words the app uses. */
const OBJECTS = [
  { object: 'feature_flag', label: 'Feature flags' },
  { object: 'early_access_feature', label: 'Early access features' },
  { object: 'experiment', label: 'Experiments' },
  { object: 'event', label: 'Events' },
  { object: 'person', label: 'People' },
  { object: 'error_tracking', label: 'Errors' },
  { object: 'activity_log', label: 'Activity log' },
  { object: 'project', label: 'Projects' },
  { object: 'webhook', label: 'Webhooks' },
  { object: 'organization_member', label: 'Members and invites' },
  { object: 'personal_api_key', label: 'Personal API keys' },
] as const;
type Access = 'none' | 'read' | 'write';
const ACCESS: { value: Access; label: string }[] = [
  { value: 'none', label: 'None' },
  { value: 'read', label: 'Read' },
  { value: 'write', label: 'Read and write' },
];

/** Whether `granted` includes `scope` as the service decides it: `*` grants everything, `write` implies `read`. */
function grants(granted: readonly string[], scope: string): boolean {
  if (granted.includes('*') || granted.includes(scope)) return true;
  const [object, action] = scope.split(':');
  return action === 'read' && granted.includes(`${object}:write`);
}

/** The keys the signed-in user may manage (every key of the organization for admins and owners), and a form for a new one. */
export function KeysSettings() {
  const queryClient = useQueryClient();
  const projectId = useProjectId();
  const me = useMe();
  const admin = isAdmin(me.data);
  const projects = useProjects();
  const keys = useQuery(settingsQueries.keys());
  const [created, setCreated] = useState<CreatedPersonalApiKey | null>(null);
  const projectName = (id: number) => projects.data?.results.find((p) => p.id === id)?.name ?? `Project ${id}`;
  const revoke = useMutation({
    mutationFn: (id: PersonalApiKey['id']) => settingsApi.revokeKey(id),
    onSuccess: () => {
      toast({ message: 'Key revoked: requests made with it now fail.' });
      void keysChanged(queryClient);
    },
    onError: (e) => toast({ color: 'red', title: 'Could not revoke the key', message: describeError(e) }),
  });
  const owner = (k: PersonalApiKey) => (k.user ? (k.user.id === me.data?.id ? 'you' : k.user.name || k.user.email) : null);
  const confirmRevoke = async (k: PersonalApiKey) => {
    const whose = k.user ? (k.user.id === me.data?.id ? '' : ` of ${k.user.name || k.user.email}`) : ', which belongs to no user (the command line made it)';
    const ok = await confirm({
      title: `Revoke ${k.label}${whose}?`,
      message: 'Scripts and servers using it stop working at once.',
      confirmLabel: 'Revoke key',
      danger: true,
    });
    if (ok) revoke.mutate(k.id);
  };
  const rows = keys.data?.results ?? [];

  return (
    <Stack gap="lg">
      <Section
        title="Personal API keys"
        description={
          admin
            ? 'Every key of the organization: yours, your teammates’ and the command line’s (the key printed at the first start among them). Admins and owners can revoke any of them.'
            : 'Your keys, for scripts and servers that call the REST API as you (Authorization: Bearer <key>).'
        }
      >
        {keys.isPending ? (
          <LoadingState />
        ) : keys.error ? (
          <ErrorState error={keys.error} retry={() => keys.refetch()} />
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            {admin ? 'There are no keys yet.' : 'You have no keys yet.'}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table aria-label="Personal API keys" verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Label</Table.Th>
                  {admin && <Table.Th>Belongs to</Table.Th>}
                  <Table.Th>Scopes</Table.Th>
                  <Table.Th>Projects</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((k) => (
                  <Table.Tr key={k.id}>
                    <Table.Td className="wrap-anywhere" maw={220}>
                      <Text size="sm" fw={600}>
                        {k.label}
                      </Text>
                      <Text size="xs" c="dimmed" className="mono">
                        {k.mask_value}
                      </Text>
                      <Text size="xs" c="dimmed">
                        made {formatTime(k.created_at)}
                      </Text>
                    </Table.Td>
                    {admin && (
                      <Table.Td className="wrap-anywhere" maw={200}>
                        {owner(k) ?? (
                          <>
                            <Badge size="sm" variant="light" color="gray">
                              command line
                            </Badge>
                            <Text size="xs" c="dimmed">
                              no user
                            </Text>
                          </>
                        )}
                      </Table.Td>
                    )}
                    <Table.Td maw={260}>
                      {k.scopes.includes('*') ? (
                        <Text size="sm">Everything (*)</Text>
                      ) : (
                        <Group gap={4}>
                          {k.scopes.map((scope) => (
                            <Badge key={scope} size="sm" variant="light" tt="none" className="mono">
                              {scope}
                            </Badge>
                          ))}
                        </Group>
                      )}
                    </Table.Td>
                    <Table.Td className="wrap-anywhere" maw={200}>
                      <Text size="sm">{k.project_ids ? k.project_ids.map(projectName).join(', ') : 'Every project'}</Text>
                    </Table.Td>
                    <Table.Td>{k.last_used_at ? timeAgo(k.last_used_at) : 'never'}</Table.Td>
                    <Table.Td>
                      <Button size="compact-xs" variant="subtle" color="red" aria-label={`Revoke ${k.label}`} onClick={() => confirmRevoke(k)}>
                        Revoke
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Section>
      <NewKey
        projectId={projectId}
        projectOptions={(projects.data?.results ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
        onCreated={setCreated}
      />
      <Modal opened={!!created} onClose={() => setCreated(null)} title="Your new key" size="lg">
        <Stack>
          <Alert color="yellow" variant="light">
            Copy it now: it is shown only once. Anyone with it can act as you within its scopes.
          </Alert>
          {created?.value && <CopyValue value={created.value} label="Copy the key" />}
          <Button onClick={() => setCreated(null)}>Done</Button>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** The form for a new key: its label, its scopes one object at a time (or everything the role allows), its projects. */
function NewKey({
  projectId,
  projectOptions,
  onCreated,
}: {
  projectId: number;
  projectOptions: { value: string; label: string }[];
  onCreated: (key: CreatedPersonalApiKey) => void;
}) {
  const queryClient = useQueryClient();
  const me = useMe();
  const roleScopes = me.data?.scopes ?? [];
  const role = me.data?.role;
  const [label, setLabel] = useState('');
  const [everything, setEverything] = useState(false);
  const [access, setAccess] = useState<Record<string, Access>>({});
  const [projectIds, setProjectIds] = useState<string[]>([String(projectId)]);
  const errors = useFormErrors();
  const picked = OBJECTS.flatMap(({ object }) => (access[object] && access[object] !== 'none' ? [`${object}:${access[object]}`] : []));
  const scopes = everything ? roleScopes : picked;
  const create = useMutation({
    mutationFn: () =>
      settingsApi.createKey({
        label: label.trim(),
        scopes,
        ...(projectIds.length ? { project_ids: projectIds.map(Number) } : {}),
      }),
    onSuccess: (key) => {
      onCreated(key);
      setLabel('');
      void keysChanged(queryClient);
    },
    onError: (e) => errors.fromError(e),
  });
  return (
    <Section
      title="New key"
      description="Give each script or server its own key with only the scopes it needs: a server evaluating flags locally (service-node) needs Feature flags: Read alone. A key never does more than your role, and one limited to some projects acts on those alone: it cannot manage members, invites or other projects."
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          errors.clear();
          if (!label.trim()) return errors.set('label', 'Name the key after where it will be used.');
          if (scopes.length === 0) return errors.set('scopes', 'Pick at least one scope.');
          create.mutate();
        }}
        noValidate
      >
        <Stack gap="md">
          <Group align="flex-start" wrap="wrap">
            <TextInput
              label="Label"
              placeholder="Deploy script"
              value={label}
              onChange={(e) => setLabel(e.currentTarget.value)}
              error={errors.field('label') ?? errors.general}
              maxLength={100}
              w={{ base: '100%', sm: 260 }}
            />
            <MultiSelect
              label="Projects"
              description="None picked: every project"
              placeholder={projectIds.length ? undefined : 'Every project'}
              data={projectOptions}
              value={projectIds}
              onChange={setProjectIds}
              error={errors.field('project_ids')}
              clearable
              w={{ base: '100%', sm: 360 }}
            />
          </Group>
          <Radio.Group
            label="Scopes"
            description={role === 'owner' ? undefined : `Greyed out: beyond what your role (${role}) may do.`}
            value={everything ? 'everything' : 'picked'}
            onChange={(v) => setEverything(v === 'everything')}
            error={errors.field('scopes')}
          >
            <Group mt={6}>
              <Radio value="picked" label="The ones I pick" />
              <Radio value="everything" label="Everything your role allows" />
            </Group>
          </Radio.Group>
          {!everything && (
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" verticalSpacing={0}>
              {OBJECTS.map(({ object, label: name }) => (
                <Group
                  key={object}
                  justify="space-between"
                  wrap="nowrap"
                  gap="xs"
                  py={8}
                  style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
                >
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" id={`scope-${object}`}>
                      {name}
                    </Text>
                    <Text size="xs" c="dimmed" className="mono">
                      {object}
                    </Text>
                  </div>
                  <SegmentedControl
                    aria-labelledby={`scope-${object}`}
                    size="xs"
                    value={access[object] ?? 'none'}
                    onChange={(v) => setAccess((prev) => ({ ...prev, [object]: v as Access }))}
                    data={ACCESS.map((a) => ({ ...a, disabled: a.value !== 'none' && !grants(roleScopes, `${object}:${a.value}`) }))}
                  />
                </Group>
              ))}
            </SimpleGrid>
          )}
          <Group>
            <Button type="submit" loading={create.isPending}>
              Create key
            </Button>
            <Text size="xs" c="dimmed" className="mono wrap-anywhere">
              {scopes.length ? scopes.join(', ') : 'no scope picked yet'}
            </Text>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
