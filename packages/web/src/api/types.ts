// The service's API as the app uses it: names for the schemas of the service's OpenAPI document (schema.gen.ts,
// generated), and the few shapes the document leaves open (a flag's `filters` is any JSON object there).
import { roleValues, stageValues, surveyScheduleValues, surveyStatusValues, surveyTypeValues, webhookKindValues, type components } from './schema.gen';

type Schemas = components['schemas'];

/** A page of a list: `?limit=&offset=`, with the total and the links to the pages beside it. */
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export type Me = Schemas['SignedInUser'];
export type Role = Schemas['Role'];
export const ROLES = roleValues;
export type Project = Schemas['Project'];

/** A group type of the project: flags and filters name it by index. */
export type GroupType = Schemas['GroupType'];

export interface PropertyFilter {
  key: string;
  type?: string;
  operator?: string | null;
  value?: unknown;
  group_type_index?: number | null;
}

export interface Condition {
  properties?: PropertyFilter[] | null;
  rollout_percentage?: number | null;
  variant?: string | null;
}

export interface Variant {
  key: string;
  name?: string;
  rollout_percentage: number;
}

/** A flag's `filters`, as the flag engine reads them (the API takes and gives any JSON object). */
export interface FlagFilters {
  groups?: Condition[] | null;
  /** Conditions checked before `groups`: an early access feature's "opted in" condition (`$feature_enrollment/<key>`). */
  super_groups?: Condition[] | null;
  multivariate?: { variants: Variant[] } | null;
  payloads?: Record<string, unknown> | null;
  aggregation_group_type_index?: number | null;
  [other: string]: unknown;
}

type WithFilters<T> = Omit<T, 'filters'> & { filters: FlagFilters };

/** A flag as another object shows it (an early access feature's, an experiment's). */
export type FlagSummary = WithFilters<Schemas['FlagSummary']>;
export type FeatureFlag = WithFilters<Schemas['FeatureFlag']>;
/** One flag as its page reads it: with what uses it. */
export type FeatureFlagDetail = WithFilters<Schemas['FeatureFlagDetail']>;
/** An early access feature or an experiment that uses a flag; `status` is its stage or status. */
export type FlagUse = Schemas['FlagUse'];
export type ScheduledChange = Schemas['ScheduledChange'];
export type ScheduledChangePayload = Schemas['ScheduledChangePayload'];

export const STAGES = stageValues;
export type Stage = Schemas['Stage'];

export type EarlyAccessFeature = Omit<Schemas['EarlyAccessFeature'], 'feature_flag'> & { feature_flag: FlagSummary | null };
export type Enrollment = Schemas['Enrollment'];
export type Enrollments = Schemas['EnrollmentPage'];
/** `GET …/early_access_feature/:id/enrollments/per_day/`: the feature's own opt-ins and opt-outs per UTC day. */
export type EnrollmentsPerDay = Schemas['EnrollmentsPerDay'];

/** A survey (`/api/projects/:id/surveys/`): the shape posthog-js reads, with its status and the flags it keeps. */
export type SurveyApi = Schemas['Survey'];
export type SurveyQuestionApi = Schemas['SurveyQuestion'];
export type SurveyType = Schemas['SurveyType'];
export const SURVEY_TYPES = surveyTypeValues;
export type SurveyStatus = Schemas['SurveyStatus'];
export const SURVEY_STATUSES = surveyStatusValues;
export type SurveySchedule = Schemas['SurveySchedule'];
export const SURVEY_SCHEDULES = surveyScheduleValues;
/** A flag the service keeps for a survey (its targeting, and who has not answered yet): not in the flags list. */
export type SurveyFlagApi = Schemas['SurveyFlag'];
/** `GET …/surveys/:id/results/`: counts, response rate, late responses, per day, and each question's answers. */
export type SurveyResults = Schemas['SurveyResults'];
export type SurveyQuestionResults = Schemas['SurveyQuestionResults'];
export type SurveyAnswersPage = Schemas['SurveyAnswersPage'];

/** A cohort: static (listed distinct ids) or dynamic (`filters`: person properties, other cohorts, events done). */
export type Cohort = Schemas['Cohort'];
export type CohortMember = Schemas['CohortMember'];

export type CapturedEvent = Schemas['Event'];
export type Person = Schemas['Person'];
export type Member = Schemas['Member'];
export type Invite = Schemas['Invite'];
export type CreatedInvite = Schemas['CreatedInvite'];
/** A password reset link an admin made for a member (`url` is shown once). */
export type PasswordReset = Schemas['PasswordReset'];
export type PasswordResetInfo = Schemas['PasswordResetInfo'];
export type InviteInfo = Schemas['InviteInfo'];
export type PersonalApiKey = Schemas['PersonalApiKey'];
export type CreatedPersonalApiKey = Schemas['CreatedPersonalApiKey'];
export type Webhook = Schemas['Webhook'];
export type CreatedWebhook = Schemas['CreatedWebhook'];
export type WebhookKind = Schemas['WebhookKind'];
export const WEBHOOK_KINDS = webhookKindValues;
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type ActivityEntry = Schemas['ActivityEntry'];
export type EventCounts = Schemas['EventCounts'];

/** One flag as `/flags?v=2` answers it (the SDK's endpoint, which the document leaves undescribed). */
export interface FlagDetail {
  key: string;
  enabled: boolean;
  variant: string | null;
  reason: { code: string; condition_index: number | null; description: string };
  metadata?: { id?: number; version?: number; payload?: string | null; description?: string | null };
}
