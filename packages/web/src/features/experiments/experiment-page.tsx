import { Anchor, Badge, Button, Card, Group, Modal, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { confirm } from '../../components/confirm';
import { CopyCode } from '../../components/copy-code';
import { formatTime } from '../../components/format';
import { describeError, EmptyState, ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { PageHeader } from '../../components/page-header';
import { ExperimentForm } from './experiment-form';
import { ExperimentResultsPanel } from './experiment-results';
import { launchChanges, shipChanges } from './flag-changes';
import { FlagChanges } from './flag-changes-dialog';
import { metricLabel, STATUS_INFO, type Experiment, type ExperimentStatus } from './types';
import { experimentApi, experimentQueries, experimentSaved } from './api';

export default function ExperimentPage() {
  const { experimentId } = useParams({ strict: false }) as { experimentId: string };
  const projectId = useProjectId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe();
  const isNew = experimentId === 'new';
  const trail = [{ label: 'Experiments', to: `/project/${projectId}/experiments` }];
  const experiment = useQuery({ ...experimentQueries.detail(projectId, experimentId), enabled: !isNew });
  const saved = (e: Experiment) => experimentSaved(queryClient, projectId, e);
  const [launching, setLaunching] = useState(false);
  const move = useMutation({
    mutationFn: (status: ExperimentStatus) => experimentApi.setStatus(projectId, experimentId, status),
    onSuccess: (e) => {
      saved(e);
      setLaunching(false);
      toast({ message: e.status === 'running' ? `${e.name} is running: its flag is on.` : `${e.name} is complete.` });
    },
    onError: (error) => toast({ color: 'red', title: 'Could not change the experiment', message: describeError(error) }),
  });

  if (isNew)
    return (
      <>
        <PageHeader title="New experiment" trail={trail} description="Split people between a control and variants, and compare what they do next." />
        <ExperimentForm
          onSave={async (body) => {
            const e = await experimentApi.create(projectId, body);
            saved(e);
            toast({ message: `Created ${e.name}.` });
            await navigate({ to: `/project/${projectId}/experiments/${e.id}`, replace: true });
          }}
        />
      </>
    );
  if (experiment.isPending) return <LoadingState label="Loading the experiment…" />;
  if (experiment.error)
    return (
      <>
        <PageHeader title="Experiment" trail={trail} />
        <ErrorState error={experiment.error} retry={() => experiment.refetch()} title="Could not load this experiment" />
      </>
    );
  const e = experiment.data;
  const writable = canWrite(me.data);
  const status = STATUS_INFO[e.status];
  return (
    <>
      <PageHeader
        title={e.name}
        trail={trail}
        description={e.description || undefined}
        actions={
          <>
            <Badge size="lg" variant="light" color={status.color}>
              {status.label}
            </Badge>
            {writable && e.status === 'draft' && <Button onClick={() => setLaunching(true)}>Launch experiment</Button>}
            {writable && e.status === 'running' && (
              <Button
                variant="default"
                onClick={async () => {
                  const ok = await confirm({
                    title: `Stop ${e.name}?`,
                    message: 'Results will cover its start until now; the flag keeps serving the variants.',
                    confirmLabel: 'Stop experiment',
                    danger: true,
                  });
                  if (ok) move.mutate('complete');
                }}
                loading={move.isPending}
              >
                Stop experiment
              </Button>
            )}
            {writable && e.status !== 'draft' && <ShipVariant projectId={projectId} experiment={e} onShipped={saved} />}
          </>
        }
      />
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          <Card withBorder padding="md">
            <Text size="xs" c="dimmed">
              Feature flag
            </Text>
            <Anchor component={Link} to={`/project/${projectId}/feature_flags/${e.feature_flag.id}`} className="mono wrap-anywhere">
              {e.feature_flag_key}
            </Anchor>
            <Text size="xs" c="dimmed" mt="xs">
              {status.help}
            </Text>
          </Card>
          <Card withBorder padding="md">
            <Text size="xs" c="dimmed">
              Split
            </Text>
            <Text size="sm" className="mono wrap-anywhere">
              {e.variants.map((v) => `${v.key} ${v.rollout_percentage} %`).join(' · ')}
            </Text>
            <Text size="xs" c="dimmed" mt="xs">
              Started {formatTime(e.start_date)}
              {e.end_date ? `, ended ${formatTime(e.end_date)}` : ''}
            </Text>
          </Card>
          <Card withBorder padding="md">
            <Text size="xs" c="dimmed">
              Metrics
            </Text>
            {e.metrics.length ? (
              <Stack gap={2}>
                {e.metrics.map((m, i) => (
                  <Text size="sm" key={i} className="wrap-anywhere">
                    {i === 0 ? 'Primary: ' : 'Secondary: '}
                    {metricLabel(m)}
                  </Text>
                ))}
              </Stack>
            ) : (
              <Text size="sm" c="dimmed">
                None yet: add one before launching.
              </Text>
            )}
          </Card>
        </SimpleGrid>
        <section aria-labelledby="results-title">
          <Title order={2} size="h3" id="results-title" mb="sm">
            Results
          </Title>
          {e.status === 'draft' ? (
            <EmptyState title="Not launched yet" action={writable && <Button onClick={() => setLaunching(true)}>Launch experiment</Button>}>
              While it is a draft, the flag <code>{e.feature_flag_key}</code> stays exactly as it is. Launching gives it this split and turns it on; read the
              variant where the change happens in your app (below): each person is counted from the first time they see a variant.
            </EmptyState>
          ) : (
            <ExperimentResultsPanel projectId={projectId} experiment={e} />
          )}
        </section>
        <Snippet experiment={e} />
      </Stack>
      <Modal opened={launching} onClose={() => setLaunching(false)} title={`Launch ${e.name}`} size="lg">
        <Stack gap="md">
          <FlagChanges flagKey={e.feature_flag_key} changes={launchChanges(e.feature_flag, e.variants)} />
          <Text size="sm" c="dimmed">
            From now on, everyone who reads the flag gets a variant of the split, and is counted the first time they see it.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setLaunching(false)}>
              Cancel
            </Button>
            <Button onClick={() => move.mutate('running')} loading={move.isPending}>
              Launch
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** "Ship variant": pick the winner; everyone gets it from now on and the experiment completes. */
function ShipVariant({ projectId, experiment, onShipped }: { projectId: number; experiment: Experiment; onShipped: (e: Experiment) => void }) {
  const [opened, setOpened] = useState(false);
  const [variant, setVariant] = useState(experiment.variants.find((v) => v.key !== 'control')?.key ?? 'control');
  const ship = useMutation({
    mutationFn: () => experimentApi.ship(projectId, experiment.id, variant),
    onSuccess: (e) => {
      onShipped(e);
      setOpened(false);
      toast({ color: 'green', message: `Shipped ${variant}: everyone gets it now.` });
    },
  });
  return (
    <>
      <Button onClick={() => setOpened(true)}>Ship variant</Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Ship a variant" size="lg">
        <Stack gap="md">
          <Text size="sm">Everyone gets the variant you choose from now on, and the experiment completes.</Text>
          <Radio.Group label="Variant to ship" value={variant} onChange={setVariant}>
            <Stack gap="xs" mt="xs">
              {experiment.variants.map((v) => (
                <Radio key={v.key} value={v.key} label={v.key} />
              ))}
            </Stack>
          </Radio.Group>
          <FlagChanges flagKey={experiment.feature_flag_key} changes={shipChanges(experiment.feature_flag, variant)} />
          {ship.error && (
            <Text size="sm" c="red" role="alert">
              {describeError(ship.error)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              Cancel
            </Button>
            <Button onClick={() => ship.mutate()} loading={ship.isPending}>
              Ship {variant} to everyone
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function Snippet({ experiment }: { experiment: Experiment }) {
  const key = JSON.stringify(experiment.feature_flag_key);
  const others = experiment.variants.filter((v) => v.key !== 'control');
  const code = `import { useFeatureFlagVariantKey } from 'service-js/react'

// Counts the person as exposed (once per person and variant) and returns their variant.
export function ${componentName(experiment.feature_flag_key)}() {
  const variant = useFeatureFlagVariantKey(${key})
${others.map((v) => `  if (variant === ${JSON.stringify(v.key)}) return <>{/* ${v.key} */}</>`).join('\n')}
  return <>{/* control */}</>
}

// On a server (service-node): await client.getFeatureFlag(${key}, distinctId)`;
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Read the variant in your app
      </Title>
      <Text size="sm" c="dimmed">
        Reading the flag is what counts a person as exposed; track the metrics' events with <code>capture</code> as usual.
      </Text>
      <CopyCode code={code} label="Copy the experiment snippet" />
    </Stack>
  );
}

/** A React component name from a flag key: "one-page-checkout" → "OnePageCheckout". */
function componentName(key: string) {
  const name = key
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')
    .slice(0, 60);
  return /^[A-Za-z]/.test(name) ? name : `Experiment${name}`;
}
