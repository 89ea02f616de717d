import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useNavigate, useSearch } from '@tanstack/react-router';
import { Fragment, useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client';
import { useFormErrors } from '../../components/form-errors';
import { AuthCard, safeNext } from './auth-card';
import { authApi, authQueries, signedIn } from './api';

/** What an operator runs for a user who forgot their password (it prints a new one, once). */
const RESET_COMMAND = 'npx service users set-password --email you@example.com --generate';

export default function LoginPage() {
  const { next } = useSearch({ strict: false }) as { next?: string };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors();
  const setup = useQuery(authQueries.setup());

  if (setup.data?.needs_first_account) return <Navigate to="/signup" />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    errors.clear();
    if (!email.trim()) return errors.set('email', 'Enter your email address.');
    if (!password) return errors.set('password', 'Enter your password.');
    setBusy(true);
    try {
      signedIn(queryClient, await authApi.login({ email: email.trim(), password }));
      await navigate({ to: safeNext(next) });
    } catch (error) {
      // The login throttle's answer says, in words, how long this email waits here: shown as it is.
      if (error instanceof ApiError && error.status === 429) errors.setGeneral(error.detail);
      else errors.fromError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title="Log in" subtitle={next && next !== '/' ? 'Your session ended. Log in to go back to where you were.' : undefined} error={errors.general}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.field('email')}
            autoFocus
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.field('password')}
          />
          <Button type="submit" loading={busy} fullWidth mt="xs">
            Log in
          </Button>
        </Stack>
      </form>
      <Text size="xs" c="dimmed">
        No account? Ask an admin of your organization for an invite link.
      </Text>
      <Text size="xs" c="dimmed">
        Forgot your password? Ask an admin for a reset link, or whoever runs the service to set a new one with{' '}
        <code>
          {RESET_COMMAND.split(' ').map((word, i) => (
            // Lines break between the command's words only, never at the hyphens inside them.
            <Fragment key={i}>
              {i > 0 && ' '}
              <span style={{ whiteSpace: 'nowrap' }}>{word}</span>
            </Fragment>
          ))}
        </code>
        .
      </Text>
    </AuthCard>
  );
}

export function SignupLink() {
  return (
    <Anchor component={Link} to="/login" size="sm">
      Already have an account? Log in
    </Anchor>
  );
}
