import { Badge, Button, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client';
import { useMe } from '../../api/hooks';
import { useFormErrors } from '../../components/form-errors';
import { toast } from '../../components/toast';
import { Section } from './section';
import { settingsApi } from './api';

interface Fields {
  current: string;
  password: string;
  confirm: string;
}
const EMPTY: Fields = { current: '', password: '', confirm: '' };

/** The API's field names (`attr`) as this form's. */
const fieldOf = (attr: string) => (attr === 'current_password' ? 'current' : attr === 'password' ? 'password' : undefined);

/** Settings → Account: who is signed in, and a new password for them (their other sessions end). */
export function AccountSettings() {
  const me = useMe();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const errors = useFormErrors(fieldOf);
  const set = (name: keyof Fields) => (e: { currentTarget: { value: string } }) => {
    const value = e.currentTarget.value;
    setFields((f) => ({ ...f, [name]: value }));
    errors.clear(name);
  };
  const change = useMutation({
    mutationFn: () => settingsApi.changePassword({ current_password: fields.current, password: fields.password }),
    onSuccess: () => {
      setFields(EMPTY);
      toast({ message: 'Password changed. Your other sessions have ended.' });
    },
    // The throttle's answer says in words how long to wait: shown as it is.
    onError: (e) => (e instanceof ApiError && e.status === 429 ? errors.setGeneral(e.detail) : errors.fromError(e)),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    errors.clear();
    if (!fields.current) return errors.set('current', 'Enter your current password.');
    if (fields.password.length < 8) return errors.set('password', 'Use at least 8 characters.');
    if (fields.confirm !== fields.password) return errors.set('confirm', 'This is not the same as the new password.');
    change.mutate();
  };
  return (
    <Section title="Account" description="Your login. A new password ends your sessions in other browsers; this one goes on.">
      {me.data && (
        <Group gap="xs" className="wrap-anywhere">
          <Text size="sm" fw={600}>
            {me.data.name || me.data.email}
          </Text>
          <Text size="sm" c="dimmed">
            {me.data.email}
          </Text>
          <Badge variant="light">{me.data.role}</Badge>
        </Group>
      )}
      <form onSubmit={submit} noValidate aria-label="Change password">
        <Stack gap="sm" maw={360}>
          {errors.general && (
            <Text size="sm" c="red" role="alert" className="wrap-anywhere">
              {errors.general}
            </Text>
          )}
          {/* What a password manager files the new password under. */}
          <input type="email" autoComplete="username" value={me.data?.email ?? ''} readOnly hidden />
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            value={fields.current}
            onChange={set('current')}
            error={errors.field('current')}
          />
          <PasswordInput
            label="New password"
            description="At least 8 characters, and not a common password."
            autoComplete="new-password"
            value={fields.password}
            onChange={set('password')}
            error={errors.field('password')}
          />
          <PasswordInput
            label="Confirm new password"
            autoComplete="new-password"
            value={fields.confirm}
            onChange={set('confirm')}
            error={errors.field('confirm')}
          />
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}
