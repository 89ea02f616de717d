import { Button, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CreatedInvite, Invite, Role } from '../../api/types';
import { confirm } from '../../components/confirm';
import { CopyValue } from '../../components/copy-code';
import { useFormErrors } from '../../components/form-errors';
import { formatTime } from '../../components/format';
import { describeError, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { ROLES } from './roles';
import { Section } from './section';
import { invitesChanged, settingsApi, settingsQueries } from './api';

/** Settings → Members, for admins: invite links (made, pending, revoked), each shown once when made. */
export function InvitesSection() {
  const queryClient = useQueryClient();
  const invites = useQuery(settingsQueries.invites());
  const [role, setRole] = useState<Role>('member');
  const [email, setEmail] = useState('');
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const errors = useFormErrors();
  const changed = (message: string) => {
    toast({ message });
    void invitesChanged(queryClient);
  };
  const invite = useMutation({
    mutationFn: () => settingsApi.invite({ role, ...(email.trim() ? { email: email.trim() } : {}) }),
    onSuccess: (inv) => {
      setCreated(inv);
      setEmail('');
      changed('Invite created.');
    },
    onError: (e) => errors.fromError(e),
  });
  const revoke = useMutation({
    mutationFn: (id: Invite['id']) => settingsApi.revokeInvite(id),
    onSuccess: () => changed('Invite revoked.'),
    onError: (e) => toast({ color: 'red', title: 'Could not revoke the invite', message: describeError(e) }),
  });
  return (
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
      <Modal opened={!!created} onClose={() => setCreated(null)} title="Invite link" size="lg">
        <Stack>
          <Text size="sm">
            Send this link to {created?.email ?? 'your teammate'}. It is shown only now, works once, and expires on {formatTime(created?.expires_at)}.
          </Text>
          {created?.url && <CopyValue value={created.url} label="Copy the invite link" />}
          <Button onClick={() => setCreated(null)}>Done</Button>
        </Stack>
      </Modal>
    </Section>
  );
}
