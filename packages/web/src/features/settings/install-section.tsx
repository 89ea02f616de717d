import { Code, Stack, Tabs, Text } from '@mantine/core';
import { version as jsVersion } from '../../../../js/package.json';
import { version as nodeVersion } from '../../../../node/package.json';
import { CopyCode } from '../../components/copy-code';
import { Section } from './section';

/** Where the pack command puts the tarballs; the install commands read them from there. */
const PACKAGES = 'flagstation-packages';

/**
 * The clients are not on npm yet: each is packed in a clone of the repository and installed from its tarball, under
 * the import name the snippets use (the README's install section says the same).
 */
function FromTarball({ name, folder, tarball }: { name: string; folder: string; tarball: string }) {
  return (
    <>
      <Text size="sm">
        {name} is not on npm yet. In a clone of the service&apos;s repository, after <Code>npm install</Code>, pack it; then install the tarball in your app.
      </Text>
      <CopyCode code={`mkdir -p ~/${PACKAGES} && npm pack -w ${folder} --pack-destination ~/${PACKAGES}`} label="Copy the pack command" />
      <CopyCode code={`npm install ${name}@file:$HOME/${PACKAGES}/${tarball}`} label="Copy the install command" />
    </>
  );
}

/** Settings → Project → Install: how an app gets a client and starts it with this project's token. */
export function InstallSection({ token, host }: { token: string; host: string }) {
  return (
    <Section title="Install" description="Pick how your app talks to the service.">
      <Tabs defaultValue="react">
        <Tabs.List mb="sm">
          <Tabs.Tab value="react">React</Tabs.Tab>
          <Tabs.Tab value="script">Script tag</Tabs.Tab>
          <Tabs.Tab value="node">Node</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="react">
          <Stack gap="xs">
            <FromTarball name="service-js" folder="packages/js" tarball={`flagstation-service-js-${jsVersion}.tgz`} />
            <CopyCode
              label="Copy the React snippet"
              code={`import { ServiceProvider, useFeatureFlagEnabled } from 'service-js/react'

createRoot(document.getElementById('root')!).render(
  <ServiceProvider apiKey="${token}" options={{ api_host: '${host}' }}>
    <App />
  </ServiceProvider>
)

function Checkout() {
  const enabled = useFeatureFlagEnabled('new-checkout')
  return enabled ? <NewCheckout /> : <OldCheckout />
}`}
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="script">
          <CopyCode
            label="Copy the script tag"
            code={`<!-- service.iife.js is in node_modules/service-js/dist/ (installed as under React): serve it with your site -->
<script src="/service.iife.js"></script>
<script>
  window.service.init('${token}', { api_host: '${host}' })
  window.service.onFeatureFlags(() => {
    if (window.service.isFeatureEnabled('new-checkout')) { /* … */ }
  })
</script>`}
          />
        </Tabs.Panel>
        <Tabs.Panel value="node">
          <Stack gap="xs">
            <FromTarball name="service-node" folder="packages/node" tarball={`flagstation-service-node-${nodeVersion}.tgz`} />
            <CopyCode
              label="Copy the Node snippet"
              code={`import { Service } from 'service-node'

const service = new Service('${token}', { host: '${host}' })

const enabled = await service.isFeatureEnabled('new-checkout', 'user-123')
service.capture({ distinctId: 'user-123', event: 'checkout_completed' })
await service.shutdown()`}
            />
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Section>
  );
}
