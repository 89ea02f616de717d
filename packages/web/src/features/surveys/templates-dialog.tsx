import { Anchor, Button, Card, Group, Modal, Select, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { earlyAccessQueries } from '../early-access/api';
import { TEMPLATES, type TemplateId } from './templates';

const ICONS: Record<TemplateId, string> = { nps: '0–10', csat: '☺', open: '✎', beta: 'β', blank: '+' };

/**
 * "New survey": the templates to start from. Beta feedback first asks which early access feature it is about (its
 * flag then limits the survey to the people in the program).
 */
export function TemplatesDialog({ projectId, opened, onClose }: { projectId: number; opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const [beta, setBeta] = useState(false);
  const [featureId, setFeatureId] = useState<string | null>(null);
  const features = useQuery({ ...earlyAccessQueries.list(projectId), enabled: opened });
  const withFlag = (features.data?.results ?? []).filter((f) => f.feature_flag && f.stage !== 'archived');
  const start = (template: TemplateId, feature?: string) =>
    void navigate({ to: `/project/${projectId}/surveys/new`, search: { template, ...(feature ? { feature } : {}) } });
  const close = () => {
    setBeta(false);
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={beta ? 'Beta feedback: which feature?' : 'New survey'} size="xl">
      {beta ? (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            The survey asks only the people who opted in to the feature: it shows to those for whom the feature&apos;s flag is on.
          </Text>
          {withFlag.length === 0 && !features.isPending ? (
            <Text size="sm">
              The project has no early access feature yet.{' '}
              <Anchor component={Link} to={`/project/${projectId}/early_access/new`}>
                Create one
              </Anchor>{' '}
              first, or start from another template.
            </Text>
          ) : (
            <Select
              label="Early access feature"
              placeholder={features.isPending ? 'Loading features…' : 'Choose a feature'}
              data={withFlag.map((f) => ({ value: f.id, label: `${f.name} (${f.stage})` }))}
              value={featureId}
              onChange={setFeatureId}
              searchable
              error={features.error ? 'Could not load the early access features.' : undefined}
              data-autofocus
            />
          )}
          <Group justify="space-between">
            <Button variant="subtle" onClick={() => setBeta(false)}>
              Back to the templates
            </Button>
            <Button disabled={!featureId} onClick={() => featureId && start('beta', featureId)}>
              Continue
            </Button>
          </Group>
        </Stack>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {TEMPLATES.map((t) => (
            <UnstyledButton key={t.id} onClick={() => (t.id === 'beta' ? setBeta(true) : start(t.id))}>
              <Card withBorder padding="md" radius="md" h="100%" className="survey-template">
                <Group gap="md" wrap="nowrap" align="flex-start">
                  <Text
                    fw={700}
                    size={t.id === 'nps' ? 'xs' : 'lg'}
                    c="white"
                    bg="blue.8"
                    w={44}
                    h={44}
                    style={{ borderRadius: 10, display: 'grid', placeItems: 'center', flexShrink: 0 }}
                    aria-hidden
                  >
                    {ICONS[t.id]}
                  </Text>
                  <Stack gap={2}>
                    <Text fw={600}>{t.title}</Text>
                    <Text size="sm" c="dimmed">
                      {t.description}
                    </Text>
                  </Stack>
                </Group>
              </Card>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      )}
    </Modal>
  );
}
