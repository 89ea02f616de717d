/** A flag as `service typegen` reads it from the REST API. */
export interface TypegenFlag {
  key: string;
  filters: { multivariate?: { variants?: { key: string }[] } | null; payloads?: Record<string, unknown> | null };
}

/** The modules whose declarations `service typegen` can fill, by the name the app imports them by. */
export const TYPED_MODULES = {
  '@flagstation/service-js': 'registry',
  'service-js': 'registry',
  '@flagstation/service-node': 'registry',
  'service-node': 'registry',
  '@openfeature/core': 'openfeature',
} as const;
export type TypedModule = keyof typeof TYPED_MODULES;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const property = (key: string) => (IDENTIFIER.test(key) ? key : JSON.stringify(key));
const union = (types: string[]) => [...new Set(types)].join(' | ') || 'never';

/** The TypeScript type of a JSON value: objects by their properties, arrays by the union of their elements. */
export function typeOfJson(value: unknown, indent = '  '): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    if (!value.length) return 'unknown[]';
    const elements = union(value.map((element) => typeOfJson(element, indent)));
    return elements.includes(' | ') ? `(${elements})[]` : `${elements}[]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.length) return 'Record<string, never>';
    const inner = `${indent}  `;
    return `{\n${entries.map(([key, v]) => `${inner}${property(key)}: ${typeOfJson(v, inner)};`).join('\n')}\n${indent}}`;
  }
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? typeof value : 'unknown';
}

/** A stored payload as the SDKs hand it out: JSON text parsed, anything else as it is. */
function parsed(payload: unknown): unknown {
  if (typeof payload !== 'string') return payload;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return payload;
  }
}

const variantsOf = (flag: TypegenFlag) => flag.filters.multivariate?.variants?.map((v) => v.key) ?? [];
const payloadsOf = (flag: TypegenFlag) => Object.values(flag.filters.payloads ?? {}).filter((p) => p !== null && p !== undefined && p !== '');

/** One flag's entry of the registry: its variants (multivariate flags only) and its payloads' type. */
function entry(flag: TypegenFlag): string {
  const variants = variantsOf(flag);
  const payload = union(payloadsOf(flag).map((p) => typeOfJson(parsed(p), '    ')));
  return `  ${property(flag.key)}: {\n${variants.length ? `    variants: ${union(variants.map((v) => JSON.stringify(v)))};\n` : ''}    payload: ${payload};\n  };`;
}

/** OpenFeature's key types: booleans for flags without variants, strings for variants, objects for payloads. */
function openFeatureKeys(flags: TypegenFlag[]): string {
  const keys = (some: (flag: TypegenFlag) => boolean) => union(flags.filter(some).map((flag) => JSON.stringify(flag.key)));
  return [
    `  export type BooleanFlagKey = ${keys((flag) => !variantsOf(flag).length)};`,
    `  export type StringFlagKey = ${keys((flag) => variantsOf(flag).length > 0)};`,
    '  export type NumberFlagKey = never;',
    `  export type ObjectFlagKey = ${keys((flag) => payloadsOf(flag).length > 0)};`,
  ].join('\n');
}

/**
 * The declarations `service typegen` writes: the project's flags as one interface, and module augmentations that put
 * it into each module of `modules` (the clients' `FlagRegistry`, OpenFeature's key types).
 */
export function flagDeclarations(flags: TypegenFlag[], modules: TypedModule[], source: string): string {
  const sorted = [...flags].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const augmentations = modules.map((name) =>
    TYPED_MODULES[name] === 'registry'
      ? `declare module '${name}' {\n  interface FlagRegistry extends ProjectFlags {}\n}`
      : `// OpenFeature's documented augmentation of type aliases; it needs "skipLibCheck": true, as most projects have.\ndeclare module '${name}' {\n${openFeatureKeys(sorted)}\n}`,
  );
  return [
    `// Written by \`service typegen\` from ${source}: the project's feature flags, for the compiler.`,
    '// Regenerate it after changing flags; edits here are lost.',
    '/* eslint-disable */',
    'export {};',
    '',
    "/** The project's flags: each one's variants (multivariate flags) and the type of its payloads. */",
    `interface ProjectFlags {\n${sorted.map(entry).join('\n')}\n}`,
    '',
    ...augmentations.flatMap((text) => [text, '']),
  ].join('\n');
}
