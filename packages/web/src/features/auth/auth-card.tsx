import { Alert, Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Logo } from '../../layout/logo';

export function AuthCard({ title, subtitle, error, children }: { title: string; subtitle?: ReactNode; error?: string | null; children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-body)">
      <Stack w="100%" maw={400} gap="lg">
        <Center>
          <Logo />
        </Center>
        <Paper withBorder shadow="sm" radius="md" p="xl">
          <Stack gap="md">
            <div>
              <Title order={1} size="h3">
                {title}
              </Title>
              {subtitle && (
                <Text c="dimmed" size="sm" mt={4}>
                  {subtitle}
                </Text>
              )}
            </div>
            {error && (
              <Alert color="red" variant="light" role="alert" style={{ overflowWrap: 'anywhere' }}>
                {error}
              </Alert>
            )}
            {children}
          </Stack>
        </Paper>
      </Stack>
    </Center>
  );
}

/** Where to go after logging in: a path of this app only (never another site). */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') && !next.startsWith('/login') ? next : '/';
}
