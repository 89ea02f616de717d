import type { Stage } from '../../api/types';

export const STAGE_INFO: Record<Stage, { label: string; color: string; help: string }> = {
  draft: { label: 'Draft', color: 'gray', help: 'Hidden from users while you prepare it.' },
  concept: { label: 'Concept', color: 'cyan', help: 'Users can join a waitlist; the flag stays off.' },
  alpha: { label: 'Alpha', color: 'orange', help: 'Opted-in users get the feature.' },
  beta: { label: 'Beta', color: 'indigo', help: 'Opted-in users get the feature.' },
  'general-availability': { label: 'General availability', color: 'green', help: 'Released: opted-in users keep it.' },
  archived: { label: 'Archived', color: 'dark', help: 'No longer offered.' },
};
