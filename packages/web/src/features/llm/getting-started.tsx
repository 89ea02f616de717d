import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useProject } from '../../api/hooks';
import { CopyCode } from '../../components/copy-code';

/** No generation yet: the three ways calls get here (service-node/ai, @posthog/ai, OpenTelemetry). */
export function GettingStarted() {
  const { project } = useProject();
  const token = project?.api_token ?? '<project token>';
  const host = window.location.origin;
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack gap="md" maw={760} mx="auto">
        <Stack gap={4} ta="center" align="center">
          <Title order={2} size="h4">
            No LLM calls yet
          </Title>
          <Text c="dimmed" maw={580}>
            Each call your product makes to a model shows up here with its cost, tokens, latency and the trace it belongs to. Connect in one of three ways:
          </Text>
        </Stack>
        <Step n={1} title="Wrap your OpenAI or Anthropic client (service-node/ai)">
          Every call is captured with its input, output and usage; results and errors reach your code unchanged.
        </Step>
        <CopyCode
          label="Copy the service-node snippet"
          code={`import OpenAI from 'openai'
import { Service } from 'service-node'
import { wrapOpenAI } from 'service-node/ai'

const client = new Service('${token}', { host: '${host}' })
const openai = wrapOpenAI(new OpenAI(), client)

await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, posthogDistinctId: 'user-123' })`}
        />
        <Step n={2} title="…or keep PostHog's @posthog/ai">
          Point posthog-node at this service: its wrappers send the same events.
        </Step>
        <CopyCode
          label="Copy the @posthog/ai snippet"
          code={`import { PostHog } from 'posthog-node'
import { OpenAI } from '@posthog/ai'

const phClient = new PostHog('${token}', { host: '${host}' })
const openai = new OpenAI({ apiKey: process.env.OPENAI_API_KEY, posthog: phClient })`}
        />
        <Step n={3} title="…or send OpenTelemetry spans">
          The Vercel AI SDK, OpenLLMetry and any OTLP/HTTP exporter: spans with <code>gen_ai.*</code> attributes become generations.
        </Step>
        <CopyCode
          label="Copy the OpenTelemetry settings"
          code={`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${host}/i/v0/ai/otel
OTEL_EXPORTER_OTLP_TRACES_HEADERS="Authorization=Bearer ${token}"`}
        />
      </Stack>
    </Paper>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Badge circle size="lg" variant="light">
          {n}
        </Badge>
        <Title order={3} size="h5">
          {title}
        </Title>
      </Group>
      <Text size="sm" c="dimmed">
        {children}
      </Text>
    </Stack>
  );
}
