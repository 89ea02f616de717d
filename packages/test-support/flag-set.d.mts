// Types of flag-set.mjs, for the TypeScript tests that share its flags and people.
export interface BenchFlag {
  key: string;
  name: string;
  filters: {
    groups: { properties: Record<string, unknown>[]; rollout_percentage: number }[];
    multivariate?: { variants: { key: string; rollout_percentage: number }[] };
    payloads?: Record<string, string>;
  };
}
export function flagSet(): BenchFlag[];
export function personOf(i: number): Record<string, string | number>;
export const DISTINCT_IDS: number;
