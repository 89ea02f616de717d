import { Badge, Button, CloseButton, Code, Group, NativeSelect, Paper, Spoiler, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { canWrite, useMe, useProjectId } from '../../api/hooks';
import { confirm } from '../../components/confirm';
import { CopyCode } from '../../components/copy-code';
import { describeError, ErrorState, LoadingState } from '../../components/states';
import { formatTime } from '../../components/format';
import { PageHeader } from '../../components/page-header';
import { toast } from '../../components/toast';
import { llmQueries, promptApi, promptsChanged } from './api';
import { PromptForm } from './prompt-form';
import type { Prompt, PromptVersion } from './types';
import './llm.css';

export default function PromptPage() {
  const projectId = useProjectId();
  const { promptId } = useParams({ strict: false }) as { promptId: string };
  const me = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const prompt = useQuery(llmQueries.prompt(projectId, promptId));
  const versions = useQuery(llmQueries.versions(projectId, promptId));
  const [editing, setEditing] = useState(false);
  const trail = [
    { label: 'LLM', to: `/project/${projectId}/llm` },
    { label: 'Prompts', to: `/project/${projectId}/llm/prompts` },
  ];
  if (prompt.isPending) return <LoadingState label="Loading the prompt…" />;
  if (prompt.error)
    return (
      <>
        <PageHeader title="Prompt" trail={trail} />
        <ErrorState error={prompt.error} retry={() => prompt.refetch()} title="Could not load this prompt" />
      </>
    );
  const p = prompt.data;
  const writable = canWrite(me.data);
  const changed = () => promptsChanged(queryClient, projectId);
  const remove = async () => {
    const ok = await confirm({
      title: `Delete ${p.name}?`,
      message: `All ${p.version} version${p.version === 1 ? '' : 's'} and their labels are deleted. Code that asks for ${p.name} gets nothing from then on.`,
      confirmLabel: 'Delete prompt',
      danger: true,
    });
    if (!ok) return;
    try {
      await promptApi.remove(projectId, p.id);
      toast({ message: `Prompt ${p.name} deleted.` });
      await navigate({ to: `/project/${projectId}/llm/prompts` });
      void changed();
    } catch (e) {
      toast({ color: 'red', message: describeError(e) });
    }
  };
  return (
    <>
      <PageHeader
        title={p.name}
        trail={trail}
        description={`Version ${p.version} · updated ${formatTime(p.updated_at)}`}
        actions={
          writable && (
            <>
              {!editing && <Button onClick={() => setEditing(true)}>New version</Button>}
              <Button color="red" variant="light" onClick={() => void remove()}>
                Delete
              </Button>
            </>
          )
        }
      />
      <Stack gap="md">
        {editing && (
          <Paper withBorder p="md" radius="md" component="section" aria-labelledby="new-version-title">
            <Title order={2} size="h5" mb="sm" id="new-version-title">
              Version {p.version + 1}
            </Title>
            <PromptForm
              withName={false}
              initial={{ prompt: p.prompt, config: p.config }}
              submitLabel={`Save version ${p.version + 1}`}
              onCancel={() => setEditing(false)}
              save={async (input) => {
                const saved = await promptApi.addVersion(projectId, p.id, { prompt: input.prompt, config: input.config, labels: input.labels });
                setEditing(false);
                toast({ message: `Version ${saved.version} saved.` });
                await changed();
              }}
            />
          </Paper>
        )}
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="use-title">
          <Title order={2} size="h5" mb="xs" id="use-title">
            In your code
          </Title>
          <CopyCode
            label="Copy the code that fetches this prompt"
            code={`import { Prompts } from '@posthog/ai'

const prompts = new Prompts({ posthog })
const template = await prompts.get('${p.name}'${p.labels.some((l) => l.name === 'production') ? ", { label: 'production' }" : ''})
const text = prompts.compile(template, { name: 'Ada' })`}
          />
        </Paper>
        {writable && <LabelForm prompt={p} onChanged={changed} />}
        <Stack gap="xs" component="section" aria-labelledby="versions-title">
          <Title order={2} size="h5" id="versions-title">
            Versions
          </Title>
          {versions.isPending ? (
            <LoadingState />
          ) : versions.error ? (
            <ErrorState error={versions.error} retry={() => versions.refetch()} title="Could not load the versions" />
          ) : (
            versions.data.results.map((v) => <VersionCard key={v.version} prompt={p} version={v} writable={writable} onChanged={changed} />)
          )}
        </Stack>
      </Stack>
    </>
  );
}

function VersionCard({
  prompt,
  version,
  writable,
  onChanged,
}: {
  prompt: Prompt;
  version: PromptVersion;
  writable: boolean;
  onChanged: () => Promise<unknown>;
}) {
  const projectId = useProjectId();
  const removeLabel = async (label: string) => {
    const ok = await confirm({
      title: `Remove the label ${label}?`,
      message: `Code that asks for ${prompt.name} with the label ${label} gets nothing from then on.`,
      confirmLabel: 'Remove label',
      danger: true,
    });
    if (!ok) return;
    try {
      await promptApi.removeLabel(projectId, prompt.id, label);
    } catch (e) {
      toast({ color: 'red', message: describeError(e) });
    }
    await onChanged();
  };
  return (
    <Paper withBorder p="md" radius="md">
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Text fw={700}>v{version.version}</Text>
          {version.labels.map((l) => (
            <Badge
              key={l}
              variant="light"
              rightSection={writable && <CloseButton size="xs" aria-label={`Remove the label ${l}`} onClick={() => void removeLabel(l)} />}
            >
              {l}
            </Badge>
          ))}
        </Group>
        <Text size="xs" c="dimmed">
          {formatTime(version.created_at)}
        </Text>
      </Group>
      <Spoiler maxHeight={160} showLabel="Show all" hideLabel="Show less">
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {version.prompt}
        </Code>
      </Spoiler>
      {version.config && (
        <Text size="xs" c="dimmed" mt="xs" className="mono wrap-anywhere">
          {JSON.stringify(version.config)}
        </Text>
      )}
    </Paper>
  );
}

/** Points a label at a version: how a tested version goes to production, or production goes back. */
function LabelForm({ prompt, onChanged }: { prompt: Prompt; onChanged: () => Promise<unknown> }) {
  const projectId = useProjectId();
  const [label, setLabel] = useState('production');
  const [version, setVersion] = useState(String(prompt.version));
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const versions = Array.from({ length: prompt.version }, (_, i) => String(prompt.version - i));
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(undefined);
    setSaving(true);
    try {
      await promptApi.setLabel(projectId, prompt.id, label.trim(), Number(version));
      toast({ message: `${label.trim()} now names version ${version}.` });
      await onChanged();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="label-title">
      <Title order={2} size="h5" mb="xs" id="label-title">
        Move a label
      </Title>
      <form onSubmit={(e) => void submit(e)}>
        <Group align="flex-start" gap="sm">
          <TextInput label="Label" value={label} onChange={(e) => setLabel(e.currentTarget.value)} error={error} maxLength={64} w={200} />
          <NativeSelect label="Version" data={versions} value={version} onChange={(e) => setVersion(e.currentTarget.value)} w={110} />
          <Button type="submit" loading={saving} mt={25} disabled={!label.trim()}>
            Point label here
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
