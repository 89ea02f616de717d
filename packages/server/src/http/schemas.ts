import { Type, type TNumberOptions, type TSchema, type TStringOptions } from 'typebox';

export const ErrorSchema = Type.Object(
  { type: Type.String(), code: Type.String(), detail: Type.String(), attr: Type.Union([Type.String(), Type.Null()]) },
  { title: 'Error', description: 'Every error: `{type, code, detail, attr}`' },
);

/** The error responses every authenticated route can give. */
export const errorResponses = {
  400: ErrorSchema,
  401: ErrorSchema,
  403: ErrorSchema,
  404: ErrorSchema,
  429: ErrorSchema,
};

export const PageQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'results per page (default 100, at most 1000)' })),
  offset: Type.Optional(Type.String({ description: 'index of the first result (default 0)' })),
});

export const pageOfSchema = <T extends TSchema>(item: T) =>
  Type.Object({
    count: Type.Integer(),
    next: Type.Union([Type.String(), Type.Null()]),
    previous: Type.Union([Type.String(), Type.Null()]),
    results: Type.Array(item),
  });

export const ProjectParams = Type.Object({ project_id: Type.String() });
export const ProjectItemParams = Type.Object({ project_id: Type.String(), id: Type.String() });

export const JsonObject = Type.Record(Type.String(), Type.Unknown());

/** The pattern of `Text`: no NUL anywhere. */
export const NO_NUL = '^[^\\u0000]*$';

/**
 * A text field of the REST API. PostgreSQL text cannot hold NUL, so none may: 400 `null_characters_not_allowed`
 * naming the field (as DRF answers), on SQLite too.
 */
export const Text = (options: TStringOptions = {}) => Type.String({ ...options, pattern: NO_NUL });

/** The largest id an integer column holds (PostgreSQL `integer`): no row has a larger one. */
export const MAX_ID = 2_147_483_647;

/** An integer id in a body: 400 naming the field when it is not one or is out of range. */
export const Id = (options: TNumberOptions = {}) => Type.Integer({ minimum: 1, maximum: MAX_ID, ...options });

/** Integer id from a path segment, or undefined when it is not one (a 404, not a query). */
export const intId = (raw: string) => (/^\d{1,10}$/.test(raw) && Number(raw) <= MAX_ID ? Number(raw) : undefined);
