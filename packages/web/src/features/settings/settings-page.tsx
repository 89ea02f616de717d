import { Tabs } from '@mantine/core';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useProjectId } from '../../api/hooks';
import { PageHeader } from '../../components/page-header';
import { AccountSettings } from './account-settings';
import { KeysSettings } from './keys-settings';
import { MembersSettings } from './members-settings';
import { ProjectSettings } from './project-settings';
import { ProjectsSettings } from './projects-settings';
import { WebhooksSettings } from './webhooks-settings';

/** The settings' screens, each a tab at `/project/:id/settings/<value>`. */
const SECTIONS = [
  { value: 'project', label: 'Project', screen: ProjectSettings },
  { value: 'projects', label: 'Projects', screen: ProjectsSettings },
  { value: 'members', label: 'Members', screen: MembersSettings },
  { value: 'account', label: 'Account', screen: AccountSettings },
  { value: 'keys', label: 'Personal API keys', screen: KeysSettings },
  { value: 'webhooks', label: 'Webhooks', screen: WebhooksSettings },
];

export default function SettingsPage() {
  const { section = 'project' } = useParams({ strict: false }) as { section?: string };
  const projectId = useProjectId();
  const navigate = useNavigate();
  const current = SECTIONS.some((s) => s.value === section) ? section : 'project';
  return (
    <>
      <PageHeader title="Settings" />
      <Tabs value={current} onChange={(v) => navigate({ to: `/project/${projectId}/settings/${v ?? 'project'}` })} keepMounted={false}>
        <Tabs.List mb="lg">
          {SECTIONS.map((s) => (
            <Tabs.Tab key={s.value} value={s.value}>
              {s.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {SECTIONS.map(({ value, screen: Screen }) => (
          <Tabs.Panel key={value} value={value}>
            <Screen />
          </Tabs.Panel>
        ))}
      </Tabs>
    </>
  );
}
