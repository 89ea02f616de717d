import { Type } from 'typebox';
import { JsonObject, Text } from '../http/schemas';

// The TypeBox schemas of LLM prompts: what the API takes and answers (titled, for the OpenAPI document and the web
// app's generated types), and the response `@posthog/ai`'s `Prompts` reads.

export const LIMITS = { name: 128, label: 64, prompt: 1_000_000, labelsPerCall: 20 } as const;

/** A prompt's name: what code asks `Prompts.get()` for, so kept to characters a URL path carries as they are. */
export const PromptName = Type.String({ minLength: 1, maxLength: LIMITS.name, pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$', description: 'letters, digits, _ . -' });
export const LabelName = Type.String({
  minLength: 1,
  maxLength: LIMITS.label,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
  description: 'such as production; letters, digits, _ . -',
});

const Config = Type.Union([JsonObject, Type.Null()], { description: 'model settings kept with the version (model, temperature, …), given back as they are' });
const Labels = Type.Array(LabelName, { maxItems: LIMITS.labelsPerCall, description: 'labels moved onto this version' });
const PromptText = Text({ maxLength: LIMITS.prompt, description: 'the template; `{{variable}}` is filled by Prompts.compile()' });

export const PromptCreate = Type.Object(
  { name: PromptName, prompt: PromptText, config: Type.Optional(Config), labels: Type.Optional(Labels) },
  { additionalProperties: false },
);
export const VersionCreate = Type.Object({ prompt: PromptText, config: Type.Optional(Config), labels: Type.Optional(Labels) }, { additionalProperties: false });
export const LabelSet = Type.Object(
  { version: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'the version the label names' }) },
  { additionalProperties: false },
);

export const PromptListQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'results per page (default 100, at most 1000)' })),
  offset: Type.Optional(Type.String({ description: 'index of the first result (default 0)' })),
  search: Type.Optional(Text({ maxLength: LIMITS.name, description: 'prompts whose name contains this, ignoring case' })),
});

const LabelOf = Type.Object({ name: Type.String(), version: Type.Integer() }, { title: 'LlmPromptLabel' });

export const PromptSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    version: Type.Integer({ description: 'the newest version' }),
    prompt: Type.String({ description: "the newest version's text" }),
    config: Type.Union([JsonObject, Type.Null()]),
    labels: Type.Array(LabelOf),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'LlmPrompt' },
);

export const PromptVersionSchema = Type.Object(
  {
    version: Type.Integer(),
    prompt: Type.String(),
    config: Type.Union([JsonObject, Type.Null()]),
    labels: Type.Array(Type.String(), { description: 'the labels on this version' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'LlmPromptVersion' },
);

export const PromptVersionList = Type.Object({ results: Type.Array(PromptVersionSchema) }, { title: 'LlmPromptVersionList' });

export const ResolvedPromptSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    prompt: Type.String(),
    version: Type.Integer(),
    label: Type.Optional(Type.String({ description: 'the label asked for, when it names this version' })),
    config: Type.Union([JsonObject, Type.Null()]),
    all_labels: Type.Array(LabelOf),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'LlmPromptResolved' },
);

export const ResolveQuery = Type.Object({
  token: Type.Optional(Type.String({ description: 'the project token' })),
  version: Type.Optional(Type.String({ pattern: '^[0-9]{1,10}$', description: 'a version number (wins over label)' })),
  label: Type.Optional(Text({ maxLength: LIMITS.label, description: 'a label, such as production' })),
});

export const ResolvedListQuery = Type.Object({
  token: Type.Optional(Type.String({ description: 'the project token' })),
  label: Type.Optional(Text({ maxLength: LIMITS.label, description: 'only prompts with this label, at its version' })),
  content: Type.Optional(Type.String({ description: 'full: every field (the only form served)' })),
  limit: Type.Optional(Type.String({ description: 'results per page (default 100, at most 1000)' })),
  offset: Type.Optional(Type.String({ description: 'index of the first result (default 0)' })),
});
