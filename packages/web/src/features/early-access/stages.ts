import type { Stage } from '../../api/types';
import { confirm } from '../../components/confirm';

export const STAGE_INFO: Record<Stage, { label: string; color: string; help: string }> = {
  draft: { label: 'Draft', color: 'gray', help: 'Hidden from users while you prepare it.' },
  concept: { label: 'Concept', color: 'cyan', help: 'Users can join a waitlist; the flag stays off.' },
  alpha: { label: 'Alpha', color: 'orange', help: 'Opted-in users get the feature.' },
  beta: { label: 'Beta', color: 'indigo', help: 'Opted-in users get the feature.' },
  'general-availability': { label: 'General availability', color: 'green', help: 'Released: opted-in users keep it.' },
  archived: { label: 'Archived', color: 'dark', help: 'No longer offered.' },
};

/** Stages in which opted-in people get the feature (the service turns the flag's enrollment condition on). */
const RELEASE_STAGES: readonly Stage[] = ['alpha', 'beta', 'general-availability'];

/**
 * A move out of a release stage takes the feature away from everyone who opted in: asks first. Other moves go ahead.
 */
export function confirmStageChange(name: string, from: Stage, to: Stage): Promise<boolean> {
  if (!RELEASE_STAGES.includes(from) || RELEASE_STAGES.includes(to)) return Promise.resolve(true);
  return confirm({
    title: `Move ${name} to ${STAGE_INFO[to].label}?`,
    message: `The people who opted in lose the feature: its flag stops turning it on for them. Their choices are kept, and they get it again when the feature is back in Alpha, Beta or General availability.`,
    confirmLabel: `Move to ${STAGE_INFO[to].label}`,
    danger: true,
  });
}
