import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate, useParams } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useFormErrors } from '../../components/form-errors';
import { LoadingState } from '../../components/states';
import { AuthCard, safeNext } from './auth-card';
import { SignupLink } from './login-page';
import { authApi, authQueries, signedIn } from './api';

interface Fields {
  name: string;
  email: string;
  password: string;
}

/** An address that can receive mail has a name, an @ and a domain with a dot; the service checks it again. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The email's error, or null: what a typo would otherwise only show after the whole form was sent. */
const emailError = (email: string) =>
  !email.trim() ? 'Enter your email address.' : EMAIL.test(email.trim()) ? null : 'This is not an email address: it looks like ada@example.com.';

export function AccountForm({
  submitLabel,
  onSubmit,
  fixedEmail,
}: {
  submitLabel: string;
  onSubmit: (fields: Fields) => Promise<void>;
  fixedEmail?: string | null;
}) {
  const [fields, setFields] = useState<Fields>({ name: '', email: fixedEmail ?? '', password: '' });
  const [busy, setBusy] = useState(false);
  const errors = useFormErrors();
  const set = (name: keyof Fields) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setFields((f) => ({ ...f, [name]: value }));
    errors.clear(name);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    errors.clear();
    const badEmail = emailError(fields.email);
    if (badEmail) return errors.set('email', badEmail);
    if (fields.password.length < 8) return errors.set('password', 'Use at least 8 characters.');
    setBusy(true);
    try {
      await onSubmit({ ...fields, email: fields.email.trim(), name: fields.name.trim() });
    } catch (error) {
      errors.fromError(error);
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
        <TextInput label="Name" autoComplete="name" value={fields.name} onChange={set('name')} error={errors.field('name')} maxLength={200} />
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          value={fields.email}
          onChange={set('email')}
          onBlur={() => {
            const badEmail = fields.email.trim() && emailError(fields.email);
            if (badEmail) errors.set('email', badEmail);
          }}
          error={errors.field('email')}
          readOnly={!!fixedEmail}
        />
        <PasswordInput
          label="Password"
          description="At least 8 characters, and not a common password."
          autoComplete="new-password"
          value={fields.password}
          onChange={set('password')}
          error={errors.field('password')}
        />
        <Button type="submit" loading={busy} fullWidth mt="xs">
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}

/** The first account of a new service: it becomes the owner. */
export default function SignupPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const setup = useQuery(authQueries.setup());
  if (setup.isPending) return <LoadingState />;
  if (setup.data && !setup.data.needs_first_account) return <Navigate to="/login" />;
  return (
    <AuthCard title="Create the first account" subtitle="Welcome! This account will own the service: you can invite your team afterwards.">
      <AccountForm
        submitLabel="Create account"
        onSubmit={async (fields) => {
          signedIn(queryClient, await authApi.signup(fields));
          await navigate({ to: '/' });
        }}
      />
    </AuthCard>
  );
}

/** `/invite/:token`: join an organization with the link an admin sent. */
export function InvitePage() {
  const { token } = useParams({ strict: false }) as { token: string };
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const invite = useQuery(authQueries.invite(token));
  if (invite.isPending) return <LoadingState label="Checking your invite…" />;
  if (invite.error || !invite.data.valid)
    return (
      <AuthCard title="This invite link does not work" error="It may have been used already or expired (links last 7 days). Ask an admin for a new one.">
        <SignupLink />
      </AuthCard>
    );
  return (
    <AuthCard title={`Join ${invite.data.organization_name}`} subtitle={`You were invited as ${invite.data.role}. Create your account to start.`}>
      <AccountForm
        submitLabel="Join"
        fixedEmail={invite.data.email}
        onSubmit={async (fields) => {
          signedIn(queryClient, await authApi.acceptInvite(token, fields));
          await navigate({ to: safeNext('/') });
        }}
      />
      <SignupLink />
    </AuthCard>
  );
}
