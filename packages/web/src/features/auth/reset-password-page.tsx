import { Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client';
import { useFormErrors } from '../../components/form-errors';
import { describeError, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { AuthCard } from './auth-card';
import { authApi, authQueries, signedIn } from './api';

const LOG_IN = (
  <Anchor component={Link} to="/login" size="sm">
    Go to the login page
  </Anchor>
);

/** `/reset-password/:token`: a new password with the link an admin made (it works once, for 24 hours), then logged in. */
export default function ResetPasswordPage() {
  const { token } = useParams({ strict: false }) as { token: string };
  const link = useQuery(authQueries.passwordReset(token));
  if (link.isPending) return <LoadingState label="Checking your link…" />;
  if (link.error instanceof ApiError && link.error.status === 404)
    return (
      <AuthCard
        title="This password reset link does not work"
        error="It was used already, replaced by a newer one, or expired (links last 24 hours). Ask an admin for a new one."
      >
        {LOG_IN}
      </AuthCard>
    );
  if (link.error)
    return (
      <AuthCard title="Could not check this link" error={describeError(link.error)}>
        <Button variant="default" onClick={() => link.refetch()}>
          Try again
        </Button>
      </AuthCard>
    );
  return (
    <AuthCard title="Set a new password" subtitle={`For ${link.data.email}. Your sessions in other browsers end once it is set.`}>
      <NewPasswordForm email={link.data.email} token={token} />
      {LOG_IN}
    </AuthCard>
  );
}

function NewPasswordForm({ email, token }: { email: string; token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors((attr) => (attr === 'password' ? attr : undefined));
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    errors.clear();
    if (password.length < 8) return errors.set('password', 'Use at least 8 characters.');
    if (confirm !== password) return errors.set('confirm', 'This is not the same as the new password.');
    setBusy(true);
    try {
      signedIn(queryClient, await authApi.resetPassword(token, password));
      toast({ message: 'Your new password is set.' });
      await navigate({ to: '/' });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404)
        errors.setGeneral('This link stopped working meanwhile (used, replaced or expired). Ask an admin for a new one.');
      else errors.fromError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {errors.general && (
          <div role="alert" style={{ color: 'var(--mantine-color-red-text)', overflowWrap: 'anywhere' }}>
            {errors.general}
          </div>
        )}
        {/* What a password manager files the new password under. */}
        <input type="email" autoComplete="username" value={email} readOnly hidden />
        <PasswordInput
          label="New password"
          description="At least 8 characters, and not a common password."
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            errors.clear('password');
          }}
          error={errors.field('password')}
          autoFocus
        />
        <PasswordInput
          label="Confirm new password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => {
            setConfirm(e.currentTarget.value);
            errors.clear('confirm');
          }}
          error={errors.field('confirm')}
        />
        <Button type="submit" loading={busy} fullWidth mt="xs">
          Set password and log in
        </Button>
      </Stack>
    </form>
  );
}
