import { validateFilters } from '@service/flag-engine';
import type { Kysely } from 'kysely';
import { changesBetween, recordActivity, type Change } from '../activity/service';
import type { Actor } from '../http/actor';
import type { Changes } from '../changes';
import { isUniqueViolation } from '../db/database';
import type { Database } from '../db/schema';
import { flagSummary } from '../early-access/service';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { KEY_PATTERN, insertFlag, recordFlagActivity, type FlagUpdateGuard, type FlagUses } from '../feature-flags/service';
import { flagStore, toFlag, type Filters, type FlagRow } from '../feature-flags/store';
import { enqueueWebhooks } from '../webhooks/outbox';
import { experimentStore, type ExperimentChanges, type ExperimentRow } from './store';

export const STATUSES = ['draft', 'running', 'complete'] as const;
export type Status = (typeof STATUSES)[number];
export const METRIC_KINDS = ['conversion', 'mean'] as const;

/** The conversion window of a conversion metric when none is given. */
export const DEFAULT_WINDOW_DAYS = 14;
/** The variant every experiment compares the others with. */
export const CONTROL = 'control';

export interface Variant {
  key: string;
  rollout_percentage: number;
}
export interface PropertyMatch {
  key: string;
  value: string | number | boolean;
}
export type Metric =
  | { kind: 'conversion'; event: string; properties?: PropertyMatch[]; window_days: number; name?: string }
  | { kind: 'mean'; event: string; property?: string; properties?: PropertyMatch[]; name?: string };

/** A metric as the API takes it (checked and completed by `normalizeMetrics`). */
export interface MetricInput {
  kind: string;
  event: string;
  properties?: PropertyMatch[];
  window_days?: number;
  property?: string;
  name?: string;
}

export interface ExperimentInput {
  name: string;
  description?: string;
  feature_flag_key: string;
  /** The split; default: an existing flag's variants, or control/test 50/50 for a new flag. Applied to the flag at launch. */
  variants?: Variant[];
  metrics?: MetricInput[];
  start_date?: string | null;
  end_date?: string | null;
  status?: string;
}
export type ExperimentPatch = Partial<Omit<ExperimentInput, 'feature_flag_key'>>;

const DEFAULT_VARIANTS: Variant[] = [
  { key: CONTROL, rollout_percentage: 50 },
  { key: 'test', rollout_percentage: 50 },
];

/** Which status may follow which: draft → running → complete, nothing after complete, never back. */
const NEXT: Record<Status, readonly Status[]> = { draft: ['running'], running: ['complete'], complete: [] };

const isStatus = (value: string): value is Status => (STATUSES as readonly string[]).includes(value);

/** The experiment as the API shows it. */
export function toExperiment(row: ExperimentRow, flag: FlagRow) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    feature_flag_key: flag.key,
    feature_flag: flagSummary(flag),
    variants: JSON.parse(row.variants) as Variant[],
    metrics: JSON.parse(row.metrics) as Metric[],
    start_date: row.start_date,
    end_date: row.end_date,
    status: row.status as Status,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type Experiment = ReturnType<typeof toExperiment>;

/** Variants of a split: at least two, unique valid keys, one of them `control`, each above 0 %, 100 % in all; else 400 on `attr`. */
export function checkVariants(variants: Variant[], attr = 'variants'): Variant[] {
  if (variants.length < 2) throw new ValidationError('An experiment needs at least two variants: control and one to test.', attr);
  const seen = new Set<string>();
  for (const v of variants) {
    if (!KEY_PATTERN.test(v.key)) throw new ValidationError(`Variant key "${v.key}": only letters, numbers, hyphens (-) & underscores (_) are allowed.`, attr);
    if (seen.has(v.key)) throw new ValidationError(`Variant keys must be unique; "${v.key}" is given twice.`, attr);
    seen.add(v.key);
    if (!(typeof v.rollout_percentage === 'number' && v.rollout_percentage > 0 && v.rollout_percentage <= 100)) {
      throw new ValidationError(`Variant "${v.key}" needs a rollout percentage above 0 and at most 100.`, attr);
    }
  }
  if (!seen.has(CONTROL)) throw new ValidationError(`An experiment needs a variant with the key "${CONTROL}".`, attr);
  const sum = variants.reduce((total, v) => total + v.rollout_percentage, 0);
  if (Math.abs(sum - 100) > 1e-9) throw new ValidationError(`Variant rollout percentages must sum to 100 (they sum to ${sum}).`, attr);
  return variants.map((v) => ({ key: v.key, rollout_percentage: v.rollout_percentage }));
}

/** Metrics completed with their defaults (conversion window 14 days); a 400 naming the metric's field for a wrong one. */
export function normalizeMetrics(metrics: MetricInput[]): Metric[] {
  return metrics.map((m, i) => {
    const at = (field: string) => `metrics__${i}__${field}`;
    if (!(METRIC_KINDS as readonly string[]).includes(m.kind)) throw new ValidationError(`"${m.kind}" is not a valid choice.`, at('kind'), 'invalid_choice');
    if (!m.event?.trim()) throw new ValidationError('This field may not be blank.', at('event'), 'blank');
    const properties = m.properties?.length ? { properties: m.properties.map(({ key, value }) => ({ key, value })) } : {};
    const name = m.name ? { name: m.name } : {};
    if (m.kind === 'conversion') {
      if (m.property !== undefined) throw new ValidationError('A conversion metric counts people: only a mean metric sums a property.', at('property'));
      const window = m.window_days ?? DEFAULT_WINDOW_DAYS;
      if (!Number.isInteger(window) || window < 1 || window > 365)
        throw new ValidationError('Ensure the window is a whole number of days from 1 to 365.', at('window_days'));
      return { kind: 'conversion', event: m.event, ...properties, window_days: window, ...name };
    }
    if (m.window_days !== undefined) throw new ValidationError('Only a conversion metric has a window.', at('window_days'));
    if (m.property !== undefined && !m.property.trim()) throw new ValidationError('This field may not be blank.', at('property'), 'blank');
    return { kind: 'mean', event: m.event, ...(m.property !== undefined ? { property: m.property } : {}), ...properties, ...name };
  });
}

/** An ISO time as stored (UTC, milliseconds), null as null; a 400 on `attr` for a time that is not one. */
function isoTime(value: string | null, attr: string): string | null {
  if (value === null) return null;
  const time = Date.parse(value);
  if (!Number.isFinite(time) || !/^\d{4}-\d{2}-\d{2}T/.test(value))
    throw new ValidationError('Enter a valid date and time (ISO 8601, with a time zone).', attr);
  return new Date(time).toISOString();
}

/** The multivariate variants of a flag's filters (empty for a boolean flag). */
export function flagVariants(filters: Filters): Variant[] {
  const variants = (filters.multivariate as { variants?: unknown } | null | undefined)?.variants;
  return Array.isArray(variants) ? (variants as Variant[]) : [];
}

/** Same keys in the same order with the same shares (the order decides who gets which variant). */
const sameSplit = (a: Variant[], b: Variant[]) =>
  a.length === b.length && a.every((v, i) => v.key === b[i]!.key && v.rollout_percentage === b[i]!.rollout_percentage);

/** The filters of a flag with this split; names and payloads of the variants that stay are kept. */
function withVariants(filters: Filters, variants: Variant[]): Filters {
  const before = new Map(flagVariants(filters).map((v) => [v.key, v as Variant & { name?: unknown }]));
  const payloads = filters.payloads && typeof filters.payloads === 'object' ? (filters.payloads as Record<string, unknown>) : null;
  const next: Filters = {
    ...filters,
    multivariate: {
      variants: variants.map((v) => {
        const name = before.get(v.key)?.name;
        return typeof name === 'string' ? { key: v.key, name, rollout_percentage: v.rollout_percentage } : { ...v };
      }),
    },
  };
  if (payloads) next.payloads = Object.fromEntries(Object.entries(payloads).filter(([key]) => variants.some((v) => v.key === key)));
  if (Array.isArray(filters.groups)) {
    // A condition forcing a variant that no longer exists forces none.
    next.groups = (filters.groups as { variant?: unknown }[]).map((g) =>
      g && typeof g.variant === 'string' && !variants.some((v) => v.key === g.variant) ? { ...g, variant: null } : g,
    );
  }
  return next;
}

/** The fields of an experiment the activity log follows. */
const LOGGED_FIELDS = ['name', 'description', 'feature_flag_id', 'variants', 'metrics', 'start_date', 'end_date', 'status'] as const;
const logged = (row: ExperimentRow) => ({ ...row, variants: JSON.parse(row.variants) as unknown, metrics: JSON.parse(row.metrics) as unknown });

/** Records an experiment's creation, change or deletion in the activity log (in the change's transaction). */
function recordExperimentActivity(
  db: Kysely<Database>,
  actor: Actor,
  before: ExperimentRow | undefined,
  after: ExperimentRow | undefined,
  extra: Change[] = [],
) {
  const row = (after ?? before)!;
  return recordActivity(db, actor, {
    projectId: row.project_id,
    scope: 'Experiment',
    itemId: row.id,
    activity: !before ? 'created' : !after ? 'deleted' : 'updated',
    name: row.name,
    changes: after ? [...changesBetween(before ? logged(before) : null, logged(after), LOGGED_FIELDS), ...extra] : null,
  });
}

/** Writes a change to a flag made by an experiment, with its `feature_flag.changed` webhook and activity entry; only when it changes something. */
async function changeFlag(db: Kysely<Database>, flag: FlagRow, changes: { filters?: Filters; active?: boolean }, actor: Actor): Promise<FlagRow> {
  const values: Parameters<typeof flagStore.update>[2] = {};
  if (changes.filters !== undefined) {
    const text = JSON.stringify(changes.filters);
    if (text !== flag.filters) values.filters = text;
  }
  if (changes.active !== undefined && (changes.active ? 1 : 0) !== flag.active) values.active = changes.active ? 1 : 0;
  if (!Object.keys(values).length) return flag;
  const updated = await flagStore.update(db, flag, values);
  const { id, key, name, active, deleted, version } = toFlag(updated);
  await enqueueWebhooks(db, flag.project_id, 'feature_flag.changed', { feature_flag: { id, key, name, active, deleted, version }, change: 'updated' });
  await recordFlagActivity(db, actor, flag, updated);
  return updated;
}

/** Launching on a flag: it takes the experiment's split (when it differs) and turns on, in one change. */
function launchOn(db: Kysely<Database>, flag: FlagRow, variants: Variant[], actor: Actor): Promise<FlagRow> {
  const filters = JSON.parse(flag.filters) as Filters;
  const launched = sameSplit(flagVariants(filters), variants) ? filters : withVariants(filters, variants);
  checkFlagFilters(launched, 'variants');
  return changeFlag(db, flag, { filters: launched, active: true }, actor);
}

/** The 400 for filters an experiment would give its flag that the flag rules refuse (not expected: the split is checked first). */
function checkFlagFilters(filters: Filters, attr: string) {
  const error = validateFilters(filters);
  if (error) throw new ValidationError(error.detail, attr, error.code);
}

const inOtherExperiment = (key: string, name: string) =>
  new ValidationError(`The feature flag "${key}" is already in experiment "${name}", which is not complete.`, 'feature_flag_key', 'unique');

/**
 * Rules an open (draft or running) experiment puts on its flag, as changed through the flags API: it stays and keeps
 * its key (exposures name it); while the experiment runs it also keeps its split (people were assigned by it). A draft
 * leaves the flag to its owners otherwise: the experiment applies its split only when it is launched.
 */
export const experimentFlagGuard: FlagUpdateGuard = async (db, flag, patch) => {
  const open = await experimentStore.openByFlag(db, flag.id);
  if (!open) return;
  const used = `in use by experiment "${open.name}" (${open.status})`;
  if (patch.deleted === true) throw new ValidationError(`Cannot delete a feature flag ${used}; complete or delete the experiment first.`, 'deleted');
  if (patch.key !== undefined && patch.key !== flag.key) throw new ValidationError(`Cannot change the key of a feature flag ${used}.`, 'key');
  if (open.status === 'running' && patch.filters !== undefined && !sameSplit(flagVariants(patch.filters), flagVariants(JSON.parse(flag.filters) as Filters))) {
    throw new ValidationError(`Cannot change the variants of a feature flag ${used}; people were assigned by them.`, 'filters');
  }
};

/** A flag's experiments, for its page. */
export const experimentFlagUses: FlagUses = async (db, flag) =>
  (await experimentStore.byFlag(db, flag.id)).map((e) => ({ type: 'experiment', id: e.id, name: e.name, status: e.status }));

export class ExperimentService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly changes: Changes,
  ) {}

  async list(projectId: number, limit: number, offset: number) {
    const { count, rows } = await experimentStore.page(this.db, projectId, limit, offset);
    const flags = new Map((await flagStore.byIds(this.db, [...new Set(rows.map((r) => r.feature_flag_id))])).map((f) => [f.id, f]));
    return { count, results: rows.map((row) => toExperiment(row, flags.get(row.feature_flag_id)!)) };
  }

  async get(projectId: number, id: number): Promise<Experiment> {
    const row = await this.row(this.db, projectId, id);
    return toExperiment(row, await this.flagOf(this.db, row));
  }

  /**
   * Creates an experiment on a new multivariate flag (`feature_flag_key` free), off until the experiment runs, or on
   * the live multivariate flag with that key and a `control` variant, whose variants it takes unless others are given.
   * A draft leaves an existing flag exactly as it is (whoever it serves keeps getting it); created running, the
   * experiment launches on it at once (its split, and on).
   */
  async create(projectId: number, input: ExperimentInput, actor: Actor): Promise<Experiment> {
    const given = input.variants === undefined ? undefined : checkVariants(input.variants);
    const metrics = normalizeMetrics(input.metrics ?? []);
    const status = input.status ?? 'draft';
    if (status !== 'draft' && status !== 'running') {
      throw new ValidationError(`An experiment starts as draft or running, not "${status}".`, 'status', 'invalid_choice');
    }
    if (status === 'running' && !metrics.length) throw new ValidationError('A running experiment needs a metric (the first is the primary).', 'metrics');
    const now = new Date().toISOString();
    let startDate = isoTime(input.start_date ?? null, 'start_date');
    const endDate = isoTime(input.end_date ?? null, 'end_date');
    if (status === 'running') startDate ??= now;
    checkDates(startDate, endDate);
    if (!KEY_PATTERN.test(input.feature_flag_key)) {
      throw new ValidationError('Only letters, numbers, hyphens (-) & underscores (_) are allowed.', 'feature_flag_key', 'invalid_key');
    }
    const running = status === 'running';
    const created = await this.db.transaction().execute(async (trx) => {
      const existing = await trx
        .selectFrom('feature_flags')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('key', '=', input.feature_flag_key)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      let flag: FlagRow;
      let variants: Variant[];
      if (existing) {
        const filters = JSON.parse(existing.filters) as Filters;
        const own = flagVariants(filters);
        if (!own.some((v) => v.key === CONTROL)) {
          throw new ValidationError(
            `The feature flag "${existing.key}" exists and is not a multivariate flag with a "${CONTROL}" variant; choose another key or add the variant to the flag.`,
            'feature_flag_key',
          );
        }
        variants =
          given ??
          checkVariants(
            own.map((v) => ({ key: v.key, rollout_percentage: v.rollout_percentage })),
            'feature_flag_key',
          );
        const open = await experimentStore.openByFlag(trx, existing.id);
        if (open) throw inOtherExperiment(existing.key, open.name);
        flag = running ? await launchOn(trx, existing, variants, actor) : existing;
      } else {
        variants = given ?? DEFAULT_VARIANTS;
        const filters: Filters = {
          groups: [{ properties: [], rollout_percentage: 100, variant: null }],
          multivariate: { variants },
        };
        checkFlagFilters(filters, 'variants');
        try {
          flag = await insertFlag(trx, projectId, {
            key: input.feature_flag_key,
            name: `Feature Flag for Experiment ${input.name}`,
            filters,
            active: running,
            ensure_experience_continuity: false,
          });
        } catch (error) {
          if (error instanceof ValidationError && error.attr === 'key') throw new ValidationError(error.detail, 'feature_flag_key', error.code);
          throw error;
        }
        const { id, key, name, active, deleted, version } = toFlag(flag);
        await enqueueWebhooks(trx, projectId, 'feature_flag.changed', { feature_flag: { id, key, name, active, deleted, version }, change: 'created' });
        await recordFlagActivity(trx, actor, undefined, flag);
      }
      let row: ExperimentRow;
      try {
        row = await experimentStore.insert(trx, {
          project_id: projectId,
          name: input.name,
          description: input.description ?? '',
          feature_flag_id: flag.id,
          variants: JSON.stringify(variants),
          metrics: JSON.stringify(metrics),
          start_date: startDate,
          end_date: endDate,
          status,
          created_at: now,
          updated_at: now,
        });
      } catch (error) {
        if (isUniqueViolation(error, 'feature_flag_id')) throw inOtherExperiment(flag.key, 'another');
        throw error;
      }
      await recordExperimentActivity(trx, actor, undefined, row);
      return { experiment: toExperiment(row, flag), flagChanged: flag !== existing };
    });
    if (created.flagChanged) this.changes.flagsChanged(projectId);
    return created.experiment;
  }

  /**
   * Changes name, description, variants (only in draft), metrics, dates or status. Running sets start_date to now
   * unless one is given (now or before), complete sets end_date likewise. The flag changes only at launch (draft →
   * running): it takes the experiment's split, when it differs, and turns on.
   */
  async update(projectId: number, id: number, patch: ExperimentPatch, actor: Actor): Promise<Experiment> {
    const result = await this.db.transaction().execute(async (trx) => {
      const row = await this.row(trx, projectId, id);
      let flag = await this.flagOf(trx, row);
      const before = flag.version;
      const from = row.status as Status;
      const to = patch.status ?? from;
      if (!isStatus(to)) throw new ValidationError(`"${to}" is not a valid choice.`, 'status', 'invalid_choice');
      if (to !== from && !NEXT[from].includes(to)) {
        throw new ValidationError(`An experiment cannot go from ${from} to ${to} (draft → running → complete).`, 'status', 'invalid_transition');
      }
      const changes: ExperimentChanges = {};
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.description !== undefined) changes.description = patch.description;
      let variants = JSON.parse(row.variants) as Variant[];
      if (patch.variants !== undefined) {
        const next = checkVariants(patch.variants);
        if (!sameSplit(next, variants)) {
          if (from !== 'draft') throw new ConflictError(`The variants of a ${from} experiment cannot change (people were assigned by them).`, 'variants');
          variants = next;
          changes.variants = JSON.stringify(variants);
        }
      }
      let metrics = JSON.parse(row.metrics) as Metric[];
      if (patch.metrics !== undefined) {
        metrics = normalizeMetrics(patch.metrics);
        changes.metrics = JSON.stringify(metrics);
      }
      if (to !== 'draft' && !metrics.length) throw new ValidationError('A running experiment needs a metric (the first is the primary).', 'metrics');
      const now = new Date().toISOString();
      let start = patch.start_date !== undefined ? isoTime(patch.start_date, 'start_date') : row.start_date;
      let end = patch.end_date !== undefined ? isoTime(patch.end_date, 'end_date') : row.end_date;
      if (to !== from && to === 'running') start ??= now;
      if (to !== from && to === 'complete') end ??= now;
      if (to !== 'draft' && start === null) throw new ValidationError(`A ${to} experiment has a start date.`, 'start_date');
      if (to === 'complete' && end === null) throw new ValidationError('A complete experiment has an end date.', 'end_date');
      checkDates(start, end);
      if (start !== row.start_date) changes.start_date = start;
      if (end !== row.end_date) changes.end_date = end;
      if (to !== from) changes.status = to;
      if (from === 'draft' && to === 'running') flag = await launchOn(trx, flag, variants, actor);
      const updated = Object.keys(changes).length ? await experimentStore.update(trx, row, changes) : row;
      await recordExperimentActivity(trx, actor, row, updated);
      return { experiment: toExperiment(updated, flag), flagChanged: flag.version !== before };
    });
    if (result.flagChanged) this.changes.flagsChanged(projectId);
    return result.experiment;
  }

  /**
   * Ships a variant: the flag gives it to everyone (one condition at 100 %, the variant at 100 % of the split and the
   * others at 0 %, so `$feature_flag_called` keeps naming a real variant) and the experiment completes (end date now,
   * or the one it has when that is earlier). One transaction; a draft has nothing to ship (409).
   */
  async ship(projectId: number, id: number, variant: string, actor: Actor): Promise<Experiment> {
    const result = await this.db.transaction().execute(async (trx) => {
      const row = await this.row(trx, projectId, id);
      const flag = await this.flagOf(trx, row);
      const planned = JSON.parse(row.variants) as Variant[];
      if (!planned.some((v) => v.key === variant)) {
        throw new ValidationError(`"${variant}" is not a variant of this experiment (${planned.map((v) => v.key).join(', ')}).`, 'variant', 'invalid_choice');
      }
      if (row.status === 'draft') throw new ConflictError('A draft experiment has no results to ship: start it first.', 'status');
      if (flag.deleted) throw new ConflictError(`The feature flag "${flag.key}" of this experiment has been deleted.`, 'feature_flag_key');
      const filters = JSON.parse(flag.filters) as Filters;
      const current = flagVariants(filters);
      if (!current.some((v) => v.key === variant)) {
        throw new ConflictError(`The feature flag "${flag.key}" no longer has the variant "${variant}".`, 'variant');
      }
      const shipped: Filters = {
        ...withVariants(
          filters,
          current.map((v) => ({ key: v.key, rollout_percentage: v.key === variant ? 100 : 0 })),
        ),
        groups: [{ properties: [], rollout_percentage: 100, variant: null }],
      };
      checkFlagFilters(shipped, 'variant');
      const updatedFlag = await changeFlag(trx, flag, { filters: shipped, active: true }, actor);
      const changes: ExperimentChanges = {};
      if (row.status !== 'complete') {
        const now = new Date().toISOString();
        let end = row.end_date !== null && row.end_date < now ? row.end_date : now;
        if (row.start_date !== null && end < row.start_date) end = row.start_date;
        Object.assign(changes, { status: 'complete', end_date: end });
      }
      const updated = Object.keys(changes).length ? await experimentStore.update(trx, row, changes) : row;
      await recordExperimentActivity(trx, actor, row, updated, [{ field: 'shipped_variant', before: null, after: variant }]);
      return toExperiment(updated, updatedFlag);
    });
    this.changes.flagsChanged(projectId);
    return result;
  }

  /** Deletes the experiment; its flag stays as it is. */
  async delete(projectId: number, id: number, actor: Actor) {
    await this.db.transaction().execute(async (trx) => {
      const row = await this.row(trx, projectId, id);
      await experimentStore.delete(trx, row.id);
      await recordExperimentActivity(trx, actor, row, undefined);
    });
  }

  private async row(db: Kysely<Database>, projectId: number, id: number): Promise<ExperimentRow> {
    const row = Number.isSafeInteger(id) ? await experimentStore.get(db, projectId, id) : undefined;
    if (!row) throw new NotFoundError();
    return row;
  }

  private async flagOf(db: Kysely<Database>, row: ExperimentRow): Promise<FlagRow> {
    const flag = await flagStore.get(db, row.project_id, row.feature_flag_id);
    if (!flag) throw new NotFoundError();
    return flag;
  }
}

/** An end before the start: 400 on `end_date`. */
function checkDates(start: string | null, end: string | null) {
  if (start !== null && end !== null && end < start) throw new ValidationError('The end date must not be before the start date.', 'end_date');
}
