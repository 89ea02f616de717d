import { Type } from 'typebox';

const str = (description: string) => Type.Optional(Type.String({ description }));
/** The filters the generations list and usage share, as query parameters. */
export const FilterQuery = {
  model: str('exact model id, as sent (`$ai_model`)'),
  provider: str('`openai`, `anthropic`, …'),
  trace_id: str('generations of one trace'),
  person_id: str("a person's uuid: generations of any of their distinct ids"),
  distinct_id: str('generations of one distinct id'),
  is_error: str('`true` or `false`'),
  flag: str('a flag key: generations made with it on (its `$feature/<key>` property)'),
  variant: str('with `flag`: that variant only'),
  cost_min: str('cost in USD at least this'),
  date_from: str('`YYYY-MM-DD`, an ISO date-time or `-7d` / `-24h`'),
  date_to: str('`YYYY-MM-DD` (that whole day), an ISO date-time or `-1h`'),
};
