import { randomUUID } from 'node:crypto';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, isObject } from '../src/json';
import { servedRoutes, startService, type TestService } from './helpers';

// Issue 10: every route the app serves gets hostile bodies, headers and query strings, with valid credentials and
// without. Never a 5xx (a 503 neither: nothing here overloads the service), and every error is exactly
// `{type, code, detail, attr}`. Runs are seeded: FUZZ_SEED=<n> (and FUZZ_RUNS=<n>) explore other inputs, and a
// failure prints the seed and path that reproduce it.

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

const FILTERS = {
  groups: [
    {
      properties: [
        { key: 'email', type: 'person', operator: 'icontains', value: 'x' },
        { key: 'created', type: 'person', operator: 'is_date_before', value: '-30d' },
      ],
      rollout_percentage: 50,
      variant: null,
    },
  ],
  multivariate: { variants: [{ key: 'a', rollout_percentage: 100 }] },
  payloads: { a: '{"x": 1}' },
  aggregation_group_type_index: null,
};

let s: TestService;
/** What valid requests name (a flag, a feature, keys with fewer rights), made once the service is up. */
let fixtures: { flagId: number; featureId: string; experimentId: number; surveyId: string; promptId: string; readKey: string; foreignKey: string };
beforeAll(async () => {
  // An accepted `/flags/stream` never ends, and inject waits for the end: every stream that passes its checks is refused
  // (429) instead, which flag-stream.test.ts tests over real connections.
  s = await startService({ streamMaxConnectionsPerToken: 0 });
  const flag = await s.app.inject({
    method: 'POST',
    url: `/api/projects/${s.projectId}/feature_flags/`,
    headers: s.headers,
    payload: { key: 'fuzz-flag', filters: FILTERS },
  });
  const feature = await s.app.inject({
    method: 'POST',
    url: `/api/projects/${s.projectId}/early_access_feature/`,
    headers: s.headers,
    payload: { name: 'Fuzz', stage: 'beta' },
  });
  const experiment = await s.app.inject({
    method: 'POST',
    url: `/api/projects/${s.projectId}/experiments/`,
    headers: s.headers,
    payload: { name: 'Fuzz', feature_flag_key: 'fuzz-experiment', metrics: [{ kind: 'conversion', event: 'x' }], status: 'running' },
  });
  // A survey stored as a row (the survey events fuzzed below name it), and one made through the API (for its routes).
  const now = new Date().toISOString();
  // With the two flags every survey has (the survey list reads them).
  const surveyFlag = async (key: string) =>
    (
      await s.services.db.kysely
        .insertInto('feature_flags')
        .values({
          project_id: s.projectId,
          key,
          name: key,
          filters: '{"groups":[]}',
          active: 1,
          deleted: 0,
          ensure_experience_continuity: 0,
          version: 1,
          survey_id: SURVEY_ID,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const [targetingFlag, internalFlag] = [await surveyFlag('survey-targeting-fuzz'), await surveyFlag('survey-targeting-fuzz-custom')];
  await s.services.db.kysely
    .insertInto('surveys')
    .values({
      id: SURVEY_ID,
      targeting_flag_id: targetingFlag,
      internal_targeting_flag_id: internalFlag,
      project_id: s.projectId,
      name: 'Fuzz',
      description: '',
      type: 'popover',
      questions: JSON.stringify([
        { id: randomUUID(), type: 'open', question: 'Why?', ...STORED },
        { id: SURVEY_QUESTION, type: 'multiple_choice', question: 'Which?', choices: ['a', 'b'], hasOpenChoice: true, ...STORED },
        { id: randomUUID(), type: 'rating', question: 'How much?', scale: 10, display: 'number', ...STORED },
      ]),
      schedule: 'once',
      conditions: JSON.stringify({
        events: { values: [{ name: 'fuzz server-side', server_side: true, propertyFilters: { plan: { values: ['pro'], operator: 'exact' } } }] },
      }),
      start_date: now,
      responses_limit: 1_000_000,
      enable_partial_responses: 1,
      archived: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const survey = await s.app.inject({
    method: 'POST',
    url: `/api/projects/${s.projectId}/surveys/`,
    headers: s.headers,
    payload: { ...SURVEY, name: 'Fuzz', start_date: '2026-01-01T00:00:00Z' },
  });
  expect([flag.statusCode, feature.statusCode, experiment.statusCode, survey.statusCode], flag.body + feature.body + experiment.body + survey.body).toEqual([
    201, 201, 201, 201,
  ]);
  fixtures = {
    flagId: flag.json().id,
    featureId: feature.json().id,
    experimentId: experiment.json().id,
    surveyId: survey.json().id,
    promptId: (
      await s.app.inject({
        method: 'POST',
        url: `/api/projects/${s.projectId}/llm_prompts/`,
        headers: s.headers,
        payload: { name: 'fuzz-prompt', prompt: 'Hi {{name}}' },
      })
    ).json().id,
    readKey: await s.keyWith(['feature_flag:read', 'project:read']),
    foreignKey: await s.keyWith(['*'], [s.projectId + 1000]),
  };
});
afterAll(() => s.close());

/**
 * A valid body for each route that takes one, which the fuzzer then damages. `TOKEN` stands for the project token,
 * `UNIQUE` for a name no request used before (a taken flag key would stop a request before most checks).
 */
const TOKEN = '<project token>';
const UNIQUE = '<unique>';
/** A survey written straight into its table (with a server-side event condition), whose results are fuzzed too. */
const SURVEY_ID = '01890000-0000-7000-8000-0000000000aa';
const SURVEY_QUESTION = '01890000-0000-7000-8000-0000000000ab';
/** What the service stores with every question. */
const STORED = { description: '', descriptionContentType: 'text', optional: false };
const events = [
  {
    event: '$identify',
    distinct_id: 'fuzz-1',
    uuid: '01890000-0000-7000-8000-000000000001',
    timestamp: '2026-01-01T00:00:00Z',
    properties: { $set: { plan: 'a' }, $set_once: { first: 1 }, $unset: ['x'], $groups: { company: 'acme' }, $anon_distinct_id: 'anon-1' },
  },
  { event: '$groupidentify', distinct_id: 'fuzz-1', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme' } } },
  { event: '$create_alias', distinct_id: 'fuzz-1', offset: 10, properties: { alias: 'fuzz-2' } },
  {
    event: 'survey sent',
    distinct_id: 'fuzz-1',
    properties: {
      $survey_id: SURVEY_ID,
      $survey_submission_id: 'fuzz-submission',
      $survey_completed: false,
      $survey_iteration: 1,
      $survey_response: 'open answer',
      [`$survey_response_${SURVEY_QUESTION}`]: ['a', 'b'],
      $survey_questions: [{ id: SURVEY_QUESTION, question: 'Which?', response: ['a'] }],
      '$feature/fuzz-flag': 'a',
      $set: { [`$survey_responded/${SURVEY_ID}/1`]: true },
    },
  },
  { event: 'fuzz server-side', distinct_id: 'fuzz-1', properties: { plan: 'pro' } },
  {
    event: '$ai_generation',
    distinct_id: 'fuzz-1',
    properties: {
      $ai_trace_id: 't1',
      $ai_model: 'gpt-4o',
      $ai_provider: 'openai',
      $ai_input_tokens: 10,
      $ai_output_tokens: 5,
      $ai_latency: 0.5,
      '$feature/fuzz-flag': 'a',
    },
  },
];
const CAPTURE_PATHS = new Set(['/e', '/i/v0/e', '/capture', '/batch', '/i/v0/ai/batch']);
/** OTLP trace ingest, which takes the project token as a Bearer token. */
const OTEL_PATHS = new Set(['/i/v0/ai/otel', '/i/v0/ai/otel/v1/traces']);
const otlpValue = (value: string | number) => (typeof value === 'string' ? { stringValue: value } : { intValue: value });
const otlpSpan = (spanId: string, parentSpanId: string, attributes: Record<string, string | number>) => ({
  traceId: '5b8efff798038103d269b633813fc60c',
  spanId,
  parentSpanId,
  name: 'chat',
  startTimeUnixNano: '1764000000000000000',
  endTimeUnixNano: '1764000001500000000',
  attributes: Object.entries(attributes).map(([key, value]) => ({ key, value: otlpValue(value) })),
  status: { code: 0 },
});
const otlp = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'user.id', value: { stringValue: 'fuzz-1' } }] },
      scopeSpans: [
        {
          spans: [
            otlpSpan('eee19b7ec3c1b174', '', { 'ai.operationId': 'ai.generateText', 'ai.prompt': '{"prompt":"hi"}' }),
            otlpSpan('eee19b7ec3c1b175', 'eee19b7ec3c1b174', {
              'gen_ai.operation.name': 'chat',
              'gen_ai.request.model': 'gpt-4o',
              'gen_ai.usage.input_tokens': 10,
              'gen_ai.input.messages': '[{"role":"user","parts":[{"type":"text","content":"hi"}]}]',
            }),
          ],
        },
      ],
    },
  ],
};
const capture = { api_key: TOKEN, sent_at: '2026-01-01T00:00:01Z', batch: events };
const flagsRequest = {
  token: TOKEN,
  distinct_id: 'fuzz-1',
  groups: { company: 'acme' },
  person_properties: { email: 'x@example.com' },
  group_properties: { company: { name: 'Acme' } },
  flag_keys_to_evaluate: ['fuzz-flag'],
  $anon_distinct_id: 'anon-1',
  disable_flags: false,
};
const ofrepRequest = { context: { targetingKey: 'fuzz-user', plan: 'pro', groups: { company: 'acme' }, groupProperties: { company: { size: 1 } } } };
const SURVEY = {
  name: UNIQUE,
  description: 'd',
  type: 'popover',
  questions: [
    {
      type: 'single_choice',
      question: 'Which?',
      choices: ['a', 'b'],
      hasOpenChoice: true,
      branching: { type: 'response_based', responseValues: { 0: 2, 1: 'end' } },
    },
    {
      type: 'rating',
      question: 'How?',
      display: 'number',
      scale: 10,
      lowerBoundLabel: 'no',
      upperBoundLabel: 'yes',
      branching: { type: 'specific_question', index: 2 },
    },
    { type: 'open', question: 'Why?', optional: true, buttonText: 'Send' },
    { type: 'link', question: 'Docs', link: 'https://x.test/' },
  ],
  appearance: { position: 'right' },
  conditions: {
    url: 'x',
    urlMatchType: 'regex',
    events: { repeatedActivation: true, values: [{ name: 'e', server_side: true, propertyFilters: { p: { values: ['v'], operator: 'exact' } } }] },
  },
  targeting_flag_filters: { groups: [{ properties: [{ key: 'email', type: 'person', operator: 'icontains', value: 'x' }], rollout_percentage: 50 }] },
  schedule: 'recurring',
  iteration_count: 3,
  iteration_frequency_days: 7,
  responses_limit: 10,
  enable_partial_responses: true,
};
const SEEDS: Record<string, unknown> = {
  'post /api/projects/{project_id}/feature_flags': { key: UNIQUE, name: 'Fuzzed', filters: FILTERS, active: true, ensure_experience_continuity: false },
  'patch /api/projects/{project_id}/feature_flags/{id}': { key: 'fuzz-flag', name: 'Fuzz', filters: FILTERS, active: true, deleted: false },
  'post /api/projects/{project_id}/feature_flags/{id}/scheduled_changes': {
    scheduled_at: '2099-01-01T00:00:00Z',
    payload: { active: false, rollout_percentage: 50 },
  },
  'patch /api/projects/{project_id}/feature_flags/{id}/scheduled_changes/{change_id}': {
    scheduled_at: '2099-01-02T00:00:00Z',
    payload: { rollout_percentage: 20 },
  },
  'post /api/projects/{project_id}/early_access_feature': {
    name: UNIQUE,
    stage: 'beta',
    description: 'd',
    documentation_url: 'https://x.test/',
    feature_flag_id: null,
  },
  'patch /api/projects/{project_id}/early_access_feature/{id}': { name: 'Fuzz', stage: 'alpha', description: 'd', documentation_url: 'https://x.test/' },
  'post /api/projects/{project_id}/experiments': {
    name: UNIQUE,
    feature_flag_key: UNIQUE,
    description: 'd',
    variants: [
      { key: 'control', rollout_percentage: 50 },
      { key: 'test', rollout_percentage: 50 },
    ],
    metrics: [
      { kind: 'conversion', event: 'e', properties: [{ key: 'p', value: 'v' }], window_days: 7, name: 'n' },
      { kind: 'mean', event: 'e', property: 'amount' },
    ],
    start_date: '2026-01-01T00:00:00Z',
    end_date: '2026-02-01T00:00:00Z',
    status: 'draft',
  },
  'patch /api/projects/{project_id}/experiments/{id}': { name: 'Fuzz', status: 'running', metrics: [{ kind: 'conversion', event: 'e' }], end_date: null },
  'post /api/projects/{project_id}/experiments/{id}/ship': { variant: 'test' },
  'post /api/projects/{project_id}/surveys': SURVEY,
  'patch /api/projects/{project_id}/surveys/{id}': { ...SURVEY, name: 'Fuzz', linked_flag_key: 'fuzz-flag', archived: false, start_date: null, end_date: null },
  'post /api/projects/{project_id}/llm_prompts': { name: 'fuzz-prompt-2', prompt: 'x', config: { model: 'm' }, labels: ['production'] },
  'post /api/projects/{project_id}/llm_prompts/{id}/versions': { prompt: 'y', config: null, labels: ['production'] },
  'put /api/projects/{project_id}/llm_prompts/{id}/labels/{label}': { version: 1 },
  'put /api/projects/{project_id}/llm_prices': {
    prices: [{ provider: 'openai', model: 'fuzz-model', input: 1, output: 2, cache_read: 0.5, cache_write: 1.25 }],
  },
  'post /flags': flagsRequest,
  'post /decide': flagsRequest,
  'post /ofrep/v1/evaluate/flags': ofrepRequest,
  'post /ofrep/v1/evaluate/flags/{key}': ofrepRequest,
  ...Object.fromEntries([...CAPTURE_PATHS].map((path) => [`post ${path}`, capture])),
  ...Object.fromEntries([...OTEL_PATHS].map((path) => [`post ${path}`, otlp])),
};

// Hostile pieces.
const HUGE = 'x'.repeat(100_000);
const OVER_LIMIT = 'y'.repeat(2 * 1024 * 1024 + 1);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const deepTexts = fc.constantFrom(deepObject(MAX_JSON_DEPTH), deepObject(MAX_JSON_DEPTH + 1), deepObject(10_000), deepArray(10_000));
const hostileString = fc.oneof(
  fc.constantFrom(
    ...['', ' ', '\u0000', 'a\u0000b', '\ud800', 'x\udc00', '\ud83d\ude00', '%00', '\r\n', '../..', "'; drop table projects; --", '%', '_', '\\'],
    ...['__proto__', 'constructor', 'prototype', 'null', 'true', '-1', '0', '1.5', '2147483648', '1e300', '9'.repeat(400), 'NaN', '[]', '{}'],
    ...['beta', 'archived', 'https://x.test/', 'javascript:alert(1)', '2026-01-01T00:00:00Z', '$feature_enrollment/fuzz-flag', 'fuzz-flag', 'company'],
    ...['regex', 'is_date_before', 'semver_gt', 'cohort', 'H4sI', HUGE, `${HUGE}\u0000`],
  ),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'binary-ascii', maxLength: 12 }),
);
const numberText = fc.constantFrom(
  '0',
  '-0',
  '-1',
  '1',
  '1.5',
  '2147483647',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '1e300',
  '-1e300',
  '1e400',
  '1e-400',
  `1${'0'.repeat(400)}`,
);
const FIELDS = [
  ...[
    'key',
    'name',
    'filters',
    'groups',
    'properties',
    'payloads',
    'multivariate',
    'variants',
    'rollout_percentage',
    'variant',
    'aggregation_group_type_index',
  ],
  ...['super_groups', 'operator', 'type', 'value', 'group_type_index', 'active', 'deleted', 'ensure_experience_continuity', 'stage', 'description'],
  ...['documentation_url', 'feature_flag_id', 'token', 'api_key', '$token', 'batch', 'event', 'distinct_id', '$distinct_id', 'uuid', 'timestamp', 'offset'],
  ...['sent_at', '$set', '$set_once', '$unset', '$groups', '$group_type', '$group_key', '$group_set', '$anon_distinct_id', 'alias', 'person_properties'],
  ...['group_properties', 'flag_keys_to_evaluate', 'disable_flags', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', ''],
  ...['resourceSpans', 'scopeSpans', 'spans', 'traceId', 'spanId', 'parentSpanId', 'startTimeUnixNano', 'endTimeUnixNano', 'attributes', 'status'],
  ...['stringValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue', 'values', 'key', 'value'],
];
const key = fc.oneof({ arbitrary: fc.constantFrom(...FIELDS), weight: 4 }, { arbitrary: hostileString, weight: 1 });
const leafText = fc.oneof(
  fc.constantFrom('null', 'true', 'false', JSON.stringify(TOKEN), JSON.stringify(UNIQUE)),
  numberText,
  hostileString.map((v) => JSON.stringify(v)),
  deepTexts,
);
/** JSON text of a random value: hostile leaves, any keys (repeated ones and `__proto__` too). */
const { value: jsonText } = fc.letrec<{ value: string; object: string; array: string }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leafText, tie('object'), tie('array')),
  object: fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
  array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
}));

/** One change to a valid body: replace a value, add a key (or an item), or remove one. */
const mutation = fc.record({ at: fc.nat(), op: fc.constantFrom('replace', 'add', 'remove'), key, text: jsonText });
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

/** Every place in a JSON value, as [parent, key], the root included. */
function slots(root: Record<string, unknown>): [Record<string, unknown> | unknown[], string | number][] {
  const found: [Record<string, unknown> | unknown[], string | number][] = [];
  const walk = (parent: Record<string, unknown> | unknown[], k: string | number) => {
    found.push([parent, k]);
    const v = (parent as Record<string, unknown>)[k];
    if (Array.isArray(v)) v.forEach((_, i) => walk(v, i));
    else if (isObject(v)) for (const child of Object.keys(v)) walk(v, child);
  };
  walk(root, 'v');
  return found;
}

/** The JSON text of `seed` with the mutations applied; inserted values are spliced in as text (any depth, any key). */
function mutated(seed: unknown, mutations: Mutation[]): string {
  const root: Record<string, unknown> = { v: structuredClone(seed) };
  const texts: string[] = [];
  for (const m of mutations) {
    const places = slots(root);
    const [parent, k] = places[m.at % places.length]!;
    const marker = `\u0001${texts.push(m.text) - 1}\u0001`;
    const target = (parent as Record<string, unknown>)[k];
    if (m.op === 'remove' && parent !== root) {
      if (Array.isArray(parent)) parent.splice(k as number, 1);
      else delete parent[k];
    } else if (m.op === 'add' && Array.isArray(target)) target.push(marker);
    else if (m.op === 'add' && isObject(target)) Object.defineProperty(target, m.key, { value: marker, enumerable: true, writable: true, configurable: true });
    else (parent as Record<string, unknown>)[k] = marker;
  }
  return (JSON.stringify(root.v) ?? 'null').replace(/"\\u0001(\d+)\\u0001"/g, (_, i: string) => texts[Number(i)]!);
}

/** What may be done to every string of a valid body (but the token), for a request whose every field is hostile. */
const POISONS: Record<string, (v: string) => string> = {
  none: (v) => v,
  nul: (v) => `${v}\u0000`,
  'lone surrogate': (v) => `\udc00${v}`,
  long: (v) => v.padEnd(20_000, 'z'),
};
const poison = fc.constantFrom(...Object.keys(POISONS));
function poisoned(value: unknown, how: string): unknown {
  if (typeof value === 'string') return value === TOKEN ? value : POISONS[how]!(value);
  if (Array.isArray(value)) return value.map((v) => poisoned(v, how));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poisoned(v, how)]));
  return value;
}

const RAW_BODIES = [
  '{',
  '{"a":',
  '[',
  'nul',
  '\u0000',
  ' ',
  '"\\ud800"',
  '{"a":1}{"b":2}',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  HUGE,
  OVER_LIMIT,
];
/** A body as text: a damaged valid one (where the route has one), random JSON, or not JSON at all. */
const bodyText = (seed: unknown) =>
  fc.oneof(
    {
      arbitrary: fc.tuple(poison, fc.array(mutation, { maxLength: 3 })).map(([how, ms]) => mutated(poisoned(seed, how), ms)),
      weight: seed === undefined ? 0 : 5,
    },
    { arbitrary: jsonText, weight: 2 },
    { arbitrary: fc.constantFrom(...RAW_BODIES), weight: 1 },
  );

const base64 = (b: Buffer | string) => Buffer.from(b).toString('base64');
/**
 * How a body's text is sent: as is (most often), in a content coding (gzip and br whole or cut short), base64, a
 * `data=` form, or random bytes.
 */
const encoding = fc.oneof(
  { arbitrary: fc.constant('plain' as const), weight: 6 },
  {
    arbitrary: fc.constantFrom('gzip', 'truncated-gzip', 'deflate', 'deflate-raw', 'br', 'truncated-br', 'base64', 'form', 'form-base64', 'bytes'),
    weight: 4,
  },
);
type Encoding = typeof encoding extends fc.Arbitrary<infer T> ? T : never;

function encoded(text: string, how: Encoding, bytes: Uint8Array): string | Buffer {
  switch (how) {
    case 'plain':
      return text;
    case 'gzip':
      return gzipSync(text);
    case 'truncated-gzip':
      return gzipSync(text).subarray(0, 12);
    case 'deflate':
      return deflateSync(text);
    case 'deflate-raw':
      return deflateRawSync(text);
    case 'br':
      return brotliCompressSync(text);
    case 'truncated-br':
      return brotliCompressSync(text).subarray(0, 6);
    case 'base64':
      return base64(text);
    case 'form':
      return `data=${pct(text)}`;
    case 'form-base64':
      return `data=${encodeURIComponent(base64(text))}&compression=base64`;
    case 'bytes':
      return Buffer.from(bytes);
  }
}

/** Percent-encodes a query value; a lone surrogate as U+FFFD, as UTF-8 would (encodeURIComponent refuses it). */
const pct = (v: string) => encodeURIComponent(v.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
/** A query value as the server decodes it, or as it is when it cannot be decoded. */
function decodeOr(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
const queryPair = fc.tuple(
  fc.constantFrom(
    ...['limit', 'offset', 'token', 'api_key', 'search', 'active', 'event', 'distinct_id', 'after', 'before', 'stage', 'v', 'config'],
    ...['compression', 'data', 'beacon', 'send_cohorts', 'ip', '_', 'sent_at', '__proto__', 'constructor'],
    ...['date_from', 'date_to', 'property_key', 'property_value', 'variant_flag', 'variant', 'answers_offset', 'answers_limit', 'answers_question'],
  ),
  fc.oneof(
    hostileString.map(pct),
    numberText,
    jsonText.map((t) => pct(base64(t))),
    jsonText.map((t) => pct(base64(gzipSync(t)))),
    fc.constantFrom(TOKEN, 'gzip', 'gzip-js', 'base64', 'true', 'false', '1', '2', '3', '4', '%E0%A4%A', '%', '%%', '+'),
  ),
);
const PATH_SEGMENTS = [
  '0',
  '-1',
  '1.5',
  '1e300',
  '2147483648',
  '99999999999999999999',
  'abc',
  '%00',
  'a%00b',
  '%E0%A4%A',
  '%ED%A0%80',
  '%2F',
  '..',
  '%20',
  'x'.repeat(5000),
  '__proto__',
];
const CONTENT_TYPES = [undefined, 'application/json; charset=utf-8', 'text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded'];
const ODD_CONTENT_TYPES = [
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  'APPLICATION/JSON',
  'application/json\u0000',
  '',
  'application/jsonx',
  ';;;',
];
/** Mostly right, sometimes not. */
const often = <T>(right: T, wrong: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(right), weight: 4 }, { arbitrary: wrong, weight: 1 });

/** A request for `route` (`method /path/{param}`), every part of it possibly hostile. */
function requestOf(route: string) {
  const [method, path] = route.split(' ') as [string, string];
  const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const id = path.includes('early_access_feature')
    ? fixtures.featureId
    : path.includes('experiments')
      ? String(fixtures.experimentId)
      : path.includes('surveys')
        ? fixtures.surveyId
        : path.includes('llm_prompts')
          ? fixtures.promptId
          : String(fixtures.flagId);
  const valid = (param: string) =>
    param === 'project_id'
      ? String(s.projectId)
      : param === 'token'
        ? TOKEN
        : param === 'key'
          ? 'fuzz-flag'
          : param === 'label'
            ? 'production'
            : param === 'name'
              ? 'fuzz-prompt'
              : id;
  const seed = SEEDS[route] ?? (method === 'get' && CAPTURE_PATHS.has(path) ? SEEDS[`post ${path}`] : undefined);
  return fc.record({
    method: fc.constant(method.toUpperCase()),
    path: fc.constant(path),
    params: fc.tuple(...params.map((p) => often(valid(p), fc.constantFrom(...PATH_SEGMENTS)))),
    slash: fc.boolean(),
    /** The project token first in the query (SDK routes read it there), then anything. */
    token: fc.boolean(),
    query: fc.array(queryPair, { maxLength: 4 }),
    queryPoison: poison,
    /** OFREP routes take the project token (`TOKEN`, filled in) where every other route takes a personal API key. */
    authorization: often(
      path.startsWith('/ofrep/') || OTEL_PATHS.has(path) ? `Bearer ${TOKEN}` : `Bearer ${s.key}`,
      fc.constantFrom(
        ...[
          undefined,
          `Bearer ${fixtures.readKey}`,
          `Bearer ${fixtures.foreignKey}`,
          'Bearer phx_nope',
          `Bearer ${'a'.repeat(100_000)}`,
          `Bearer ${s.key}\u0000`,
        ],
        ...['Bearer \u0000', 'Basic Zm9vOmJhcg==', 'Bearer', `bearer ${s.key}`, `Bearer ${TOKEN}`],
      ),
    ),
    origin: often(undefined, fc.constantFrom('https://app.example.com', 'null', 'x'.repeat(10_000), 'https://a\u0000b', 'https://é.test', 'a\r\nb: c', '*')),
    requestHeaders: often(undefined, fc.constantFrom('content-type', 'x\u0000', 'a'.repeat(10_000), 'x\r\ny: z', 'é')),
    contentType: often('application/json', fc.oneof(fc.constantFrom(...CONTENT_TYPES), fc.constantFrom(...ODD_CONTENT_TYPES))),
    /** `as-sent`: the coding the body is in, when it is in one. */
    contentEncoding: often(
      undefined,
      fc.constantFrom('as-sent', 'gzip', 'GZIP', 'x-gzip', 'deflate', 'deflate-raw', 'br', 'identity', 'gzip, deflate', 'br, br, br', 'zstd'),
    ),
    body: fc.option(fc.tuple(bodyText(seed), encoding, fc.uint8Array({ maxLength: 64 })), { freq: method === 'post' || method === 'patch' ? 8 : 2 }),
  });
}
type Request = typeof requestOf extends (route: string) => fc.Arbitrary<infer T> ? T : never;

let unique = 0;
/** The text with `TOKEN` and `UNIQUE` filled in. */
const filled = (text: string) => text.replaceAll(TOKEN, s.token).replaceAll(UNIQUE, () => `fuzzed-${++unique}`);

/** The request as app.inject takes it; a GET to a capture path carries its body in `?data=`. */
function injected(r: Request) {
  let i = 0;
  const query = [
    ...(r.token ? [['token', TOKEN]] : []),
    ...r.query.map(([k, v]) => [k, v === TOKEN || r.queryPoison === 'none' ? v : pct(POISONS[r.queryPoison]!(decodeOr(v)))]),
  ];
  let payload = r.body ? encoded(filled(r.body[0]), r.body[1], r.body[2]) : undefined;
  if (payload !== undefined && r.method === 'GET' && CAPTURE_PATHS.has(r.path)) {
    query.push(['data', pct(typeof payload === 'string' ? payload : payload.toString('base64'))]);
    payload = undefined;
  }
  const url =
    r.path.replace(/\{\w+\}/g, () => filled(r.params[i++]!)) +
    (r.slash ? '/' : '') +
    (query.length ? `?${query.map(([k, v]) => `${k}=${filled(v!)}`).join('&')}` : '');
  const headers: Record<string, string> = {};
  if (r.authorization !== undefined) headers.authorization = filled(r.authorization);
  if (r.origin !== undefined) headers.origin = r.origin;
  if (r.requestHeaders !== undefined) headers['access-control-request-headers'] = r.requestHeaders;
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  const coding = r.contentEncoding === 'as-sent' ? r.body?.[1].replace('truncated-', '') : r.contentEncoding;
  if (coding !== undefined && !['plain', 'base64', 'form', 'form-base64', 'bytes'].includes(coding)) headers['content-encoding'] = coding;
  return { method: r.method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) };
}

/** The path a URL resolves to (`..` undone), or the URL as it is where it does not parse. */
function resolvedPath(url: string): string {
  try {
    return new URL(`http://x${url}`).pathname;
  } catch {
    return url;
  }
}

/** Never a 5xx; an error is JSON with exactly `{type, code, detail, attr}` (OFREP's routes: OFREP's `{key?, errorCode, errorDetails}`). */
function checkResponse(method: string, path: string /* as the URL resolves */, res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode, res.body.slice(0, 500)).toBeLessThan(500);
  if (res.statusCode < 400 || method === 'HEAD') return;
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  // A URL that cannot be decoded is refused before any route is found, so in the common shape (`frameworkErrors`).
  if (/^\/ofrep\/v1\/evaluate\/flags(\/|$)/.test(path) && body.code !== 'bad_request') {
    expect(
      Object.keys(body)
        .filter((key) => key !== 'key')
        .sort(),
      res.body.slice(0, 500),
    ).toEqual(['errorCode', 'errorDetails']);
    expect([typeof body.errorCode, typeof body.errorDetails]).toEqual(['string', 'string']);
    return;
  }
  expect(Object.keys(body).sort(), res.body.slice(0, 500)).toEqual(['attr', 'code', 'detail', 'type']);
  expect([typeof body.type, typeof body.code, typeof body.detail]).toEqual(['string', 'string', 'string']);
  expect(body.attr === null || typeof body.attr === 'string').toBe(true);
}

describe('fuzzing every route', () => {
  it('covers every route the app serves', () => {
    const routes = servedRoutes(s.app);
    expect(routes.length).toBeGreaterThan(40);
    for (const route of Object.keys(SEEDS)) expect(routes).toContain(route);
  });

  it(`answers hostile requests on every route with a 2xx, 3xx or 4xx and the error shape (seed ${SEED}, ${RUNS} runs a route)`, async () => {
    const failures: string[] = [];
    for (const route of servedRoutes(s.app)) {
      try {
        await fc.assert(
          fc.asyncProperty(requestOf(route), async (r) => {
            const request = injected(r);
            checkResponse(request.method, resolvedPath(request.url), await s.app.inject(request));
          }),
          { numRuns: RUNS, seed: SEED },
        );
      } catch (error) {
        const { message, cause } = error as Error;
        failures.push(`${route}: ${message.slice(0, 3000)}\n${String((cause as Error | undefined)?.message ?? '').slice(0, 1000)}`);
      }
    }
    expect(failures, failures.join('\n\n')).toEqual([]);
  }, 240_000);
});
