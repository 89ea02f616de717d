import type { FeatureFlag, Variant } from '../../api/types';
import { rolloutSummary } from '../flags/flag-summary';

/** One change the service will make to a flag, as the confirmation before it shows it. */
export interface FlagChange {
  what: string;
  before: string;
  after: string;
}

type Flag = Pick<FeatureFlag, 'active' | 'filters'>;
type Split = Pick<Variant, 'key' | 'rollout_percentage'>[];

export const splitText = (variants: Split) => (variants.length ? variants.map((v) => `${v.key} ${v.rollout_percentage} %`).join(', ') : 'none');

const flagVariants = (flag: Flag): Split => flag.filters?.multivariate?.variants ?? [];
/** Same keys in the same order with the same shares (the order decides who gets which variant). */
const sameSplit = (a: Split, b: Split) => a.length === b.length && a.every((v, i) => v.key === b[i]!.key && v.rollout_percentage === b[i]!.rollout_percentage);

const turnedOn = (flag: Flag): FlagChange[] => (flag.active ? [] : [{ what: 'Status', before: 'Off: nobody gets a variant', after: 'On' }]);

/** What launching an experiment with this split does to its flag: turns it on, and gives it the split (as the server does). */
export function launchChanges(flag: Flag, variants: Split): FlagChange[] {
  const current = flagVariants(flag);
  return [...turnedOn(flag), ...(sameSplit(current, variants) ? [] : [{ what: 'Variants', before: splitText(current), after: splitText(variants) }])];
}

/** What shipping a variant does to the flag: on, the variant at 100 % and the others at 0 %, one condition for everyone. */
export function shipChanges(flag: Flag, variant: string): FlagChange[] {
  const current = flagVariants(flag);
  const shipped = current.map((v) => ({ key: v.key, rollout_percentage: v.key === variant ? 100 : 0 }));
  const groups = flag.filters?.groups ?? [];
  const everyone = groups.length === 1 && !groups[0]?.properties?.length && (groups[0]?.rollout_percentage ?? 100) === 100;
  return [
    ...turnedOn(flag),
    ...(sameSplit(current, shipped) ? [] : [{ what: 'Variants', before: splitText(current), after: splitText(shipped) }]),
    ...(everyone ? [] : [{ what: 'Who gets it', before: rolloutSummary(flag), after: '100% of all users' }]),
  ];
}
