import { Type } from 'typebox';
import { JsonObject, Text } from '../http/schemas';

const FiltersSchema = Type.Object(
  {
    properties: Type.Optional(
      Type.Unknown({
        description:
          'a property group `{type: "AND"|"OR", values: [...]}` whose values are all groups or all leaves: person properties, `{type: "cohort", value: id}`, ' +
          'or `{type: "behavioral", value: "performed_event", key: event, operator: "gte", operator_value: N, time_value: D, time_interval: "day"|"week"|"month", event_filters?: [...]}`',
      }),
    ),
  },
  { title: 'CohortFilters', additionalProperties: true },
);

export const CohortSchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    is_static: Type.Boolean({ description: 'a list of distinct ids (static) or filters evaluated for each person (dynamic)' }),
    filters: JsonObject,
    count: Type.Integer({ description: 'static: its distinct ids; dynamic: the stored persons in it now' }),
    deleted: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Cohort' },
);

const DistinctIds = Type.Array(Type.String(), { description: 'distinct ids (up to 1,000,000 a cohort; more is 413)' });

export const CohortCreate = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 400 }),
    description: Type.Optional(Text({ maxLength: 10_000 })),
    is_static: Type.Optional(Type.Boolean()),
    filters: Type.Optional(FiltersSchema),
    distinct_ids: Type.Optional(DistinctIds),
  },
  {
    title: 'CohortCreate',
    description: 'a static cohort: `{name, is_static: true, distinct_ids}` (or a text/csv body with `?name=`); a dynamic one: `{name, filters}`',
  },
);

export const CohortPatch = Type.Object(
  {
    name: Type.Optional(Text({ minLength: 1, maxLength: 400 })),
    description: Type.Optional(Text({ maxLength: 10_000 })),
    filters: Type.Optional(FiltersSchema),
    deleted: Type.Optional(Type.Boolean({ description: 'true deletes (409 while a flag or a cohort uses it), false restores' })),
  },
  { title: 'CohortPatch' },
);

export const CohortMembersChange = Type.Object({ distinct_ids: DistinctIds }, { title: 'CohortMembersChange', description: 'JSON, or a text/csv body' });

export const CohortMemberSchema = Type.Object(
  {
    distinct_id: Type.String(),
    person_id: Type.Union([Type.String(), Type.Null()], { description: "the stored person's uuid, null when none is stored" }),
    properties: JsonObject,
  },
  { title: 'CohortMember' },
);

export const CsvQuery = Type.Object({
  name: Type.Optional(Text({ maxLength: 400, description: 'the name of a static cohort created from a text/csv body' })),
});
