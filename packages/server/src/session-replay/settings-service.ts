import type { Changes } from '../changes';
import { changesBetween, recordActivity } from '../activity/service';
import type { Db } from '../db/database';
import type { Executor } from '../db/schema';
import { ValidationError } from '../errors';
import { flagStore } from '../feature-flags/store';
import type { Actor } from '../http/actor';
import { checkPatch, SETTINGS_FIELDS, settingsOf, type ReplaySettings, type SessionRecordingSettings, type SettingsPatch } from './settings';
import { settingsStore } from './settings-store';

/** What the stored recordings of a project take (the storage's count). */
export interface ReplayUsage {
  usage(projectId: number): Promise<{ bytes: number; sessions: number }>;
}

/** The activity log's kind for a change of a project's recording settings (the item is the project). */
export const SETTINGS_ACTIVITY = 'SessionRecordingSettings';

/**
 * A project's recording settings: off until turned on. A change is logged in the activity log and announced as a change
 * of what the project's `/flags` answers, which drops the cached remote config in every process.
 */
export class ReplaySettingsService {
  constructor(
    private readonly db: Db,
    private readonly changes: Changes,
    private readonly storage: ReplayUsage,
    private readonly retentionDays: number,
  ) {}

  /** The stored settings (defaults when the project has none). */
  async stored(projectId: number, db: Executor = this.db.kysely): Promise<ReplaySettings> {
    return settingsOf(await settingsStore.get(db, projectId));
  }

  async get(projectId: number): Promise<SessionRecordingSettings> {
    return this.shown(await this.stored(projectId), projectId);
  }

  async update(projectId: number, input: SettingsPatch, actor: Actor): Promise<SessionRecordingSettings> {
    const patch = checkPatch({ ...input });
    const { settings, changed } = await this.db.kysely.transaction().execute(async (trx) => {
      const before = settingsOf(await settingsStore.lock(trx, this.db.dialect, projectId));
      if (patch.linked_flag) await this.checkLinkedFlag(trx, projectId, patch.linked_flag);
      const after: ReplaySettings = { ...before, ...patch };
      const diff = changesBetween(before, after, SETTINGS_FIELDS);
      if (diff.length === 0) return { settings: before, changed: false };
      await settingsStore.save(trx, projectId, after);
      await recordActivity(trx, actor, { projectId, scope: SETTINGS_ACTIVITY, itemId: projectId, activity: 'updated', name: 'Session replay', changes: diff });
      return { settings: after, changed: true };
    });
    if (changed) this.changes.flagsChanged(projectId);
    return this.shown(settings, projectId);
  }

  /** A linked flag is a live flag of the project; a variant, one of its variants. */
  private async checkLinkedFlag(db: Executor, projectId: number, linked: { key: string; variant: string | null }) {
    const id = await flagStore.liveIdOfKey(db, projectId, linked.key);
    const flag = id === undefined ? undefined : await flagStore.get(db, projectId, id);
    if (!flag) throw new ValidationError(`There is no feature flag "${linked.key}" in this project.`, 'linked_flag__key', 'does_not_exist');
    if (linked.variant === null) return;
    const filters = JSON.parse(flag.filters) as { multivariate?: { variants?: Array<{ key?: unknown }> } | null };
    const variants = (filters.multivariate?.variants ?? []).map((variant) => variant.key);
    if (!variants.includes(linked.variant)) {
      throw new ValidationError(`The feature flag "${linked.key}" has no variant "${linked.variant}".`, 'linked_flag__variant', 'does_not_exist');
    }
  }

  private async shown(settings: ReplaySettings, projectId: number): Promise<SessionRecordingSettings> {
    const { bytes, sessions } = await this.storage.usage(projectId);
    return { ...settings, retention_days: this.retentionDays, storage: { bytes, sessions } };
  }
}
