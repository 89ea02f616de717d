/**
 * service-node/ai: LLM observability. Wrappers for the official `openai` and `@anthropic-ai/sdk` clients that
 * capture each call as an `$ai_generation` event (the properties `@posthog/ai` sends), and `trace()` / `span()`
 * helpers that nest them.
 */
export { wrapOpenAI } from './openai';
export { wrapAnthropic } from './anthropic';
export { MAX_CONTENT_BYTES } from './capture';
export type { AiCallOptions, AiDefaults } from './capture';
export { captureFeedback, captureMetric, span, trace } from './trace';
export type { ScopeIds, ScopeOptions, ScoreTarget } from './trace';
export { aiSdkMiddleware } from './vercel';
export type { AiSdkMiddleware } from './vercel';
