import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { isAdmin, useMe, useProject } from '../../api/hooks';
import { CopyValue } from '../../components/copy-code';
import { useFormErrors } from '../../components/form-errors';
import { EmptyState, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { ReplaySettingsSection } from '../replays/replay-settings';
import { InstallSection } from './install-section';
import { Section } from './section';
import { projectsChanged, settingsApi } from './api';

/** Settings → Project: the project's name, its token and how to install the client. */
export function ProjectSettings() {
  const { project, isPending, error, refetch } = useProject();
  const me = useMe();
  const queryClient = useQueryClient();
  const [name, setName] = useState<string | null>(null);
  const errors = useFormErrors();
  const rename = useMutation({
    mutationFn: (value: string) => settingsApi.renameProject(project!.id, value),
    onSuccess: () => {
      toast({ message: 'Project renamed.' });
      setName(null);
      void projectsChanged(queryClient);
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
      <ReplaySettingsSection projectId={project.id} />
    </Stack>
  );
}
