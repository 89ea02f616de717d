// The LLM observability module's tables (migration 0020), part of `Database` in schema.ts.

/** One `$ai_generation`, `$ai_embedding`, `$ai_span` or `$ai_trace` event, as the LLM API reads it. */
export interface LlmEventTable {
  project_id: number;
  uuid: string;
  /** `generation`, `embedding`, `span` or `trace`. */
  kind: string;
  trace_id: string;
  span_id: string | null;
  parent_id: string | null;
  name: string | null;
  model: string | null;
  provider: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cache_read_tokens: number | null;
  cache_creation_tokens: number | null;
  reasoning_tokens: number | null;
  input_cost_usd: number | null;
  output_cost_usd: number | null;
  total_cost_usd: number | null;
  /** Seconds. */
  latency: number | null;
  time_to_first_token: number | null;
  http_status: number | null;
  is_error: number;
  error: string | null;
  distinct_id: string;
  person_uuid: string | null;
  session_id: string | null;
  /** JSON object flag key → variant, from the event's `$feature/<flag>` properties. */
  flags: string | null;
  timestamp: string;
  created_at: string;
}

/** A project's price overrides: JSON list of `LlmPrice` (llm/prices.ts). */
export interface LlmPricesTable {
  project_id: number;
  prices: string;
  updated_at: string;
}

/** A large LLM input or output (or one message of it), once per project and distinct JSON (migration 0022). */
export interface LlmPayloadTable {
  project_id: number;
  /** SHA-256 of `payload`, 128 bits of it in base64url. */
  hash: string;
  /** The value's JSON. */
  payload: string;
  created_at: string;
}
