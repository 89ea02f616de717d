import type { Insertable } from 'kysely';
import { recordActivity } from '../activity/service';
import { isUniqueViolation, type Db } from '../db/database';
import { containsIgnoringCase } from '../db/like';
import type { Executor } from '../db/schema';
import type { LlmPromptTable, LlmPromptVersionTable } from '../db/llm-prompts-schema';
import { ConflictError, NotFoundError } from '../errors';
import type { Actor } from '../http/actor';
import { uuidv7 } from '../uuid';

/** The activity log's kind for prompts. */
export const PROMPT_ACTIVITY = 'LlmPrompt';

export type PromptConfig = Record<string, unknown> | null;
export interface LabelOf {
  name: string;
  version: number;
}

/** A prompt as the management API shows it: its newest version's text and config, and where its labels point. */
export interface Prompt {
  id: string;
  name: string;
  version: number;
  prompt: string;
  config: PromptConfig;
  labels: LabelOf[];
  created_at: string;
  updated_at: string;
}

export interface PromptVersion {
  version: number;
  prompt: string;
  config: PromptConfig;
  /** The labels on this version. */
  labels: string[];
  created_at: string;
}

/** One resolved version, in the shape `@posthog/ai`'s `Prompts.get()` reads. */
export interface ResolvedPrompt {
  id: string;
  name: string;
  prompt: string;
  version: number;
  /** The label asked for, when it names this version. */
  label?: string;
  config: PromptConfig;
  /** Every label of the prompt and its version (what `Prompts.getAll({label})` checks). */
  all_labels: LabelOf[];
  created_at: string;
}

export interface NewVersion {
  prompt: string;
  config?: PromptConfig;
  /** Labels moved onto the new version. */
  labels?: string[];
}

const configOf = (text: string | null): PromptConfig => (text === null ? null : (JSON.parse(text) as PromptConfig));
const byName = (a: LabelOf, b: LabelOf) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Prompts, their versions and labels. Versions are appended, never edited; a label names one version and moves in the
 * same transaction as the version it is set with, so a client reading a label sees the old or the new version, never
 * neither. Each change is in the activity log.
 */
export class LlmPromptService {
  private readonly db: Db['kysely'];

  constructor(private readonly database: Db) {
    this.db = database.kysely;
  }

  async list(projectId: number, search: string | undefined, limit: number, offset: number): Promise<{ count: number; results: Prompt[] }> {
    let query = this.db.selectFrom('llm_prompts').where('project_id', '=', projectId);
    if (search) query = query.where(containsIgnoringCase('name', search));
    const { count } = await query.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
    const rows = await query.selectAll().orderBy('name').limit(limit).offset(offset).execute();
    const results = await Promise.all(rows.map((row) => this.shown(this.db, row)));
    return { count: Number(count), results };
  }

  async get(projectId: number, id: string): Promise<Prompt> {
    return this.shown(this.db, await this.row(this.db, projectId, id));
  }

  async create(projectId: number, input: NewVersion & { name: string }, actor: Actor): Promise<Prompt> {
    const taken = () => new ConflictError(`A prompt named "${input.name}" already exists in this project.`, 'name');
    return this.db
      .transaction()
      .execute(async (trx) => {
        if (await trx.selectFrom('llm_prompts').select('id').where('project_id', '=', projectId).where('name', '=', input.name).executeTakeFirst())
          throw taken();
        const now = new Date().toISOString();
        const row: LlmPromptTable = {
          id: uuidv7(),
          project_id: projectId,
          name: input.name,
          latest_version: 1,
          created_by: actor.user_id,
          created_at: now,
          updated_at: now,
        };
        await trx.insertInto('llm_prompts').values(row).execute();
        await this.append(trx, row, 1, input, actor, now);
        const shown = await this.shown(trx, row);
        await recordActivity(trx, actor, { projectId, scope: PROMPT_ACTIVITY, itemId: row.id, activity: 'created', name: row.name, changes: null });
        return shown;
      })
      .catch((error: unknown) => {
        // Two creations of one name at once (PostgreSQL): the second meets the unique index.
        throw isUniqueViolation(error, 'llm_prompts_name') ? taken() : error;
      });
  }

  /** Stores the next version (and moves `labels` onto it). */
  async addVersion(projectId: number, id: string, input: NewVersion, actor: Actor): Promise<Prompt> {
    return this.db.transaction().execute(async (trx) => {
      const before = await this.row(trx, projectId, id, true);
      const now = new Date().toISOString();
      const version = before.latest_version + 1;
      await trx.updateTable('llm_prompts').set({ latest_version: version, updated_at: now }).where('id', '=', id).execute();
      const row = { ...before, latest_version: version, updated_at: now };
      await this.append(trx, row, version, input, actor, now);
      const changes = [
        { field: 'version', before: before.latest_version, after: version },
        ...(input.labels ?? []).map((l) => ({ field: `label:${l}`, before: null, after: version })),
      ];
      await recordActivity(trx, actor, { projectId, scope: PROMPT_ACTIVITY, itemId: id, activity: 'updated', name: row.name, changes });
      return this.shown(trx, row);
    });
  }

  async versions(projectId: number, id: string): Promise<PromptVersion[]> {
    const row = await this.row(this.db, projectId, id);
    const labels = await this.labels(this.db, row.id);
    const versions = await this.db.selectFrom('llm_prompt_versions').selectAll().where('prompt_id', '=', row.id).orderBy('version', 'desc').execute();
    return versions.map((v) => ({
      version: v.version,
      prompt: v.prompt,
      config: configOf(v.config),
      labels: labels.filter((l) => l.version === v.version).map((l) => l.name),
      created_at: v.created_at,
    }));
  }

  /** Points `label` at `version` (an existing one), creating the label if new. */
  async setLabel(projectId: number, id: string, label: string, version: number, actor: Actor): Promise<Prompt> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.row(trx, projectId, id, true);
      await this.versionRow(trx, row.id, version);
      const before = (await this.labels(trx, row.id)).find((l) => l.name === label)?.version ?? null;
      await this.pointLabel(trx, row.id, label, version, new Date().toISOString());
      await recordActivity(trx, actor, {
        projectId,
        scope: PROMPT_ACTIVITY,
        itemId: id,
        activity: 'updated',
        name: row.name,
        changes: before === version ? [] : [{ field: `label:${label}`, before, after: version }],
      });
      return this.shown(trx, row);
    });
  }

  async removeLabel(projectId: number, id: string, label: string, actor: Actor): Promise<Prompt> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.row(trx, projectId, id, true);
      const removed = await trx
        .deleteFrom('llm_prompt_labels')
        .where('prompt_id', '=', row.id)
        .where('label', '=', label)
        .returning('version')
        .executeTakeFirst();
      if (!removed) throw new NotFoundError(`The prompt has no label "${label}".`);
      await recordActivity(trx, actor, {
        projectId,
        scope: PROMPT_ACTIVITY,
        itemId: id,
        activity: 'updated',
        name: row.name,
        changes: [{ field: `label:${label}`, before: removed.version, after: null }],
      });
      return this.shown(trx, row);
    });
  }

  async delete(projectId: number, id: string, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await this.row(trx, projectId, id, true);
      // Children first: SQLite enforces the foreign keys' cascade only when they are turned on.
      await trx.deleteFrom('llm_prompt_labels').where('prompt_id', '=', row.id).execute();
      await trx.deleteFrom('llm_prompt_versions').where('prompt_id', '=', row.id).execute();
      await trx.deleteFrom('llm_prompts').where('id', '=', row.id).execute();
      await recordActivity(trx, actor, { projectId, scope: PROMPT_ACTIVITY, itemId: id, activity: 'deleted', name: row.name, changes: null });
    });
  }

  /**
   * The version a client asks for by name: `version` when given (a pinned version wins over a label), else the one
   * `label` names, else the newest. Undefined when there is no such prompt, version or label.
   */
  async resolve(projectId: number, name: string, ask: { version?: number; label?: string }): Promise<ResolvedPrompt | undefined> {
    const row = await this.db.selectFrom('llm_prompts').selectAll().where('project_id', '=', projectId).where('name', '=', name).executeTakeFirst();
    if (!row) return undefined;
    const labels = await this.labels(this.db, row.id);
    const wanted = ask.version ?? (ask.label !== undefined ? labels.find((l) => l.name === ask.label)?.version : row.latest_version);
    if (wanted === undefined) return undefined;
    const version = await this.db
      .selectFrom('llm_prompt_versions')
      .selectAll()
      .where('prompt_id', '=', row.id)
      .where('version', '=', wanted)
      .executeTakeFirst();
    if (!version) return undefined;
    const label = ask.label !== undefined && labels.some((l) => l.name === ask.label && l.version === wanted) ? ask.label : undefined;
    return {
      id: row.id,
      name: row.name,
      prompt: version.prompt,
      version: version.version,
      ...(label !== undefined ? { label } : {}),
      config: configOf(version.config),
      all_labels: labels,
      created_at: version.created_at,
    };
  }

  /** Every prompt at its newest version, or (with `label`) the prompts carrying `label`, at its version; by name. */
  async resolveAll(projectId: number, label: string | undefined, limit: number, offset: number): Promise<{ count: number; results: ResolvedPrompt[] }> {
    const base = this.db
      .selectFrom('llm_prompts as p')
      .$if(label !== undefined, (q) => q.innerJoin('llm_prompt_labels as l', (j) => j.onRef('l.prompt_id', '=', 'p.id').on('l.label', '=', label!)))
      .where('p.project_id', '=', projectId);
    const { count } = await base.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
    const rows = await base
      .innerJoin('llm_prompt_versions as v', (j) =>
        j
          .onRef('v.prompt_id', '=', 'p.id')
          .on((eb) => eb('v.version', '=', label !== undefined ? eb.ref('l.version' as 'v.version') : eb.ref('p.latest_version'))),
      )
      .select(['p.id', 'p.name', 'v.version', 'v.prompt', 'v.config', 'v.created_at'])
      .orderBy('p.name')
      .limit(limit)
      .offset(offset)
      .execute();
    const labels = rows.length
      ? await this.db
          .selectFrom('llm_prompt_labels')
          .select(['prompt_id', 'label', 'version'])
          .where(
            'prompt_id',
            'in',
            rows.map((r) => r.id),
          )
          .execute()
      : [];
    const results = rows.map((r) => ({
      id: r.id,
      name: r.name,
      prompt: r.prompt,
      version: r.version,
      ...(label !== undefined ? { label } : {}),
      config: configOf(r.config),
      all_labels: labels
        .filter((l) => l.prompt_id === r.id)
        .map((l) => ({ name: l.label, version: l.version }))
        .sort(byName),
      created_at: r.created_at,
    }));
    return { count: Number(count), results };
  }

  private async append(trx: Executor, row: LlmPromptTable, version: number, input: NewVersion, actor: Actor, now: string) {
    const values: Insertable<LlmPromptVersionTable> = {
      project_id: row.project_id,
      prompt_id: row.id,
      version,
      prompt: input.prompt,
      config: input.config == null ? null : JSON.stringify(input.config),
      created_by: actor.user_id,
      created_at: now,
    };
    await trx.insertInto('llm_prompt_versions').values(values).execute();
    for (const label of new Set(input.labels ?? [])) await this.pointLabel(trx, row.id, label, version, now);
  }

  private async pointLabel(trx: Executor, promptId: string, label: string, version: number, now: string) {
    await trx
      .insertInto('llm_prompt_labels')
      .values({ prompt_id: promptId, label, version, updated_at: now })
      .onConflict((oc) => oc.columns(['prompt_id', 'label']).doUpdateSet({ version, updated_at: now }))
      .execute();
  }

  private async row(db: Executor, projectId: number, id: string, lock = false): Promise<LlmPromptTable> {
    const row = await db
      .selectFrom('llm_prompts')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('id', '=', id)
      // PostgreSQL: concurrent new versions of one prompt wait for each other (SQLite writes one at a time anyway).
      .$if(lock && this.database.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!row) throw new NotFoundError('Prompt not found.');
    return row;
  }

  private async versionRow(db: Executor, promptId: string, version: number) {
    const row = await db
      .selectFrom('llm_prompt_versions')
      .select('version')
      .where('prompt_id', '=', promptId)
      .where('version', '=', version)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`The prompt has no version ${version}.`);
  }

  private async labels(db: Executor, promptId: string): Promise<LabelOf[]> {
    const rows = await db.selectFrom('llm_prompt_labels').select(['label', 'version']).where('prompt_id', '=', promptId).execute();
    return rows.map((r) => ({ name: r.label, version: r.version })).sort(byName);
  }

  private async shown(db: Executor, row: LlmPromptTable): Promise<Prompt> {
    const latest = await db
      .selectFrom('llm_prompt_versions')
      .selectAll()
      .where('prompt_id', '=', row.id)
      .where('version', '=', row.latest_version)
      .executeTakeFirstOrThrow();
    return {
      id: row.id,
      name: row.name,
      version: row.latest_version,
      prompt: latest.prompt,
      config: configOf(latest.config),
      labels: await this.labels(db, row.id),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}
