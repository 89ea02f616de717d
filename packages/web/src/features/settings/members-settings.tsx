import { Badge, Button, Group, Modal, NativeSelect, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isAdmin, useMe, useMembers } from '../../api/hooks';
import type { Member, PasswordReset, Role } from '../../api/types';
import { confirm } from '../../components/confirm';
import { CopyValue } from '../../components/copy-code';
import { formatTime } from '../../components/format';
import { describeError, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { InvitesSection } from './invites-section';
import { ROLES } from './roles';
import { Section } from './section';
import { membersChanged, settingsApi } from './api';

/** Settings → Members: the members with their roles; admins change roles, remove members, make reset links and invite. */
export function MembersSettings() {
  const me = useMe();
  const admin = isAdmin(me.data);
  const queryClient = useQueryClient();
  const members = useMembers();
  const [reset, setReset] = useState<PasswordReset | null>(null);
  const changed = (message: string) => {
    toast({ message });
    void membersChanged(queryClient);
  };
  const failed = (title: string) => (e: unknown) => toast({ color: 'red', title, message: describeError(e) });
  const setMemberRole = useMutation({
    mutationFn: ({ id, role }: { id: number; role: Role }) => settingsApi.setRole(id, role),
    onSuccess: () => changed('Role changed.'),
    onError: failed('Could not change the role'),
  });
  const removeMember = useMutation({
    mutationFn: (id: number) => settingsApi.removeMember(id),
    onSuccess: () => changed('Member removed; their sessions ended and their keys were revoked.'),
    onError: failed('Could not remove the member'),
  });
  const makeReset = useMutation({
    mutationFn: (id: number) => settingsApi.passwordReset(id),
    onSuccess: setReset,
    onError: failed('Could not make a password reset link'),
  });
  /** Only an owner makes a reset link for an owner; one's own password is changed under Account. */
  const mayReset = (m: Member) => m.id !== me.data?.id && (m.role !== 'owner' || me.data?.role === 'owner');
  return (
    <Stack gap="lg">
      <Section title="Members" description="Viewers read; members also change flags and early access; admins also manage members, keys, webhooks and projects.">
        {members.isPending ? (
          <LoadingState />
        ) : members.error ? (
          <ErrorState error={members.error} retry={() => members.refetch()} />
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table aria-label="Members">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Joined</Table.Th>
                  {admin && (
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  )}
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
                        <Group gap={4} wrap="nowrap" justify="flex-end">
                          {mayReset(m) && (
                            <Button
                              size="compact-xs"
                              variant="subtle"
                              aria-label={`Reset password of ${m.email}`}
                              loading={makeReset.isPending && makeReset.variables === m.id}
                              onClick={() => makeReset.mutate(m.id)}
                            >
                              Reset password
                            </Button>
                          )}
                          {m.id !== me.data?.id && (
                            <Button
                              size="compact-xs"
                              variant="subtle"
                              color="red"
                              aria-label={`Remove ${m.email}`}
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
                        </Group>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Section>
      {admin && <InvitesSection />}
      <Modal opened={!!reset} onClose={() => setReset(null)} title="Password reset link" size="lg">
        <Stack>
          <Text size="sm" className="wrap-anywhere">
            Send this link to {reset?.email} yourself. It is shown only now, works once, and expires on {formatTime(reset?.expires_at)}. Their password stays as
            it is until they use it; then every other session of theirs ends. An earlier link for them no longer works.
          </Text>
          {reset && <CopyValue value={reset.url} label="Copy the password reset link" />}
          <Button onClick={() => setReset(null)}>Done</Button>
        </Stack>
      </Modal>
    </Stack>
  );
}
