import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { ConflictError, ValidationError } from '../errors';
import { SURVEY_FLAG_PREFIX } from '../flag-evaluation/definitions';
import { insertFlag, type FlagUpdateGuard, type FlagUses } from '../feature-flags/service';
import { flagStore, type Filters, type FlagRow } from '../feature-flags/store';
import { statusOf } from './schedule';
import { surveyStore } from './store';
import { hasServerSideEvents } from './validate';
import type { ConditionsInput, TargetingFiltersInput } from './schemas';

// posthog-js shows a survey only when `/flags` answers both of its flags true: the targeting flag (who the team aims
// at, at its rollout) and the internal targeting flag (not whoever responded or dismissed it, in this iteration). The
// service makes both with the survey, keeps them in step with it, and marks them with `survey_id`: the flags list
// leaves them out and the flags API refuses to change them. Their changes are the survey's (its activity entry): no
// flag webhook or flag activity entry of their own.

/** What a survey's flags are made from. */
export interface FlagSource {
  id: string;
  name: string;
  archived: number;
  /** Whether it runs now: its flags are on only then, so that a draft or stopped survey costs a client nothing. */
  running: boolean;
  schedule: string;
  current_iteration: number | null;
  conditions: ConditionsInput | null;
  targeting: TargetingFiltersInput | null;
}

/** The person property a survey interaction sets: `$survey_responded/<id>`, `/<iteration>` added in an iteration (as posthog-js names it). */
export const interactionProperty = (kind: 'responded' | 'dismissed' | 'triggered', survey: Pick<FlagSource, 'id' | 'current_iteration'>) =>
  `$survey_${kind}/${survey.id}${survey.current_iteration !== null && survey.current_iteration > 0 ? `/${survey.current_iteration}` : ''}`;

const EVERYONE = { properties: [], rollout_percentage: 100 };

/**
 * The targeting flag's filters: the team's person-property conditions (everyone without), and, when the survey waits
 * for an event a server captures, in each condition the person property the ingestion step sets for it.
 */
export function targetingFilters(source: FlagSource): Filters {
  const groups = source.targeting?.groups.length ? source.targeting.groups : [EVERYONE];
  const triggered = hasServerSideEvents(source.conditions)
    ? [{ key: interactionProperty('triggered', source), type: 'person', operator: 'is_set', value: 'is_set' }]
    : [];
  return {
    groups: groups.map((group) => ({
      properties: [...(group.properties ?? []), ...triggered],
      rollout_percentage: group.rollout_percentage ?? 100,
      variant: null,
    })),
  };
}

/** The internal targeting flag's filters: whoever has neither responded nor dismissed (this iteration); everyone for `always`. */
export function internalFilters(source: FlagSource): Filters {
  if (source.schedule === 'always') return { groups: [{ ...EVERYONE, variant: null }] };
  const notSet = (kind: 'responded' | 'dismissed') => ({ key: interactionProperty(kind, source), type: 'person', operator: 'is_not_set', value: 'is_not_set' });
  return { groups: [{ properties: [notSet('dismissed'), notSet('responded')], rollout_percentage: 100, variant: null }] };
}

/** The team's targeting, read back from the targeting flag (null for everyone). */
export function targetingOf(flag: FlagRow): TargetingFiltersInput | null {
  const filters = JSON.parse(flag.filters) as { groups?: { properties?: { key?: string }[]; rollout_percentage?: number | null }[] };
  const groups = (filters.groups ?? []).map((group) => ({
    properties: (group.properties ?? []).filter((p) => !p.key?.startsWith('$survey_triggered/')) as Record<string, unknown>[],
    rollout_percentage: group.rollout_percentage ?? 100,
  }));
  if (groups.length === 1 && !groups[0]!.properties.length && groups[0]!.rollout_percentage === 100) return null;
  return { groups };
}

const names = (name: string) => ({
  targeting: `Targeting of the survey "${name}"`,
  internal: `The survey "${name}": who has not responded or dismissed it`,
});

/** Makes a survey's two flags (keys `survey-targeting-<10 hex>` and the same with `-custom`, as PostHog names them). */
export async function makeSurveyFlags(db: Kysely<Database>, projectId: number, source: FlagSource): Promise<{ targeting: FlagRow; internal: FlagRow }> {
  let key: string;
  // A key the team gave a flag of their own is skipped (checked first: on PostgreSQL a failed insert ends the transaction).
  do key = `${SURVEY_FLAG_PREFIX}${randomBytes(5).toString('hex')}`;
  while ((await flagStore.liveIdOfKey(db, projectId, key)) !== undefined || (await flagStore.liveIdOfKey(db, projectId, `${key}-custom`)) !== undefined);
  const made = (name: string, filters: Filters, flagKey: string) =>
    insertFlag(db, projectId, {
      key: flagKey,
      name,
      filters,
      active: source.running && !source.archived,
      ensure_experience_continuity: false,
      survey_id: source.id,
    });
  const targeting = await made(names(source.name).targeting, targetingFilters(source), key);
  const internal = await made(names(source.name).internal, internalFilters(source), `${key}-custom`);
  return { targeting, internal };
}

/** Brings a survey's flags in step with it (filters, names, on while it runs); true when one changed. */
export async function syncSurveyFlags(db: Kysely<Database>, source: FlagSource, flags: { targeting: FlagRow; internal: FlagRow }) {
  const named = names(source.name);
  const next = async (flag: FlagRow, name: string, filters: Filters) => {
    const changes: Parameters<typeof flagStore.update>[2] = {};
    const text = JSON.stringify(filters);
    if (text !== flag.filters) changes.filters = text;
    if (name !== flag.name) changes.name = name;
    const active = source.running && !source.archived ? 1 : 0;
    if (active !== flag.active) changes.active = active;
    return Object.keys(changes).length ? flagStore.update(db, flag, changes) : flag;
  };
  const targeting = await next(flags.targeting, named.targeting, targetingFilters(source));
  const internal = await next(flags.internal, named.internal, internalFilters(source));
  return { targeting, internal, changed: targeting !== flags.targeting || internal !== flags.internal };
}

/**
 * The flags API refuses every change to a survey's flag (its key, filters, deletion): the survey keeps it. A flag a
 * survey links to (`linked_flag_key`) keeps its key and is not deleted while the survey is not archived: posthog-js
 * looks the key up in /flags, and a survey whose linked flag is gone is shown to no one.
 */
export const surveyFlagGuard: FlagUpdateGuard = async (db, flag, patch) => {
  if (flag.survey_id !== null) {
    const survey = await surveyStore.byId(db, flag.survey_id);
    const whose = survey ? `the survey "${survey.name}" (${survey.id})` : 'a survey';
    throw new ConflictError(`The feature flag ${flag.key} belongs to ${whose}, which keeps it in step with its targeting: change the survey instead.`);
  }
  const renamed = patch.key !== undefined && patch.key !== flag.key;
  if (!renamed && patch.deleted !== true) return;
  const linking = await surveyStore.linkedTo(db, flag.project_id, flag.key);
  if (!linking) return;
  const what = renamed ? 'change the key of' : 'delete';
  throw new ValidationError(
    `Cannot ${what} a feature flag the survey "${linking.name}" is linked to; link it to another flag or archive it first.`,
    renamed ? 'key' : 'deleted',
  );
};

/** The survey that made a flag, for the flag's page. */
export const surveyFlagUses: FlagUses = async (db, flag) => {
  if (flag.survey_id === null) return [];
  const survey = await surveyStore.byId(db, flag.survey_id);
  return survey ? [{ type: 'survey', id: survey.id, name: survey.name, status: statusOf(survey, new Date().toISOString()) }] : [];
};
