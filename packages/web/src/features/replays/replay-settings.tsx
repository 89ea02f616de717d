import { Alert, Button, Group, NumberInput, Select, SimpleGrid, Stack, Switch, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { canWrite, useMe } from '../../api/hooks';
import { useFormErrors } from '../../components/form-errors';
import { ErrorState, LoadingState } from '../../components/states';
import { toast } from '../../components/toast';
import { flagQueries } from '../flags/api';
import { Section } from '../settings/section';
import { replayApi, replayKeys, replayQueries, type SettingsPatch } from './api';
import { bytes } from './timeline';
import type { ReplaySettings, UrlTrigger } from './types';

/** The form's values: percentages and seconds as people think of them, URL patterns one per line. */
export interface SettingsDraft {
  enabled: boolean;
  samplePercent: number | string;
  minimumSeconds: number | string;
  flagKey: string | null;
  flagVariant: string | null;
  maskAllText: boolean;
  maskTextSelector: string;
  blockSelector: string;
  consoleLogs: boolean;
  networkTimings: boolean;
  recordCanvas: boolean;
  urlTriggers: string;
  urlBlocklist: string;
  eventTriggers: string[];
}

const lines = (patterns: UrlTrigger[]) => patterns.map((p) => p.url).join('\n');
const patterns = (text: string): UrlTrigger[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((url) => ({ url, matching: 'regex' }));

export function draftOf(s: ReplaySettings): SettingsDraft {
  return {
    enabled: s.enabled,
    samplePercent: Math.round(s.sample_rate * 1000) / 10,
    minimumSeconds: s.minimum_duration_ms / 1000,
    flagKey: s.linked_flag?.key ?? null,
    flagVariant: s.linked_flag?.variant ?? null,
    maskAllText: s.mask_all_text,
    maskTextSelector: s.mask_text_selector ?? '',
    blockSelector: s.block_selector ?? '',
    consoleLogs: s.console_logs,
    networkTimings: s.network_timings,
    recordCanvas: s.record_canvas,
    urlTriggers: lines(s.url_triggers),
    urlBlocklist: lines(s.url_blocklist),
    eventTriggers: s.event_triggers,
  };
}

/** What the API takes for a draft (the whole of it: a save is what the form shows). */
export function patchOf(d: SettingsDraft): SettingsPatch {
  return {
    enabled: d.enabled,
    sample_rate: Math.min(1, Math.max(0, Number(d.samplePercent || 0) / 100)),
    minimum_duration_ms: Math.max(0, Math.round(Number(d.minimumSeconds || 0) * 1000)),
    linked_flag: d.flagKey ? { key: d.flagKey, variant: d.flagVariant || null } : null,
    mask_all_text: d.maskAllText,
    mask_text_selector: d.maskTextSelector.trim() || null,
    block_selector: d.blockSelector.trim() || null,
    console_logs: d.consoleLogs,
    network_timings: d.networkTimings,
    record_canvas: d.recordCanvas,
    url_triggers: patterns(d.urlTriggers),
    url_blocklist: patterns(d.urlBlocklist),
    event_triggers: d.eventTriggers,
  };
}

/** The API's field names (`url_triggers__0__url` too) for the form's. */
const FIELDS: Record<string, string> = {
  sample_rate: 'samplePercent',
  minimum_duration_ms: 'minimumSeconds',
  linked_flag: 'flagKey',
  mask_text_selector: 'maskTextSelector',
  block_selector: 'blockSelector',
  url_triggers: 'urlTriggers',
  url_blocklist: 'urlBlocklist',
  event_triggers: 'eventTriggers',
};
const fieldOf = (attr: string) => FIELDS[attr.split('__')[0]!];

/** Settings → Project → Session replay: whether and what the clients record, and what the recordings take on disk. */
export function ReplaySettingsSection({ projectId }: { projectId: number }) {
  const settings = useQuery(replayQueries.settings(projectId));
  return (
    <div id="session-replay">
      <Section
        title="Session replay"
        description="Clients record the page as people use it, and send it here to replay. Inputs are always masked, and passwords are never recorded."
      >
        {settings.isPending ? (
          <LoadingState label="Loading the recording settings…" />
        ) : settings.error ? (
          <ErrorState
            error={settings.error}
            retry={() => settings.refetch()}
            title="Could not load the recording settings"
            missingApi="Session replay needs its settings API."
          />
        ) : (
          <SettingsForm projectId={projectId} settings={settings.data} />
        )}
      </Section>
    </div>
  );
}

export function SettingsForm({ projectId, settings }: { projectId: number; settings: ReplaySettings }) {
  const me = useMe();
  const writable = canWrite(me.data);
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [saved, setSaved] = useState(settings);
  // Another save (another tab, a teammate) read again: the form follows when it has no change of its own.
  if (settings !== saved) {
    setSaved(settings);
    if (JSON.stringify(draft) === JSON.stringify(draftOf(saved))) setDraft(draftOf(settings));
  }
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(settings));
  const errors = useFormErrors(fieldOf);
  const flags = useQuery({ ...flagQueries.all(projectId), enabled: writable || Boolean(draft.flagKey) });
  const flag = flags.data?.results.find((f) => f.key === draft.flagKey);
  const variants = flag?.filters.multivariate?.variants ?? [];
  const save = useMutation({
    mutationFn: () => replayApi.saveSettings(projectId, patchOf(draft)),
    onSuccess: (next) => {
      queryClient.setQueryData(replayKeys.settings(projectId), next);
      toast({ message: next.enabled ? 'Recording settings saved: clients pick them up on their next page load.' : 'Recording settings saved.' });
    },
    onError: (e) => errors.fromError(e),
  });
  const set = (patch: Partial<SettingsDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    for (const key of Object.keys(patch)) errors.clear(key);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    errors.clear();
    save.mutate();
  };
  const toggle = (key: keyof SettingsDraft, label: string, description: string) => (
    <Switch
      label={label}
      description={description}
      checked={draft[key] as boolean}
      onChange={(e) => set({ [key]: e.currentTarget.checked })}
      disabled={!writable}
    />
  );
  return (
    <form onSubmit={submit} noValidate aria-label="Session replay settings">
      <Stack gap="md">
        <Text size="sm" c="dimmed" data-testid="replay-storage">
          {settings.storage.sessions.toLocaleString()} recording{settings.storage.sessions === 1 ? '' : 's'} take {bytes(settings.storage.bytes)} on disk; each
          is kept for {settings.retention_days} days after it ends.
        </Text>
        {errors.general && (
          <Alert color="red" variant="light" role="alert">
            {errors.general}
          </Alert>
        )}
        {toggle('enabled', 'Record sessions', 'Off: no client records, and nothing is sent.')}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <NumberInput
            label="Sessions recorded (%)"
            description="Each session is sampled in or out once."
            value={draft.samplePercent}
            onChange={(v) => set({ samplePercent: v })}
            min={0}
            max={100}
            decimalScale={1}
            error={errors.field('samplePercent')}
            disabled={!writable}
          />
          <NumberInput
            label="Minimum duration (seconds)"
            description="Shorter sessions are never sent."
            value={draft.minimumSeconds}
            onChange={(v) => set({ minimumSeconds: v })}
            min={0}
            max={3600}
            error={errors.field('minimumSeconds')}
            disabled={!writable}
          />
          <Select
            label="Only when a flag is on"
            description="Record only people for whom this flag is enabled."
            placeholder="Any person"
            data={(flags.data?.results ?? []).map((f) => ({ value: f.key, label: f.key }))}
            value={draft.flagKey}
            onChange={(key) => set({ flagKey: key, flagVariant: null })}
            searchable
            clearable
            nothingFoundMessage={flags.isPending ? 'Loading the flags…' : 'No flag has this key'}
            error={errors.field('flagKey') ?? (flags.error ? 'Could not load the flags.' : undefined)}
            disabled={!writable}
          />
          <Select
            label="Variant"
            description="Of a multivariate flag: only this variant."
            placeholder={variants.length ? 'Any variant' : 'The flag has no variants'}
            data={variants.map((v) => v.key)}
            value={draft.flagVariant}
            onChange={(v) => set({ flagVariant: v })}
            clearable
            disabled={!writable || variants.length === 0}
          />
        </SimpleGrid>
        <Text fw={600} size="sm" mt="xs">
          Privacy
        </Text>
        {toggle('maskAllText', 'Mask all text', 'Every text of the page is replaced by asterisks of the same length.')}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="Mask the text of"
            description="A CSS selector; svc-mask and ph-mask always are."
            placeholder=".account-number, [data-private]"
            value={draft.maskTextSelector}
            onChange={(e) => set({ maskTextSelector: e.currentTarget.value })}
            error={errors.field('maskTextSelector')}
            maxLength={1000}
            classNames={{ input: 'mono' }}
            disabled={!writable}
          />
          <TextInput
            label="Leave out"
            description="A CSS selector of elements replaced by an empty box."
            placeholder=".chat-widget"
            value={draft.blockSelector}
            onChange={(e) => set({ blockSelector: e.currentTarget.value })}
            error={errors.field('blockSelector')}
            maxLength={1000}
            disabled={!writable}
          />
        </SimpleGrid>
        <Text fw={600} size="sm" mt="xs">
          Also record
        </Text>
        {toggle('consoleLogs', 'Console logs', 'Logs, warnings and errors of the browser console.')}
        {toggle('networkTimings', 'Network timings', 'How long each request took (not its content).')}
        {toggle('recordCanvas', 'Canvas', 'Drawings in canvas elements: heavier recordings.')}
        <Text fw={600} size="sm" mt="xs">
          When to record
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Textarea
            label="Start on these URLs"
            description="Regular expressions, one a line; none: every page."
            placeholder="/checkout"
            value={draft.urlTriggers}
            onChange={(e) => set({ urlTriggers: e.currentTarget.value })}
            error={errors.field('urlTriggers')}
            autosize
            minRows={2}
            maxRows={6}
            disabled={!writable}
          />
          <Textarea
            label="Never on these URLs"
            description="Regular expressions, one a line: recording pauses there."
            placeholder="/settings/billing"
            value={draft.urlBlocklist}
            onChange={(e) => set({ urlBlocklist: e.currentTarget.value })}
            error={errors.field('urlBlocklist')}
            autosize
            minRows={2}
            maxRows={6}
            disabled={!writable}
          />
        </SimpleGrid>
        <TagsInput
          label="Start on these events"
          description="Event names; none: from the page load. Enter after each."
          placeholder="checkout_started"
          value={draft.eventTriggers}
          onChange={(v) => set({ eventTriggers: v })}
          error={errors.field('eventTriggers')}
          maxTags={50}
          disabled={!writable}
        />
        {writable && (
          <Group>
            <Button type="submit" loading={save.isPending} disabled={!dirty}>
              Save
            </Button>
            {dirty && (
              <Button variant="subtle" onClick={() => setDraft(draftOf(settings))}>
                Discard changes
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </form>
  );
}
