import { Anchor, Button, Group, Table, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { isAdmin, useMe, useProjects } from '../../api/hooks';
import { useFormErrors } from '../../components/form-errors';
import { formatTime } from '../../components/format';
import { ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { Section } from './section';
import { projectsChanged, settingsApi } from './api';

/** Settings → Projects: every project, and a new one (admins). */
export function ProjectsSettings() {
  const projects = useProjects();
  const me = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const errors = useFormErrors();
  const create = useMutation({
    mutationFn: () => settingsApi.createProject(name.trim()),
    onSuccess: async (project) => {
      setName('');
      await projectsChanged(queryClient);
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
