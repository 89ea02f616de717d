import { Anchor, Badge, Button, Card, Checkbox, Group, Modal, NativeSelect, Select, Stack, Switch, Table, Tabs, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { isAdmin, useMe, useMembers, useProject, useProjectId, useProjects } from '../../api/hooks';
import type { Invite, Page, Project, Role, Webhook, WebhookDelivery } from '../../api/types';
import { confirm } from '../../components/confirm';
import { CopyValue } from '../../components/copy-code';
import { useFormErrors } from '../../components/form-errors';
import { formatTime, timeAgo } from '../../components/format';
import { describeError, EmptyState, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { PageHeader } from '../page-header';
import { InstallSection } from './install-section';
import { KeysSettings } from './keys-settings';
import { Section } from './section';

const SECTIONS = [
  { value: 'project', label: 'Project' },
  { value: 'projects', label: 'Projects' },
  { value: 'members', label: 'Members' },
  { value: 'keys', label: 'Personal API keys' },
  { value: 'webhooks', label: 'Webhooks' },
];
const ROLES: Role[] = ['viewer', 'member', 'admin', 'owner'];

export default function SettingsPage() {
  const { section = 'project' } = useParams({ strict: false }) as { section?: string };
  const projectId = useProjectId();
  const navigate = useNavigate();
  const current = SECTIONS.some((s) => s.value === section) ? section : 'project';
  return (
    <>
      <PageHeader title="Settings" />
      <Tabs value={current} onChange={(v) => navigate({ to: `/project/${projectId}/settings/${v ?? 'project'}` })} keepMounted={false}>
        <Tabs.List mb="lg">
          {SECTIONS.map((s) => (
            <Tabs.Tab key={s.value} value={s.value}>
              {s.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="project">
          <ProjectSettings />
        </Tabs.Panel>
        <Tabs.Panel value="projects">
          <ProjectsSettings />
        </Tabs.Panel>
        <Tabs.Panel value="members">
          <MembersSettings />
        </Tabs.Panel>
        <Tabs.Panel value="keys">
          <KeysSettings />
        </Tabs.Panel>
        <Tabs.Panel value="webhooks">
          <WebhooksSettings />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

function ProjectSettings() {
  const { project, isPending, error, refetch } = useProject();
  const me = useMe();
  const queryClient = useQueryClient();
  const [name, setName] = useState<string | null>(null);
  const errors = useFormErrors();
  const rename = useMutation({
    mutationFn: (value: string) => api.patch<Project>(`/api/projects/${project!.id}/`, { name: value }),
    onSuccess: () => {
      toast({ message: 'Project renamed.' });
      setName(null);
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
    },
    onError: (e) => errors.fromError(e),
  });
  if (isPending) return <LoadingState />;
  if (error) return <ErrorState error={error} retry={() => refetch()} />;
  if (!project) return <EmptyState title="No such project">It may have been removed, or you have no access to it.</EmptyState>;
  const host = window.location.origin;
  const token = project.api_token;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    errors.clear();
    const value = (name ?? project.name).trim();
    if (!value) return errors.set('name', 'A project needs a name.');
    rename.mutate(value);
  };
  return (
    <Stack gap="lg">
      <Section title="Project">
        <form onSubmit={submit} noValidate>
          <Group align="flex-end">
            <TextInput
              label="Project name"
              value={name ?? project.name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.field('name') ?? errors.general}
              disabled={!isAdmin(me.data)}
              maxLength={200}
              w={{ base: '100%', sm: 360 }}
            />
            {isAdmin(me.data) && (
              <Button type="submit" loading={rename.isPending} disabled={name === null || name === project.name}>
                Save
              </Button>
            )}
          </Group>
        </form>
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            Project token
          </Text>
          <Text size="xs" c="dimmed">
            Public: it goes into your web and mobile apps, and only lets them send events and read flags.
          </Text>
          <CopyValue value={token} label="Copy the project token" />
        </Stack>
      </Section>
      <InstallSection token={token} host={host} />
    </Stack>
  );
}

function ProjectsSettings() {
  const projects = useProjects();
  const me = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const errors = useFormErrors();
  const create = useMutation({
    mutationFn: () => api.post<Project>('/api/projects/', { name: name.trim() }),
    onSuccess: async (project) => {
      setName('');
      await queryClient.invalidateQueries({ queryKey: ['projects'] });
      toast({ message: `Created ${project.name}.` });
      await navigate({ to: `/project/${project.id}/settings/project` });
    },
    onError: (e) => errors.fromError(e),
  });
  return (
    <Section title="Projects" description="Each project has its own flags, events, people and token: use one per product or environment.">
      {projects.isPending ? (
        <LoadingState />
      ) : projects.error ? (
        <ErrorState error={projects.error} retry={() => projects.refetch()} />
      ) : (
        <Table aria-label="Projects">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Created</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {projects.data.results.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td className="wrap-anywhere">
                  <Anchor href={`/project/${p.id}/feature_flags`} size="sm">
                    {p.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{formatTime(p.created_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {isAdmin(me.data) && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            errors.clear();
            if (!name.trim()) return errors.set('name', 'Give the project a name.');
            create.mutate();
          }}
          noValidate
        >
          <Group align="flex-end">
            <TextInput
              label="New project name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.field('name') ?? errors.general}
              maxLength={200}
              w={{ base: '100%', sm: 320 }}
            />
            <Button type="submit" loading={create.isPending}>
              Create project
            </Button>
          </Group>
        </form>
      )}
    </Section>
  );
}

function MembersSettings() {
  const me = useMe();
  const admin = isAdmin(me.data);
  const queryClient = useQueryClient();
  const members = useMembers();
  const invites = useQuery({ queryKey: ['invites'], queryFn: () => api.get<{ results: Invite[] }>('/api/organization/invites/'), enabled: admin });
  const [role, setRole] = useState<Role>('member');
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<Invite | null>(null);
  const errors = useFormErrors();
  const changed = (message: string) => {
    toast({ message });
    void queryClient.invalidateQueries({ queryKey: ['members'] });
    void queryClient.invalidateQueries({ queryKey: ['invites'] });
  };
  const failed = (title: string) => (e: unknown) => toast({ color: 'red', title, message: describeError(e) });
  const setMemberRole = useMutation({
    mutationFn: ({ id, role }: { id: number; role: Role }) => api.patch(`/api/organization/members/${id}/`, { role }),
    onSuccess: () => changed('Role changed.'),
    onError: failed('Could not change the role'),
  });
  const removeMember = useMutation({
    mutationFn: (id: number) => api.delete(`/api/organization/members/${id}/`),
    onSuccess: () => changed('Member removed; their sessions ended and their keys were revoked.'),
    onError: failed('Could not remove the member'),
  });
  const invite = useMutation({
    mutationFn: () => api.post<Invite>('/api/organization/invites/', { role, ...(email.trim() ? { email: email.trim() } : {}) }),
    onSuccess: (inv) => {
      setCreated(inv);
      setEmail('');
      changed('Invite created.');
    },
    onError: (e) => errors.fromError(e),
  });
  const revoke = useMutation({
    mutationFn: (id: Invite['id']) => api.delete(`/api/organization/invites/${id}/`),
    onSuccess: () => changed('Invite revoked.'),
    onError: failed('Could not revoke the invite'),
  });
  return (
    <Stack gap="lg">
      <Section title="Members" description="Viewers read; members also change flags and early access; admins also manage members, keys, webhooks and projects.">
        {members.isPending ? (
          <LoadingState />
        ) : members.error ? (
          <ErrorState error={members.error} retry={() => members.refetch()} />
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table aria-label="Members">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Joined</Table.Th>
                  {admin && <Table.Th />}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {members.data.results.map((m) => (
                  <Table.Tr key={m.id}>
                    <Table.Td className="wrap-anywhere">
                      <Text size="sm" fw={600}>
                        {m.name || m.email} {m.id === me.data?.id && <Badge size="xs">you</Badge>}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {m.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {admin && m.id !== me.data?.id ? (
                        <NativeSelect
                          aria-label={`Role of ${m.email}`}
                          size="xs"
                          w={120}
                          data={ROLES}
                          value={m.role}
                          onChange={(e) => setMemberRole.mutate({ id: m.id, role: e.currentTarget.value as Role })}
                        />
                      ) : (
                        <Badge variant="light">{m.role}</Badge>
                      )}
                    </Table.Td>
                    <Table.Td>{formatTime(m.joined_at)}</Table.Td>
                    {admin && (
                      <Table.Td>
                        {m.id !== me.data?.id && (
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            color="red"
                            onClick={async () => {
                              const ok = await confirm({
                                title: `Remove ${m.email}?`,
                                message: 'Their sessions end and their keys are revoked.',
                                confirmLabel: 'Remove member',
                                danger: true,
                              });
                              if (ok) removeMember.mutate(m.id);
                            }}
                          >
                            Remove
                          </Button>
                        )}
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Section>
      {admin && (
        <Section title="Invites" description="An invite is a link, valid once for 7 days. Send it to your teammate yourself.">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              errors.clear();
              invite.mutate();
            }}
            noValidate
          >
            <Group align="flex-end" wrap="wrap">
              <TextInput
                label="Email (optional)"
                description="Only this address can use the link."
                type="email"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={errors.field('email') ?? errors.general}
                w={{ base: '100%', sm: 300 }}
                maxLength={320}
              />
              <Select label="Role" data={ROLES} value={role} onChange={(v) => v && setRole(v as Role)} w={140} allowDeselect={false} />
              <Button type="submit" loading={invite.isPending}>
                Create invite link
              </Button>
            </Group>
          </form>
          {invites.isPending ? (
            <LoadingState />
          ) : invites.error ? (
            <ErrorState error={invites.error} retry={() => invites.refetch()} />
          ) : invites.data.results.length === 0 ? (
            <Text size="sm" c="dimmed">
              No pending invites.
            </Text>
          ) : (
            <Table aria-label="Pending invites">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>For</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {invites.data.results.map((i) => (
                  <Table.Tr key={i.id}>
                    <Table.Td className="wrap-anywhere">{i.email ?? 'Anyone with the link'}</Table.Td>
                    <Table.Td>{i.role}</Table.Td>
                    <Table.Td>{formatTime(i.expires_at)}</Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        onClick={async () => {
                          const ok = await confirm({
                            title: 'Revoke this invite?',
                            message: `The link for ${i.email ?? 'anyone with it'} stops working.`,
                            confirmLabel: 'Revoke invite',
                            danger: true,
                          });
                          if (ok) revoke.mutate(i.id);
                        }}
                      >
                        Revoke
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Section>
      )}
      <Modal opened={!!created} onClose={() => setCreated(null)} title="Invite link" size="lg">
        <Stack>
          <Text size="sm">
            Send this link to {created?.email ?? 'your teammate'}. It is shown only now, works once, and expires on {formatTime(created?.expires_at)}.
          </Text>
          {created?.url && <CopyValue value={created.url} label="Copy the invite link" />}
          <Button onClick={() => setCreated(null)}>Done</Button>
        </Stack>
      </Modal>
    </Stack>
  );
}

const KINDS = ['early_access.enrolled', 'early_access.unenrolled', 'early_access.stage_changed', 'feature_flag.changed', 'error.new_issue', 'error.regressed'];

function WebhooksSettings() {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const base = `/api/projects/${projectId}/webhooks/`;
  const hooks = useQuery({ queryKey: ['webhooks', projectId], queryFn: () => api.get<Page<Webhook>>(base) });
  const [url, setUrl] = useState('');
  const [kinds, setKinds] = useState<string[]>(['feature_flag.changed']);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<Webhook['id'] | null>(null);
  const errors = useFormErrors((attr) => (attr === 'url' || attr === 'kinds' ? attr : undefined));
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhooks', projectId] });
  const create = useMutation({
    mutationFn: () => api.post<Webhook>(base, { url: url.trim(), kinds }),
    onSuccess: (hook) => {
      setUrl('');
      setSecret(hook.secret ?? null);
      void refresh();
    },
    onError: (e) => errors.fromError(e),
  });
  const update = useMutation({
    mutationFn: ({ id, enabled }: { id: Webhook['id']; enabled: boolean }) => api.patch(`${base}${id}/`, { enabled }),
    onSuccess: () => void refresh(),
    onError: (e) => toast({ color: 'red', title: 'Could not change the webhook', message: describeError(e) }),
  });
  const remove = useMutation({
    mutationFn: (id: Webhook['id']) => api.delete(`${base}${id}/`),
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
              {KINDS.map((k) => (
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
              {open === h.id && <Deliveries path={`${base}${h.id}/deliveries/`} />}
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

function Deliveries({ path }: { path: string }) {
  const deliveries = useQuery({ queryKey: ['deliveries', path], queryFn: () => api.get<Page<WebhookDelivery>>(`${path}?limit=20`) });
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
