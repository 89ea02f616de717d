// The survey hooks, a chunk of their own in the build (tsup.config.ts): `service-js/react` imports them from it, and
// its size budget measures the rest; this chunk has one of its own (test/size.test.ts).
export { useSurvey, type SurveyHandle } from './use-survey'
export { useActiveSurveys, type ActiveSurveys } from './use-active-surveys'
export type { SurveysView } from './surveys-store'
