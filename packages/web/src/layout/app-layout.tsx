import { Alert, Avatar, Burger, Button, Center, Group, NativeSelect, NavLink, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, Outlet, useLocation, useNavigate, useParams } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { ApiError, setCsrfToken } from '../api/client';
import { canWrite, useMe, useProjects } from '../api/hooks';
import { ConfirmHost } from '../components/confirm';
import { ErrorState, LoadingState } from '../components/states';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { Logo } from './logo';
import { authApi } from '../features/auth/api';

export const SECTIONS = [
  { path: 'feature_flags', label: 'Feature flags' },
  { path: 'early_access', label: 'Early access' },
  { path: 'experiments', label: 'Experiments' },
  { path: 'surveys', label: 'Surveys' },
  { path: 'error_tracking', label: 'Errors' },
  { path: 'replays', label: 'Replays' },
  { path: 'llm', label: 'LLM' },
  { path: 'events', label: 'Events' },
  { path: 'persons', label: 'People' },
  { path: 'cohorts', label: 'Cohorts' },
  { path: 'activity', label: 'Activity' },
  { path: 'settings', label: 'Settings' },
] as const;

const LAST_PROJECT = 'service:last-project';

/** The project a user last worked in (for `/`). */
export const lastProject = () => Number(localStorage.getItem(LAST_PROJECT)) || undefined;

/** Every signed-in page: loads the user (a lost session goes to the login page and back), then the shell and the page. */
export function AppLayout() {
  const me = useMe();
  if (me.isPending) return <LoadingState label="Loading your account…" />;
  if (me.error) {
    if (me.error instanceof ApiError && me.error.status === 401) return <ToLogin />;
    return (
      <Center p="xl">
        <ErrorState error={me.error} retry={() => me.refetch()} title="Could not load your account" missingApi="Signing in needs the accounts API." />
      </Center>
    );
  }
  setCsrfToken(me.data.csrf_token);
  return <Shell />;
}

/**
 * To the login page, and back to this page afterwards. The address is the one of the first render: while the login
 * page loads, this layout renders again with the router's new location, and `<Navigate search={{next: href}}>` would
 * navigate again to a login page whose `next` is the login page, and so on without end (the tab hung on `/`).
 */
function ToLogin() {
  const navigate = useNavigate();
  const next = useRef(useLocation().href).current;
  useEffect(() => {
    void navigate({ to: '/login', search: { next }, replace: true });
  }, [navigate, next]);
  return <LoadingState label="Your session ended: to the login page…" />;
}

function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  const { projectId } = useParams({ strict: false }) as { projectId?: string };
  const location = useLocation();
  useEffect(() => {
    if (projectId) localStorage.setItem(LAST_PROJECT, projectId);
  }, [projectId]);
  useEffect(close, [location.pathname, close]);
  const section = location.pathname.split('/')[3];

  return (
    <div className="shell" data-nav-open={opened || undefined}>
      <header className="shell-header">
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Logo />
          </Group>
          <Group gap="xs" wrap="nowrap">
            {projectId && <ProjectSwitcher projectId={Number(projectId)} section={section} />}
            <ColorSchemeToggle />
          </Group>
        </Group>
      </header>
      <aside className="shell-nav">
        {projectId ? (
          <nav aria-label="Main navigation">
            <Stack gap={2}>
              {SECTIONS.map((s) => (
                <NavLink
                  key={s.path}
                  component={Link}
                  to={`/project/${projectId}/${s.path}`}
                  label={s.label}
                  active={section === s.path}
                  style={{ borderRadius: 6 }}
                />
              ))}
            </Stack>
          </nav>
        ) : null}
        <div style={{ flex: 1 }} />
        <UserPanel />
      </aside>
      <main className="shell-main">
        <div style={{ maxWidth: 1200, margin: '0 auto' }}>
          <ViewerNotice />
          <Outlet />
        </div>
      </main>
      <ConfirmHost />
    </div>
  );
}

/** A viewer sees every page without the controls that change things: this says why, and whom to ask. */
function ViewerNotice() {
  const me = useMe();
  if (canWrite(me.data)) return null;
  return (
    <Alert variant="light" color="gray" mb="md" py="xs" title="View only">
      Your role is viewer: you can look at everything, and change nothing. An admin can make you a member in Settings › Members.
    </Alert>
  );
}

function ProjectSwitcher({ projectId, section }: { projectId: number; section?: string }) {
  const projects = useProjects();
  const navigate = useNavigate();
  const data = (projects.data?.results ?? []).map((p) => ({ value: String(p.id), label: p.name || `Project ${p.id}` }));
  if (!data.some((d) => d.value === String(projectId)))
    data.unshift({ value: String(projectId), label: projects.isPending ? 'Loading…' : `Project ${projectId}` });
  return (
    <NativeSelect
      aria-label="Project"
      size="xs"
      w={{ base: 150, xs: 220 }}
      data={data}
      value={String(projectId)}
      onChange={(e) => navigate({ to: `/project/${e.currentTarget.value}/${section ?? 'feature_flags'}` })}
    />
  );
}

function UserPanel() {
  const me = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const logout = async () => {
    await authApi.logout().catch(() => undefined);
    setCsrfToken(null);
    queryClient.clear();
    await navigate({ to: '/login' });
  };
  if (!me.data) return null;
  const name = me.data.name || me.data.email;
  return (
    <Stack gap={6} p="xs" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Group gap="xs" wrap="nowrap">
        <Avatar size="sm" radius="xl" color="indigo" aria-hidden>
          {name.slice(0, 1).toUpperCase()}
        </Avatar>
        <div style={{ minWidth: 0 }}>
          <Text size="sm" truncate>
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {me.data.role} · {me.data.organization.name}
          </Text>
        </div>
      </Group>
      <Group gap="xs" justify="space-between">
        <Button size="compact-xs" variant="subtle" onClick={logout}>
          Log out
        </Button>
        <Text size="xs" c="dimmed">
          <a href="/api/docs" style={{ color: 'inherit' }}>
            API reference
          </a>
        </Text>
      </Group>
    </Stack>
  );
}

/** `/`: the project last worked in, else the first; without any, the way to make one. */
export function ProjectRedirect() {
  const projects = useProjects();
  if (projects.isPending) return <LoadingState />;
  if (projects.error) return <ErrorState error={projects.error} retry={() => projects.refetch()} />;
  const list = projects.data.results;
  const last = lastProject();
  const target = list.find((p) => p.id === last) ?? list[0];
  if (target) return <Navigate to={`/project/${target.id}/feature_flags`} replace />;
  return (
    <Stack align="center" py="xl">
      <Text>There is no project yet. Create one with `npx service projects create &lt;name&gt;`, or ask an admin.</Text>
      <Button component={Link} to="/">
        Reload
      </Button>
    </Stack>
  );
}
