// The llm-prompts module's tables (migration 0021), part of `Database` in schema.ts.
import type { Generated } from 'kysely';

/** A prompt: a name in a project, with the number of its newest version. */
export interface LlmPromptTable {
  id: string;
  project_id: number;
  name: string;
  latest_version: number;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

/** One version of a prompt, never changed once stored. */
export interface LlmPromptVersionTable {
  id: Generated<number>;
  project_id: number;
  prompt_id: string;
  version: number;
  prompt: string;
  /** JSON object text, or null. */
  config: string | null;
  created_by: number | null;
  created_at: string;
}

/** A label (such as `production`) naming one version of a prompt. */
export interface LlmPromptLabelTable {
  prompt_id: string;
  label: string;
  version: number;
  updated_at: string;
}
