import { Type, type TSchema } from 'typebox';

export const ErrorSchema = Type.Object(
  { type: Type.String(), code: Type.String(), detail: Type.String(), attr: Type.Union([Type.String(), Type.Null()]) },
  { description: 'Every error: `{type, code, detail, attr}`' },
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

/** Integer id from a path segment, or undefined when it is not one. */
export const intId = (raw: string) => (/^\d{1,15}$/.test(raw) ? Number(raw) : undefined);
