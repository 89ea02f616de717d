/**
 * What a model's tokens cost, in USD per million tokens, and the cost of a generation from its tokens. The table holds
 * the providers' list prices; a project may override or add entries (`/api/projects/:id/llm_prices/`). A model is found
 * by its exact id, else, for a dated snapshot or an alias, by the id without its date (`gpt-4o-2024-08-06` and
 * `claude-3-5-sonnet-20241022` are priced as `gpt-4o` and `claude-3-5-sonnet`, `…-latest` as its model); any other
 * model has no cost, never a guessed one (`o1-pro` or `gpt-4o-audio-preview` are not priced as `o1` or `gpt-4o`).
 */
export interface LlmPrice {
  provider: string;
  model: string;
  input: number;
  output: number;
  /** Cached input tokens read; the input price when absent. */
  cache_read?: number | undefined;
  /** Input tokens written to the cache (Anthropic); the input price when absent. */
  cache_write?: number | undefined;
}

const p = (provider: string, model: string, input: number, output: number, cache_read?: number, cache_write?: number): LlmPrice => ({
  provider,
  model,
  input,
  output,
  cache_read,
  cache_write,
});

/** List prices (USD per million tokens) as the providers publish them. */
export const DEFAULT_PRICES: readonly LlmPrice[] = [
  p('openai', 'gpt-4o', 2.5, 10, 1.25),
  p('openai', 'gpt-4o-mini', 0.15, 0.6, 0.075),
  p('openai', 'gpt-4.1', 2, 8, 0.5),
  p('openai', 'gpt-4.1-mini', 0.4, 1.6, 0.1),
  p('openai', 'gpt-4.1-nano', 0.1, 0.4, 0.025),
  p('openai', 'gpt-4-turbo', 10, 30),
  p('openai', 'gpt-4', 30, 60),
  p('openai', 'gpt-3.5-turbo', 0.5, 1.5),
  p('openai', 'gpt-5', 1.25, 10, 0.125),
  p('openai', 'gpt-5-mini', 0.25, 2, 0.025),
  p('openai', 'gpt-5-nano', 0.05, 0.4, 0.005),
  p('openai', 'o1', 15, 60, 7.5),
  p('openai', 'o1-mini', 1.1, 4.4, 0.55),
  p('openai', 'o3', 2, 8, 0.5),
  p('openai', 'o3-mini', 1.1, 4.4, 0.55),
  p('openai', 'o4-mini', 1.1, 4.4, 0.275),
  p('openai', 'text-embedding-3-small', 0.02, 0),
  p('openai', 'text-embedding-3-large', 0.13, 0),
  p('openai', 'text-embedding-ada-002', 0.1, 0),
  p('anthropic', 'claude-opus-4', 15, 75, 1.5, 18.75),
  p('anthropic', 'claude-opus-4-1', 15, 75, 1.5, 18.75),
  p('anthropic', 'claude-sonnet-4', 3, 15, 0.3, 3.75),
  p('anthropic', 'claude-sonnet-4-5', 3, 15, 0.3, 3.75),
  p('anthropic', 'claude-3-7-sonnet', 3, 15, 0.3, 3.75),
  p('anthropic', 'claude-3-5-sonnet', 3, 15, 0.3, 3.75),
  p('anthropic', 'claude-3-5-haiku', 0.8, 4, 0.08, 1),
  p('anthropic', 'claude-haiku-4-5', 1, 5, 0.1, 1.25),
  p('anthropic', 'claude-3-haiku', 0.25, 1.25, 0.03, 0.3),
  p('anthropic', 'claude-3-opus', 15, 75, 1.5, 18.75),
];

/** A model id's date suffix (`-2024-08-06`, `-20241022`) or `-latest`: the same model's snapshot or alias. */
const SNAPSHOT = /^(.+?)-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/** Looks models up by provider and id: the exact id, else the id without a snapshot date or `-latest`. */
export class PriceTable {
  private readonly byKey = new Map<string, LlmPrice>();
  private readonly byModel = new Map<string, LlmPrice>();

  /** Later entries win over earlier ones: a project's overrides come after the defaults. */
  constructor(...lists: (readonly LlmPrice[])[]) {
    for (const list of lists) {
      for (const price of list) {
        this.byKey.set(`${price.provider.toLowerCase()}\n${price.model.toLowerCase()}`, price);
        this.byModel.set(price.model.toLowerCase(), price);
      }
    }
  }

  /** The price of a model, or undefined for an unknown one. Without a provider (or one the table lacks) the model id alone decides. */
  find(provider: string | undefined, model: string): LlmPrice | undefined {
    let id = model.toLowerCase();
    // `openai/gpt-4o` (routers such as OpenRouter name models so).
    const slash = id.lastIndexOf('/');
    if (slash >= 0) id = id.slice(slash + 1);
    const lookup = (key: string) => (provider && this.byKey.get(`${provider.toLowerCase()}\n${key}`)) || this.byModel.get(key);
    const base = SNAPSHOT.exec(id)?.[1];
    return lookup(id) ?? (base ? lookup(base) : undefined);
  }
}

/** The tokens of a generation, as its event carries them; undefined when not sent. */
export interface Tokens {
  input?: number | undefined;
  output?: number | undefined;
  cacheRead?: number | undefined;
  cacheCreation?: number | undefined;
}

export interface Cost {
  input: number;
  output: number;
  total: number;
}

/**
 * The cost of a generation. OpenAI counts cached tokens inside the input tokens (billed at the cache price); Anthropic
 * counts cache reads and writes apart from them. Undefined without input and output tokens: no invented numbers.
 */
export function costOf(price: LlmPrice, provider: string | undefined, tokens: Tokens): Cost | undefined {
  if (tokens.input === undefined && tokens.output === undefined) return undefined;
  const perToken = (usdPerMillion: number) => usdPerMillion / 1_000_000;
  const cacheRead = tokens.cacheRead ?? 0;
  const cacheCreation = tokens.cacheCreation ?? 0;
  const separateCache = (provider ?? price.provider).toLowerCase() === 'anthropic';
  const uncached = separateCache ? (tokens.input ?? 0) : Math.max(0, (tokens.input ?? 0) - cacheRead - cacheCreation);
  const input =
    uncached * perToken(price.input) + cacheRead * perToken(price.cache_read ?? price.input) + cacheCreation * perToken(price.cache_write ?? price.input);
  const output = (tokens.output ?? 0) * perToken(price.output);
  return { input, output, total: input + output };
}
