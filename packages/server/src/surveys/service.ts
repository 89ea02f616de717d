import type { Kysely } from 'kysely';
import { changesBetween, recordActivity, type Change } from '../activity/service';
import type { Changes } from '../changes';
import type { Database } from '../db/schema';
import { earlyAccessStore } from '../early-access/store';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { flagStore, toFlag, type FlagRow } from '../feature-flags/store';
import type { Actor } from '../http/actor';
import { isUuid, uuidv7 } from '../uuid';
import { makeSurveyFlags, syncSurveyFlags, targetingOf, type FlagSource } from './flags';
import type { SurveyStatus } from './limits';
import { PublicSurveys, type PublicList } from './public';
import { iterationAt, recurringEnd, statusOf } from './schedule';
import type { ConditionsInput, SurveyInput, SurveyPatch, TargetingFiltersInput } from './schemas';
import { surveyStore, type SurveyChanges, type SurveyRow } from './store';
import { checkJsonSize, checkTargeting, isoTime, normalizeConditions, normalizeQuestions, type Question } from './validate';

const parsed = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
const iso = (time: number) => new Date(time).toISOString();
type Creator = { id: number; name: string; email: string };
type SurveyFlags = { targeting: FlagRow; internal: FlagRow };

const flagOfSurvey = (flag: FlagRow) => ({ id: flag.id, key: flag.key, active: flag.active === 1, filters: toFlag(flag).filters });

/** The survey as the API shows it: PostHog's fields, its flags, and its status at `now`. */
export function toSurvey(row: SurveyRow, flags: SurveyFlags, creator: Creator | undefined, now = iso(Date.now())) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    questions: JSON.parse(row.questions) as Question[],
    appearance: parsed<Record<string, unknown>>(row.appearance),
    conditions: parsed<ConditionsInput>(row.conditions),
    linked_flag_key: row.linked_flag_key,
    targeting_flag_key: flags.targeting.key,
    internal_targeting_flag_key: flags.internal.key,
    targeting_flag_filters: targetingOf(flags.targeting),
    targeting_flag: flagOfSurvey(flags.targeting),
    internal_targeting_flag: flagOfSurvey(flags.internal),
    linked_early_access_feature_id: row.linked_early_access_feature_id,
    start_date: row.start_date,
    end_date: row.end_date,
    responses_limit: row.responses_limit,
    schedule: row.schedule,
    iteration_count: row.iteration_count,
    iteration_frequency_days: row.iteration_frequency_days,
    current_iteration: row.current_iteration,
    current_iteration_start_date: row.current_iteration_start_date,
    enable_partial_responses: row.enable_partial_responses === 1,
    archived: row.archived === 1,
    status: statusOf(row, now),
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: creator ?? null,
  };
}
export type Survey = ReturnType<typeof toSurvey>;

/** The fields of a survey the activity log follows (its targeting is added from its flag). */
const LOGGED_FIELDS = [
  'name',
  'description',
  'type',
  'questions',
  'appearance',
  'conditions',
  'linked_flag_key',
  'linked_early_access_feature_id',
  'start_date',
  'end_date',
  'responses_limit',
  'schedule',
  'iteration_count',
  'iteration_frequency_days',
  'current_iteration',
  'enable_partial_responses',
  'archived',
] as const;
const logged = (row: SurveyRow) => ({
  ...row,
  questions: JSON.parse(row.questions) as unknown,
  appearance: parsed(row.appearance),
  conditions: parsed(row.conditions),
});

function recordSurveyActivity(db: Kysely<Database>, actor: Actor, before: SurveyRow | undefined, after: SurveyRow, extra: Change[] = []) {
  const deleted = before !== undefined && after.archived === 1 && before.archived !== 1;
  return recordActivity(db, actor, {
    projectId: after.project_id,
    scope: 'Survey',
    itemId: after.id,
    activity: !before ? 'created' : deleted ? 'deleted' : 'updated',
    name: after.name,
    changes: [...changesBetween(before ? logged(before) : null, logged(after), LOGGED_FIELDS), ...extra],
  });
}

/** What a survey's flags are made from, given its row and the team's targeting. */
const sourceOf = (row: SurveyRow, targeting: TargetingFiltersInput | null, now = Date.now()): FlagSource => ({
  id: row.id,
  name: row.name,
  archived: row.archived,
  running: statusOf(row, iso(now)) === 'running',
  schedule: row.schedule,
  current_iteration: row.current_iteration,
  conditions: parsed<ConditionsInput>(row.conditions),
  targeting,
});

/**
 * The iteration fields of a survey at `now`, and its end when its last iteration is over (a recurring survey stops
 * then); the fields that differ from the row's.
 */
function scheduleChanges(row: SurveyRow, now: number): SurveyChanges {
  const changes: SurveyChanges = {};
  const iteration = iterationAt(row, now);
  if (iteration.current_iteration !== row.current_iteration) changes.current_iteration = iteration.current_iteration;
  if (iteration.current_iteration_start_date !== row.current_iteration_start_date)
    changes.current_iteration_start_date = iteration.current_iteration_start_date;
  const end = recurringEnd(row);
  if (end !== null && Date.parse(end) <= now && (row.end_date === null || row.end_date > end)) changes.end_date = end;
  return changes;
}

export interface SurveyListQuery {
  search?: string;
  status?: SurveyStatus;
  archived?: boolean;
}

/** Surveys: their definitions and the two flags each keeps; launched, stopped, archived; the public list posthog-js reads. */
export class SurveyService {
  private readonly public: PublicSurveys;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly changes: Changes,
  ) {
    this.public = new PublicSurveys(db, changes);
  }

  async list(projectId: number, query: SurveyListQuery, limit: number, offset: number) {
    const now = iso(Date.now());
    const { count, rows } = await surveyStore.page(this.db, projectId, { ...query, archived: query.archived ?? false, limit, offset, now });
    const flags = new Map(
      (
        await flagStore.byIds(
          this.db,
          rows.flatMap((row) => [row.targeting_flag_id!, row.internal_targeting_flag_id!]),
        )
      ).map((flag) => [flag.id, flag]),
    );
    const creators = await surveyStore.creators(this.db, [...new Set(rows.flatMap((row) => row.created_by ?? []))]);
    const results = rows.map((row) =>
      toSurvey(
        row,
        { targeting: flags.get(row.targeting_flag_id!)!, internal: flags.get(row.internal_targeting_flag_id!)! },
        creators.get(row.created_by ?? -1),
        now,
      ),
    );
    return { count, results };
  }

  async get(projectId: number, id: string): Promise<Survey> {
    const row = await this.row(this.db, projectId, id);
    return this.shown(this.db, row, await this.flagsOf(this.db, row));
  }

  /** The survey row, for the modules that work with surveys (responses, results); undefined when there is none. */
  find(projectId: number, id: string): Promise<SurveyRow | undefined> {
    return isUuid(id) ? surveyStore.get(this.db, projectId, id.toLowerCase()) : Promise.resolve(undefined);
  }

  /** Creates a survey (a draft, unless it is given a start) and its two flags, in one transaction. */
  async create(projectId: number, input: SurveyInput, actor: Actor): Promise<Survey> {
    const now = Date.now();
    const targeting = checkTargeting(input.targeting_flag_filters ?? null);
    const survey = await this.db.transaction().execute(async (trx) => {
      const at = iso(now);
      const base: SurveyRow = {
        id: uuidv7(now),
        project_id: projectId,
        name: input.name,
        description: input.description ?? '',
        type: input.type ?? 'popover',
        questions: '[]',
        schedule: 'once',
        appearance: null,
        conditions: null,
        linked_flag_key: null,
        targeting_flag_id: null,
        internal_targeting_flag_id: null,
        linked_early_access_feature_id: null,
        start_date: null,
        end_date: null,
        responses_limit: null,
        iteration_count: null,
        iteration_frequency_days: null,
        current_iteration: null,
        current_iteration_start_date: null,
        enable_partial_responses: 0,
        archived: 0,
        created_by: actor.user_id,
        created_at: at,
        updated_at: at,
      };
      const row = { ...base, ...(await this.applied(trx, projectId, base, { ...input, schedule: input.schedule ?? 'once' }, now)) };
      const flags = await makeSurveyFlags(trx, projectId, sourceOf(row, targeting));
      row.targeting_flag_id = flags.targeting.id;
      row.internal_targeting_flag_id = flags.internal.id;
      await surveyStore.insert(trx, row);
      await recordSurveyActivity(trx, actor, undefined, row, targeting ? [{ field: 'targeting_flag_filters', before: null, after: targeting }] : []);
      return this.shown(trx, row, flags);
    });
    this.changes.flagsChanged(projectId);
    return survey;
  }

  /** Changes a survey; its flags follow (targeting, iteration, server-side events, archived). */
  async update(projectId: number, id: string, patch: SurveyPatch, actor: Actor): Promise<Survey> {
    return this.change(projectId, id, actor, async (trx, row) => {
      const changes = await this.applied(trx, projectId, row, patch, Date.now());
      const targeting = patch.targeting_flag_filters === undefined ? undefined : checkTargeting(patch.targeting_flag_filters);
      return { changes, targeting };
    });
  }

  /** Launches a draft (start now) or resumes a stopped survey (no end); 409 when it runs already or is archived. */
  async launch(projectId: number, id: string, actor: Actor): Promise<Survey> {
    return this.change(projectId, id, actor, async (_trx, row) => {
      const now = Date.now();
      const at = iso(now);
      if (row.archived) throw new ConflictError('An archived survey cannot be launched: restore it first (archived: false).', 'archived');
      if (statusOf(row, at) === 'running') throw new ConflictError('The survey is running already.', 'status');
      const start = row.start_date !== null && row.start_date <= at ? row.start_date : at;
      const next = { ...row, start_date: start, end_date: null };
      const changes = { start_date: start, end_date: null, ...scheduleChanges(next, now) };
      if (changes.end_date !== null) {
        throw new ConflictError(
          'Its last iteration is over: give it more iterations (iteration_count) or a later start before launching it again.',
          'iteration_count',
        );
      }
      return { changes };
    });
  }

  /** Stops a running survey (its end is now); 409 when it does not run. */
  async stop(projectId: number, id: string, actor: Actor): Promise<Survey> {
    return this.change(projectId, id, actor, async (_trx, row) => {
      const at = iso(Date.now());
      const status = statusOf(row, at);
      if (status !== 'running') throw new ConflictError(`Only a running survey can be stopped; this one is ${status}.`, 'status');
      return { changes: { end_date: at } };
    });
  }

  /** Archives a survey (it leaves the list and the page; its flags turn off); it can be restored with `archived: false`. */
  async archive(projectId: number, id: string, actor: Actor): Promise<void> {
    await this.change(projectId, id, actor, async (_trx, row) => ({ changes: row.archived ? {} : { archived: 1 } }));
  }

  /**
   * Moves running recurring surveys into the iteration they are now in (their internal targeting flag with it: a
   * person who answered the last iteration may answer this one), and stops those whose last iteration is over; then
   * turns on the flags of surveys that have started and off those of surveys that have ended since (a survey's flags
   * are on only while it runs). The number of surveys changed.
   */
  async advanceSchedules(now = Date.now()): Promise<number> {
    const rows = await surveyStore.runningRecurring(this.db, iso(now));
    let changed = 0;
    for (const due of rows) {
      if (!Object.keys(scheduleChanges(due, now)).length) continue;
      await this.db.transaction().execute(async (trx) => {
        const row = await surveyStore.get(trx, due.project_id, due.id);
        const changes = row ? scheduleChanges(row, now) : {};
        if (!row || !Object.keys(changes).length) return;
        const flags = await this.flagsOf(trx, row);
        const updated = await surveyStore.update(trx, row, changes);
        await syncSurveyFlags(trx, sourceOf(updated, targetingOf(flags.targeting), now), flags);
        await recordSurveyActivity(trx, { user_id: null, api_key_id: null, label: 'schedule' }, row, updated);
        changed++;
      });
      this.changes.flagsChanged(due.project_id);
    }
    for (const due of await surveyStore.flagsOutOfStep(this.db, iso(now))) {
      const synced = await this.db.transaction().execute(async (trx) => {
        const row = await surveyStore.get(trx, due.project_id, due.id);
        if (!row) return false;
        const flags = await this.flagsOf(trx, row);
        return (await syncSurveyFlags(trx, sourceOf(row, targetingOf(flags.targeting), now), flags)).changed;
      });
      if (!synced) continue;
      this.changes.flagsChanged(due.project_id);
      changed++;
    }
    return changed;
  }

  /** The running in-app surveys of a project as posthog-js reads them (`GET /api/surveys/?token=`), with their ETag. */
  publicList(projectId: number): Promise<PublicList> {
    return this.public.get(projectId);
  }

  /** Whether any in-app survey of the project runs: the remote config's `surveys`. */
  async anyRunning(projectId: number): Promise<boolean> {
    return (await this.public.get(projectId)).running > 0;
  }

  /**
   * One change to a survey in a transaction: `compute` gives the row's changes (and the targeting, when it changes);
   * the flags follow, the activity log records it, and every process hears that the project's flags changed.
   */
  private async change(
    projectId: number,
    id: string,
    actor: Actor,
    compute: (trx: Kysely<Database>, row: SurveyRow) => Promise<{ changes: SurveyChanges; targeting?: TargetingFiltersInput | null }>,
  ): Promise<Survey> {
    const survey = await this.db.transaction().execute(async (trx) => {
      const row = await this.row(trx, projectId, id);
      const flags = await this.flagsOf(trx, row);
      const { changes, targeting } = await compute(trx, row);
      const before = targetingOf(flags.targeting);
      const updated = Object.keys(changes).length ? await surveyStore.update(trx, row, changes) : row;
      const synced = await syncSurveyFlags(trx, sourceOf(updated, targeting === undefined ? before : targeting), flags);
      const extra =
        targeting === undefined ? [] : changesBetween({ targeting_flag_filters: before }, { targeting_flag_filters: targeting }, ['targeting_flag_filters']);
      if (updated !== row || extra.length) await recordSurveyActivity(trx, actor, row, updated, extra);
      return this.shown(trx, updated, synced);
    });
    this.changes.flagsChanged(projectId);
    return survey;
  }

  /**
   * The row's changes a create or a patch makes: each field checked, the questions normalized (ids kept), the
   * schedule's fields together, the dates in order, the iteration as of `now`.
   */
  private async applied(db: Kysely<Database>, projectId: number, row: SurveyRow, patch: SurveyPatch, now: number): Promise<SurveyChanges> {
    const changes: SurveyChanges = {};
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.type !== undefined) changes.type = patch.type;
    if (patch.questions !== undefined) changes.questions = JSON.stringify(normalizeQuestions(patch.questions));
    if (patch.appearance !== undefined) {
      if (patch.appearance !== null) checkJsonSize(patch.appearance, 'appearance');
      changes.appearance = patch.appearance === null ? null : JSON.stringify(patch.appearance);
    }
    if (patch.conditions !== undefined) {
      const conditions = normalizeConditions(patch.conditions);
      changes.conditions = conditions === null ? null : JSON.stringify(conditions);
    }
    if (patch.linked_flag_key !== undefined) changes.linked_flag_key = await this.linkedFlag(db, projectId, patch.linked_flag_key);
    if (patch.linked_early_access_feature_id !== undefined) {
      // The REST API's type coercion reads a null sent for this nullable text as "": both unlink.
      const feature = patch.linked_early_access_feature_id || null;
      if (feature !== null && !(isUuid(feature) && (await earlyAccessStore.get(db, projectId, feature.toLowerCase())))) {
        throw new ValidationError('There is no early access feature with this id in this project.', 'linked_early_access_feature_id', 'does_not_exist');
      }
      changes.linked_early_access_feature_id = feature === null ? null : feature.toLowerCase();
    }
    if (patch.start_date !== undefined) changes.start_date = isoTime(patch.start_date, 'start_date');
    if (patch.end_date !== undefined) changes.end_date = isoTime(patch.end_date, 'end_date');
    if (patch.responses_limit !== undefined) changes.responses_limit = patch.responses_limit;
    if (patch.enable_partial_responses !== undefined) changes.enable_partial_responses = patch.enable_partial_responses ? 1 : 0;
    if (patch.archived !== undefined) changes.archived = patch.archived ? 1 : 0;
    Object.assign(changes, scheduleOf(row, patch));
    const next = { ...row, ...changes };
    if (next.start_date !== null && next.end_date !== null && next.end_date < next.start_date) {
      throw new ValidationError('The end date must not be before the start date.', 'end_date');
    }
    Object.assign(changes, scheduleChanges({ ...next }, now));
    // Only what differs from the row: an update that changes nothing records nothing.
    return Object.fromEntries(Object.entries(changes).filter(([field, value]) => row[field as keyof SurveyRow] !== value)) as SurveyChanges;
  }

  /** A linked flag: a live flag of the project, not one a survey keeps. */
  private async linkedFlag(db: Kysely<Database>, projectId: number, key: string | null): Promise<string | null> {
    if (key === null || key === '') return null;
    const id = await flagStore.liveIdOfKey(db, projectId, key);
    const flag = id === undefined ? undefined : await flagStore.get(db, projectId, id);
    if (!flag) throw new ValidationError(`There is no feature flag "${key}" in this project.`, 'linked_flag_key', 'does_not_exist');
    if (flag.survey_id !== null) throw new ValidationError(`The feature flag "${key}" is one a survey keeps; link a flag of your own.`, 'linked_flag_key');
    return key;
  }

  private async shown(db: Kysely<Database>, row: SurveyRow, flags: SurveyFlags): Promise<Survey> {
    const creators = await surveyStore.creators(db, row.created_by === null ? [] : [row.created_by]);
    return toSurvey(row, flags, creators.get(row.created_by ?? -1));
  }

  private async row(db: Kysely<Database>, projectId: number, id: string): Promise<SurveyRow> {
    const row = isUuid(id) ? await surveyStore.get(db, projectId, id.toLowerCase()) : undefined;
    if (!row) throw new NotFoundError();
    return row;
  }

  private async flagsOf(db: Kysely<Database>, row: SurveyRow): Promise<SurveyFlags> {
    const [targeting, internal] = await Promise.all([
      flagStore.get(db, row.project_id, row.targeting_flag_id ?? -1),
      flagStore.get(db, row.project_id, row.internal_targeting_flag_id ?? -1),
    ]);
    if (!targeting || !internal) throw new Error(`The flags of the survey ${row.id} are missing.`);
    return { targeting, internal };
  }
}

/** The schedule's fields of a patch: iterations belong to a recurring schedule, which needs both. */
function scheduleOf(row: SurveyRow, patch: SurveyPatch): SurveyChanges {
  const schedule = patch.schedule ?? row.schedule;
  if (schedule !== 'recurring') {
    for (const field of ['iteration_count', 'iteration_frequency_days'] as const) {
      if (patch[field] !== undefined && patch[field] !== null) throw new ValidationError(`Only a recurring survey has ${field.replaceAll('_', ' ')}.`, field);
    }
    return { schedule, iteration_count: null, iteration_frequency_days: null };
  }
  const count = patch.iteration_count !== undefined ? patch.iteration_count : row.iteration_count;
  const days = patch.iteration_frequency_days !== undefined ? patch.iteration_frequency_days : row.iteration_frequency_days;
  if (count === null) throw new ValidationError('A recurring survey says how many times it runs.', 'iteration_count', 'required');
  if (days === null) throw new ValidationError('A recurring survey says how many days apart it runs.', 'iteration_frequency_days', 'required');
  return { schedule, iteration_count: count, iteration_frequency_days: days };
}
