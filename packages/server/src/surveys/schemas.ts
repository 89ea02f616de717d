import { Type, type Static } from 'typebox';
import { JsonObject, Text } from '../http/schemas';
import { BRANCHING_TYPES, DISPLAYS, LIMITS, MATCH_TYPES, PROPERTY_OPERATORS, QUESTION_TYPES, SCHEDULES, STATUSES, SURVEY_TYPES } from './limits';

// The TypeBox schemas of a survey: what the API takes (unknown fields of a known object are dropped, as everywhere in
// the API) and what it answers (titled, for the OpenAPI document and the web app's generated types). The rules past a
// field's own shape (a rating's scale, branching that names a question, …) are the service's (`validate.ts`).

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const Branching = Type.Object(
  {
    // Choices checked by the service: a nullable object's enum is one the web app's type generator cannot name.
    type: Text({
      maxLength: 40,
      description: `${BRANCHING_TYPES.join(', ')}: next_question (default), end, specific_question (\`index\`), response_based (\`responseValues\`)`,
    }),
    index: Type.Optional(Type.Integer({ description: 'specific_question: the index of a later question' })),
    responseValues: Type.Optional(
      Type.Record(Text({ maxLength: 20 }), Type.Union([Type.Integer(), Text({ maxLength: 20 })]), {
        description:
          'response_based: answer → a later question’s index or "end". Keys: a single choice’s index ("0", "1", …); a rating’s bucket (negative, neutral, positive; detractors, passives, promoters for 0–10)',
      }),
    ),
  },
  { additionalProperties: false },
);

const PropertyFilters = Type.Record(
  Text({ maxLength: LIMITS.eventName }),
  Type.Object(
    {
      values: Type.Array(Type.Union([Text({ maxLength: LIMITS.choice }), Type.Number(), Type.Boolean()]), { maxItems: 100 }),
      operator: Text({ maxLength: 40, description: PROPERTY_OPERATORS.join(', ') }),
    },
    { additionalProperties: false },
  ),
  { description: 'event property → the values it must match, and how' },
);

const EventCondition = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: LIMITS.eventName }),
    propertyFilters: Type.Optional(PropertyFilters),
    server_side: Type.Optional(
      Type.Boolean({
        description: 'captured by a server (service-node, any SDK): the person becomes eligible at their next /flags; left out of the public list',
      }),
    ),
  },
  { additionalProperties: false },
);

const questionFields = {
  type: Type.Enum([...QUESTION_TYPES]),
  id: Type.Optional(
    Text({ minLength: 1, maxLength: LIMITS.questionId, description: 'made by the service; send it back to keep it (answers are stored by it)' }),
  ),
  question: Text({ minLength: 1, maxLength: LIMITS.question }),
  description: Type.Optional(Nullable(Text({ maxLength: LIMITS.questionDescription }))),
  descriptionContentType: Type.Optional(Type.Enum(['html', 'text'])),
  optional: Type.Optional(Type.Boolean()),
  buttonText: Type.Optional(Text({ maxLength: LIMITS.buttonText })),
  branching: Type.Optional(Nullable(Branching)),
  link: Type.Optional(Nullable(Text({ maxLength: LIMITS.link, description: 'link questions: an http(s) or mailto URL' }))),
  display: Type.Optional(Type.Enum([...DISPLAYS], { description: 'rating questions: number (scale 5, 7, 10) or emoji (scale 2, 3, 5)' })),
  scale: Type.Optional(Type.Integer({ description: 'rating questions: 2, 3, 5, 7 or 10 (10 is 0–10, NPS)' })),
  lowerBoundLabel: Type.Optional(Text({ maxLength: LIMITS.boundLabel })),
  upperBoundLabel: Type.Optional(Text({ maxLength: LIMITS.boundLabel })),
  skipSubmitButton: Type.Optional(Type.Boolean()),
  choices: Type.Optional(Type.Array(Text({ maxLength: LIMITS.choice }), { maxItems: LIMITS.choices })),
  hasOpenChoice: Type.Optional(Type.Boolean({ description: 'choice questions: the last choice takes free text' })),
  shuffleOptions: Type.Optional(Type.Boolean()),
  translations: Type.Optional(JsonObject),
  validation: Type.Optional(Type.Array(JsonObject, { maxItems: 20 })),
};
const QuestionInput = Type.Object(questionFields, { additionalProperties: false });
export type QuestionInput = Static<typeof QuestionInput>;

const conditionFields = {
  url: Type.Optional(Nullable(Text({ maxLength: LIMITS.url }))),
  urlMatchType: Type.Optional(Text({ maxLength: 40, description: MATCH_TYPES.join(', ') })),
  selector: Type.Optional(Nullable(Text({ maxLength: LIMITS.selector }))),
  seenSurveyWaitPeriodInDays: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: LIMITS.waitPeriodDays }))),
  deviceTypes: Type.Optional(Nullable(Type.Array(Text({ minLength: 1, maxLength: 50 }), { maxItems: 10 }))),
  deviceTypesMatchType: Type.Optional(Text({ maxLength: 40, description: MATCH_TYPES.join(', ') })),
  linkedFlagVariant: Type.Optional(Nullable(Text({ maxLength: 400 }))),
  events: Type.Optional(
    Nullable(
      Type.Object(
        {
          repeatedActivation: Type.Optional(Type.Boolean()),
          values: Type.Array(EventCondition, { maxItems: LIMITS.events }),
        },
        { additionalProperties: false },
      ),
    ),
  ),
  cancelEvents: Type.Optional(
    Nullable(Type.Object({ values: Type.Array(Type.Object({ name: Text({ minLength: 1, maxLength: LIMITS.eventName }) }), { maxItems: LIMITS.events }) })),
  ),
  actions: Type.Optional(Nullable(Type.Object({ values: Type.Array(JsonObject, { maxItems: LIMITS.events }) }))),
};
const ConditionsInput = Type.Object(conditionFields, { additionalProperties: false });
export type ConditionsInput = Static<typeof ConditionsInput>;

const TargetingFilters = Type.Object(
  {
    groups: Type.Array(
      Type.Object(
        {
          properties: Type.Optional(Type.Array(JsonObject, { maxItems: 50 })),
          rollout_percentage: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 100 }))),
        },
        { additionalProperties: false },
      ),
      { maxItems: 50 },
    ),
  },
  { additionalProperties: false, description: 'who may see it: person-property conditions as a flag has them, each with its rollout' },
);
export type TargetingFiltersInput = Static<typeof TargetingFilters>;

const DateField = Nullable(Text({ format: 'date-time', maxLength: 64 }));

const editable = {
  name: Text({ minLength: 1, maxLength: LIMITS.name }),
  description: Text({ maxLength: LIMITS.description }),
  type: Type.Enum([...SURVEY_TYPES]),
  questions: Type.Array(QuestionInput, { minItems: 1, maxItems: LIMITS.questions }),
  appearance: Nullable(JsonObject),
  conditions: Nullable(ConditionsInput),
  linked_flag_key: Nullable(Text({ maxLength: 400, description: 'a flag that must be on (with `conditions.linkedFlagVariant`, that variant)' })),
  targeting_flag_filters: Nullable(TargetingFilters),
  linked_early_access_feature_id: Nullable(Text({ maxLength: 64, description: 'the early access feature it asks about' })),
  start_date: DateField,
  end_date: DateField,
  responses_limit: Nullable(Type.Integer({ minimum: 1, maximum: LIMITS.responsesLimit, description: 'stops itself after this many completed responses' })),
  schedule: Type.Enum([...SCHEDULES], { description: 'once (default), recurring (every iteration_frequency_days, iteration_count times), always' }),
  iteration_count: Nullable(Type.Integer({ minimum: 1, maximum: LIMITS.iterationCount })),
  iteration_frequency_days: Nullable(Type.Integer({ minimum: 1, maximum: LIMITS.iterationFrequencyDays })),
  enable_partial_responses: Type.Boolean(),
  archived: Type.Boolean(),
};
export const SurveyCreate = Type.Object(
  {
    ...Type.Partial(Type.Object(editable)).properties,
    name: editable.name,
    questions: editable.questions,
  },
  { additionalProperties: false },
);
export const SurveyUpdate = Type.Partial(Type.Object(editable), { additionalProperties: false });
export type SurveyInput = Static<typeof SurveyCreate>;
export type SurveyPatch = Static<typeof SurveyUpdate>;

export const SurveyListQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'results per page (default 100, at most 1000)' })),
  offset: Type.Optional(Type.String({ description: 'index of the first result (default 0)' })),
  search: Type.Optional(Text({ maxLength: LIMITS.name, description: 'surveys whose name contains this, ignoring case' })),
  status: Type.Optional(Type.Enum([...STATUSES], { description: 'draft, running or stopped' })),
  archived: Type.Optional(Type.Boolean({ description: 'true: only archived surveys; default: only the others' })),
});

// What the API answers.

const SurveyQuestionSchema = Type.Object(
  {
    ...Type.Partial(Type.Object(questionFields)).properties,
    type: Type.Enum([...QUESTION_TYPES]),
    id: Type.String(),
    question: Type.String(),
    description: Type.String(),
    descriptionContentType: Type.Enum(['html', 'text']),
    optional: Type.Boolean(),
    branching: Type.Optional(
      Type.Object({ type: Type.Enum([...BRANCHING_TYPES]), index: Type.Optional(Type.Integer()), responseValues: Type.Optional(JsonObject) }),
    ),
  },
  { title: 'SurveyQuestion' },
);

/** The survey fields posthog-js reads (PostHog's SurveyAPISerializer), as the public list gives them. */
const publicFields = {
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  description: Type.String(),
  type: Type.Enum([...SURVEY_TYPES], { title: 'SurveyType' }),
  questions: Type.Array(SurveyQuestionSchema),
  appearance: Nullable(JsonObject),
  conditions: Nullable(JsonObject),
  linked_flag_key: Nullable(Type.String()),
  targeting_flag_key: Type.String(),
  internal_targeting_flag_key: Type.String(),
  start_date: Nullable(Type.String({ format: 'date-time' })),
  end_date: Nullable(Type.String({ format: 'date-time' })),
  schedule: Type.Enum([...SCHEDULES], { title: 'SurveySchedule' }),
  current_iteration: Nullable(Type.Integer()),
  current_iteration_start_date: Nullable(Type.String({ format: 'date-time' })),
  enable_partial_responses: Type.Boolean(),
};

export const PublicSurveyListSchema = Type.Object(
  {
    surveys: Type.Array(
      Type.Object(
        {
          ...publicFields,
          feature_flag_keys: Type.Array(Type.Object({ key: Type.String(), value: Nullable(Type.String()) })),
        },
        { title: 'PublicSurvey' },
      ),
    ),
  },
  { title: 'PublicSurveyList' },
);

const FlagOfSurvey = Type.Object(
  { id: Type.Integer(), key: Type.String(), active: Type.Boolean(), filters: JsonObject },
  { title: 'SurveyFlag', description: 'a flag the service keeps for the survey (not in the flags list, not editable there)' },
);

export const SurveySchema = Type.Object(
  {
    ...publicFields,
    targeting_flag_filters: Nullable(JsonObject),
    targeting_flag: FlagOfSurvey,
    internal_targeting_flag: FlagOfSurvey,
    linked_early_access_feature_id: Nullable(Type.String()),
    responses_limit: Nullable(Type.Integer()),
    iteration_count: Nullable(Type.Integer()),
    iteration_frequency_days: Nullable(Type.Integer()),
    archived: Type.Boolean(),
    status: Type.Enum([...STATUSES], { title: 'SurveyStatus' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    created_by: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), email: Type.String() }, { title: 'SurveyCreator' })),
  },
  { title: 'Survey' },
);
