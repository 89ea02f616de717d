import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useProject, useProjectId } from '../../api/hooks';
import { CopyCode } from '../../components/copy-code';

/** The first visit: how exceptions get here (browser, Node, source maps). */
export default function GettingStarted() {
  const { project } = useProject();
  const id = useProjectId();
  const token = project?.api_token ?? '<project token>';
  const host = window.location.origin;
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack gap="md" maw={760} mx="auto">
        <Stack gap={4} ta="center" align="center">
          <Title order={2} size="h4">
            No errors yet
          </Title>
          <Text c="dimmed" maw={560}>
            Exceptions from your apps land here, grouped into issues by type, message and the code that threw. Three steps to your first issue:
          </Text>
        </Stack>
        <Step n={1} title="Capture errors in the browser">
          Turn on <code>capture_exceptions</code> for uncaught errors and unhandled rejections, and send the ones you catch with <code>captureException</code>.
          The <code>release</code> ties them to your source maps.
        </Step>
        <CopyCode
          label="Copy the browser snippet"
          code={`import { service } from 'service-js'

service.init('${token}', {
  api_host: '${host}',
  capture_exceptions: true, // uncaught errors and unhandled rejections
  release: '1.4.2', // the release your source maps are uploaded for
})

try {
  checkout()
} catch (error) {
  service.captureException(error, { area: 'checkout' })
}`}
        />
        <Step n={2} title="…and on your server">
          service-node sends exceptions with the person they happened to, and the source lines around each frame.
        </Step>
        <CopyCode
          label="Copy the Node snippet"
          code={`import { Service } from 'service-node'

const service = new Service('${token}', { host: '${host}' })
service.captureException(error, 'user-123', { area: 'billing' })`}
        />
        <Step n={3} title="Upload source maps to read minified stacks">
          After each build, upload the <code>.map</code> files of the release (a personal API key with <code>error_tracking:write</code>, from Settings): frames
          then show your original files, lines and functions.
        </Step>
        <CopyCode
          label="Copy the upload command"
          code={`SERVICE_HOST=${host} SERVICE_PROJECT_ID=${id} SERVICE_API_KEY=<personal key> \\\n  npx service sourcemaps upload --release 1.4.2 --dir dist`}
        />
      </Stack>
    </Paper>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <Group gap="sm" align="flex-start" wrap="nowrap">
      <Badge size="lg" circle variant="filled" aria-hidden>
        {n}
      </Badge>
      <div>
        <Title order={3} size="h6">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {children}
        </Text>
      </div>
    </Group>
  );
}
