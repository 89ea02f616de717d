import { createHash } from 'node:crypto';
import type { CapturedEvent, IngestStep } from '../capture/pipeline';
import type { StoredStacks } from '../capture/store';
import type { Dialect } from '../db/database';
import { STACK_KEY_BYTES } from '../events/store';
import type { Executor } from '../db/schema';
import { storable } from '../db/text';
import { uuidv7 } from '../uuid';
import { isObject } from '../json';
import { enqueueWebhooks } from '../webhooks/outbox';
import { EXCEPTION_EVENT, sanitizeExceptionList, type ExceptionEntry, type Frame } from './exception';
import { clientFingerprintOf, fingerprintOf } from './fingerprint';
import { issueStore, type KnownIssue, type NewIssue } from './store';

/** Maps minified frames to their original source (the source maps part, `sourcemaps/resolve.ts`); never throws. */
export type ResolveFrames = (projectId: number, release: string | undefined, frames: Frame[]) => Promise<Frame[]>;

/** Without source maps, frames stay as they came. */
export const unresolved: ResolveFrames = async (_projectId, _release, frames) => frames;

/** Longest issue name and description, in characters. */
const MAX_ISSUE_TEXT = 255;

const unique = <T>(items: Iterable<T>) => [...new Set(items)];

/** What a sanitized exception list yields: the list, its stack traces as stored, and the proposed fingerprint and summary properties of it. */
export interface Sanitized {
  list: ExceptionEntry[];
  /** The list as the event's row keeps it: without the stack traces `stacks` holds (the list itself when none has one). */
  bare: ExceptionEntry[];
  stacks: StoredStacks | undefined;
  proposed: string;
  types: string[];
  values: string[];
  sources: string[];
  functions: string[];
}

/**
 * Sanitized lists, found by a short signature of the list as sent, then by comparing the list with the one kept (a
 * walk, not a serialization). A batch (and a project's traffic) mostly repeats a few errors: each distinct one is
 * sanitized, fingerprinted and serialized once, and its events share the result (which nothing changes:
 * prepareExceptions makes new lists). Lists of more than MEMO_MAX_FRAMES frames are not kept; past MEMO_SIZE lists the
 * memo starts over (cheaper than an LRU, good enough).
 */
const sanitizedLists = new Map<string, Array<{ raw: unknown[]; sanitized: Sanitized }>>();
const MEMO_SIZE = 1_000;
const MEMO_MAX_FRAMES = 200;
let memoized = 0;

/**
 * An `$exception` event's properties sanitized, as they arrive (capture's `normalizeEvents` calls it through the step's `serialize`, before it measures them,
 * so a 10,000-frame stack is measured as the 100 frames it keeps): the exception list (`exception.ts`), the
 * fingerprint (`fingerprint.ts`) and the summary properties; the JSON its event's row keeps (the exceptions without
 * their stack traces) and the stack traces as stored apart (made once per distinct list). Nothing here throws.
 */
export function sanitizeException(properties: Record<string, unknown>): {
  properties: Record<string, unknown>;
  json: string;
  stacks: StoredStacks | undefined;
} {
  const raw = properties.$exception_list;
  // The list alone decides the result, unless it is no list (or has no entry): then other properties do (`invalid`).
  const signature = Array.isArray(raw) && raw.length ? signatureOf(raw) : undefined;
  const candidates = signature === undefined ? undefined : sanitizedLists.get(signature);
  let sanitized = candidates?.find((c) => sameJson(c.raw, raw))?.sanitized;
  let invalid = false;
  if (!sanitized) {
    const result = sanitizeExceptionList(properties);
    sanitized = sanitizedOf(result.list);
    invalid = result.invalid;
    if (!invalid && signature !== undefined && frameCount(raw as unknown[]) <= MEMO_MAX_FRAMES) {
      if (memoized >= MEMO_SIZE) {
        sanitizedLists.clear();
        memoized = 0;
      }
      const entry = { raw: raw as unknown[], sanitized };
      if (candidates) candidates.push(entry);
      else sanitizedLists.set(signature, [entry]);
      memoized++;
    }
  }
  const client = clientFingerprintOf(properties.$exception_fingerprint);
  // A new object with the keys set here first: V8 adds keys to a copy made by spreading slowly (microseconds each).
  const out: Record<string, unknown> = {
    $exception_list: undefined,
    $exception_fingerprint: undefined,
    $exception_proposed_fingerprint: undefined,
    $exception_types: undefined,
    $exception_values: undefined,
    $exception_sources: undefined,
    $exception_functions: undefined,
    ...properties,
  };
  if (invalid) out.$exception_list_invalid = true;
  summarize(out, sanitized, client);
  return { properties: out, json: storedJson(out, sanitized), stacks: sanitized.stacks };
}

/** The JSON of sanitized properties as their event's row keeps them: the list without the stack traces stored apart. */
function storedJson(properties: Record<string, unknown>, sanitized: Sanitized): string {
  properties.$exception_list = sanitized.bare;
  const json = JSON.stringify(properties);
  properties.$exception_list = sanitized.list;
  return json;
}

/**
 * A list's stack traces as stored, with their hash (SHA-256, 128 bits of it in base64url: no two of a project alike
 * by chance); undefined when no exception has one (the list then stays whole in its event's row).
 */
function storedStacks(list: ExceptionEntry[]): StoredStacks | undefined {
  if (!list.some((x) => x.stacktrace)) return undefined;
  let bytes = 0;
  const parts = list.map((x) => {
    if (!x.stacktrace) return 'null';
    const json = JSON.stringify(x.stacktrace);
    bytes += Buffer.byteLength(json) + STACK_KEY_BYTES;
    return json;
  });
  const json = `[${parts.join(',')}]`;
  return { hash: createHash('sha256').update(json).digest('base64url').slice(0, 22), json, bytes };
}

/** What tells most lists apart at a glance: each exception's type, message length and frame count, and its throw site. */
function signatureOf(list: unknown[]): string {
  let signature = '';
  for (const entry of list) {
    if (!isObject(entry)) {
      signature += '|';
      continue;
    }
    const frames = framesOf(entry);
    const top = frames?.[frames.length - 1];
    const site = isObject(top) ? `${String(top.filename)}:${String(top.lineno)}:${String(top.colno)}` : '';
    signature += `${String(entry.type)}|${typeof entry.value === 'string' ? entry.value.length : -1}|${frames?.length ?? -1}|${site}\n`;
  }
  return signature;
}

const framesOf = (entry: Record<string, unknown>): unknown[] | undefined => {
  const stack = entry.stacktrace;
  return Array.isArray(stack) ? stack : isObject(stack) && Array.isArray(stack.frames) ? stack.frames : undefined;
};
const frameCount = (list: unknown[]) => list.reduce<number>((n, e) => n + (isObject(e) ? (framesOf(e)?.length ?? 0) : 0), 0);

/** Whether two JSON values would serialize alike (keys in the same order), by walking them. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i]!;
    if (key !== keysB[i] || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** The proposed fingerprint and the summary properties of a sanitized list. */
function sanitizedOf(list: ExceptionEntry[]): Sanitized {
  const frames = list.flatMap((x) => x.stacktrace?.frames ?? []).filter((f) => f.in_app);
  const stacks = storedStacks(list);
  return {
    list,
    bare: stacks ? list.map(({ stacktrace: _stacktrace, ...rest }) => rest) : list,
    stacks,
    proposed: fingerprintOf(undefined, list).proposed,
    types: list.map((x) => x.type),
    values: list.map((x) => x.value),
    sources: unique(frames.flatMap((f) => (f.filename === undefined ? [] : [f.filename]))),
    functions: unique(frames.map((f) => f.function)),
  };
}

/** Sets the list, the fingerprint (the client's, else the proposed one) and the summary properties (`$exception_types`, `…_values`, `…_sources`, `…_functions`). */
function summarize(properties: Record<string, unknown>, s: Sanitized, client: string | undefined) {
  properties.$exception_list = s.list;
  properties.$exception_fingerprint = client ?? s.proposed;
  properties.$exception_proposed_fingerprint = s.proposed;
  properties.$exception_types = s.types;
  properties.$exception_values = s.values;
  properties.$exception_sources = s.sources;
  properties.$exception_functions = s.functions;
}

/**
 * Maps the frames of a capture's `$exception` events (sanitized by `sanitizeException`) through the uploaded source
 * maps, before the ingest transaction: an event with a resolved frame gets a new list with the original frames, a
 * fingerprint over them and new summary properties, and is serialized again. Exceptions without maps cost one lookup
 * per distinct list (events that sent the same list share it, see `sanitizeException`), each file's cached by the resolver.
 */
export async function prepareExceptions(events: readonly CapturedEvent[], projectId: number, resolve: ResolveFrames = unresolved): Promise<void> {
  if (resolve === unresolved) return;
  // By list, then release: the resolved list, or undefined when no frame of it resolved.
  const lookups = new Map<ExceptionEntry[], Map<string, Promise<Sanitized | undefined>>>();
  for (const e of events) {
    const props = e.properties;
    const list = props.$exception_list as ExceptionEntry[] | undefined;
    // Always a list once normalizeEvents has sanitized the event; anything else is left as it is.
    if (!Array.isArray(list)) continue;
    const release = typeof props.$release === 'string' && props.$release !== '' ? props.$release : undefined;
    let byRelease = lookups.get(list);
    if (!byRelease) lookups.set(list, (byRelease = new Map()));
    let lookup = byRelease.get(release ?? '');
    if (!lookup) byRelease.set(release ?? '', (lookup = resolvedList(list, projectId, release, resolve)));
    const resolved = await lookup;
    if (!resolved) continue;
    const client = props.$exception_fingerprint === props.$exception_proposed_fingerprint ? undefined : (props.$exception_fingerprint as string);
    summarize(props, resolved, client);
    e.propertiesJson = storedJson(props, resolved);
    e.exceptionStacks = resolved.stacks;
  }
}

/** A new list with the frames of each exception source-mapped, or undefined when no frame was. */
export async function resolvedList(
  list: ExceptionEntry[],
  projectId: number,
  release: string | undefined,
  resolve: ResolveFrames,
): Promise<Sanitized | undefined> {
  let any = false;
  const entries: ExceptionEntry[] = [];
  for (const exception of list) {
    const stack = exception.stacktrace;
    const frames = stack?.frames.length ? await resolvedFrames(stack.frames, projectId, release, resolve) : undefined;
    if (!frames) entries.push(exception);
    else {
      any = true;
      entries.push({ ...exception, stacktrace: { ...stack!, type: 'resolved', frames } });
    }
  }
  return any ? sanitizedOf(entries) : undefined;
}

/** The frames source-mapped, or undefined when none was (or the lookup failed: the frames stay as they came). */
async function resolvedFrames(frames: Frame[], projectId: number, release: string | undefined, resolve: ResolveFrames): Promise<Frame[] | undefined> {
  try {
    const resolved = await resolve(projectId, release, frames);
    // Same length, as promised; anything else is ignored rather than trusted.
    return resolved.length === frames.length && resolved.some((f) => f.resolved) ? resolved : undefined;
  } catch {
    return undefined;
  }
}

/** An event as ingestion stored it, as far as recording exceptions goes. */
export interface StoredException {
  uuid: string;
  event: string;
  distinctId: string;
  properties: Record<string, unknown>;
  timestamp: string;
}

/** The fingerprint of a stored exception: prepareExceptions's, else (an event that did not pass there) computed now. */
function fingerprintOfStored(properties: Record<string, unknown>): string {
  const given = properties.$exception_fingerprint;
  if (typeof given === 'string' && given !== '' && given.length <= 64) return storable(given, 64);
  return storable(clientFingerprintOf(given) ?? fingerprintOf(undefined, sanitizeExceptionList(properties).list).fingerprint, 64);
}

const textOf = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const firstOf = (v: unknown) => (Array.isArray(v) ? v[0] : undefined) as unknown;

/** A new issue's name and description: `$issue_name` / `$issue_description`, else the first exception's type and message. */
function issueTextOf(properties: Record<string, unknown>) {
  const first = firstOf(properties.$exception_list) as Partial<ExceptionEntry> | undefined;
  const name = textOf(properties.$issue_name) ?? textOf(first?.type) ?? textOf(properties.$exception_type) ?? 'Error';
  const description = textOf(properties.$issue_description) ?? textOf(first?.value) ?? textOf(properties.$exception_message) ?? '';
  return { name: storable(name, MAX_ISSUE_TEXT), description: storable(description, MAX_ISSUE_TEXT) };
}

interface IssueTally {
  id: string;
  /** The issue as it was, or undefined for a new one. */
  known: KnownIssue | undefined;
  occurrences: number;
  firstSeen: string;
  lastSeen: string;
  first: StoredException;
  people: Map<string, { occurrences: number; lastSeen: string }>;
}

/**
 * Groups the newly stored `$exception` events of a slice into issues, in the ingest transaction: one lookup of their
 * fingerprints, then batched writes (issues created or counted, fingerprints, occurrences, people). A resolved issue
 * that occurs again is active again with `regressed_at` (webhook `error.regressed`); a new one sends
 * `error.new_issue`; a suppressed one records its occurrences and sends nothing.
 */
export async function recordExceptions(tx: Executor, dialect: Dialect, projectId: number, found: readonly StoredException[]): Promise<void> {
  const fingerprints = found.map((e) => fingerprintOfStored(e.properties));
  const known = await issueStore.byFingerprints(tx, projectId, unique(fingerprints));
  const now = new Date().toISOString();
  const tallies = new Map<string, IssueTally>();
  // Fingerprints new in this slice, with the issue made for each.
  const made = new Map<string, string>();
  const occurrences = found.map((e, i) => {
    const fingerprint = fingerprints[i]!;
    const issue = known.get(fingerprint);
    let id = issue?.id ?? made.get(fingerprint);
    if (id === undefined) {
      id = uuidv7();
      made.set(fingerprint, id);
    }
    let tally = tallies.get(id);
    if (!tally) {
      tally = { id, known: issue, occurrences: 0, firstSeen: e.timestamp, lastSeen: e.timestamp, first: e, people: new Map() };
      tallies.set(id, tally);
    }
    tally.occurrences++;
    if (e.timestamp < tally.firstSeen) tally.firstSeen = e.timestamp;
    if (e.timestamp > tally.lastSeen) tally.lastSeen = e.timestamp;
    const person = tally.people.get(e.distinctId);
    if (person) {
      person.occurrences++;
      if (e.timestamp > person.lastSeen) person.lastSeen = e.timestamp;
    } else tally.people.set(e.distinctId, { occurrences: 1, lastSeen: e.timestamp });
    return { project_id: projectId, issue_id: id, event_uuid: e.uuid, distinct_id: e.distinctId, timestamp: e.timestamp };
  });

  const all = [...tallies.values()];
  const issues: NewIssue[] = all.map((t) => ({
    id: t.id,
    project_id: projectId,
    ...(t.known ? { name: t.known.name, description: t.known.description } : issueTextOf(t.first.properties)),
    status: 'active',
    first_seen: t.firstSeen,
    last_seen: t.lastSeen,
    occurrences: t.occurrences,
    // Counted once the people are added (their rows need the issue's).
    people: 0,
    regressed_at: t.known?.status === 'resolved' ? now : null,
    created_at: now,
    updated_at: now,
  }));
  await issueStore.addToIssues(tx, issues);
  await issueStore.insertFingerprints(
    tx,
    [...made].map(([fingerprint, issueId]) => ({ project_id: projectId, fingerprint, issue_id: issueId, created_at: now })),
  );
  await issueStore.insertOccurrences(tx, dialect, occurrences);
  const newPeople = await issueStore.addPeople(
    tx,
    dialect,
    all.flatMap((t) =>
      [...t.people].map(([distinctId, p]) => ({ issue_id: t.id, distinct_id: distinctId, occurrences: p.occurrences, last_seen: p.lastSeen })),
    ),
  );
  await issueStore.addPeopleCounts(tx, newPeople);
  for (const [i, t] of all.entries()) {
    // Suppressed and active issues tell nobody: they are known and not news.
    if (t.known && t.known.status !== 'resolved') continue;
    const issue = issues[i]!;
    await enqueueWebhooks(tx, projectId, t.known ? 'error.regressed' : 'error.new_issue', {
      issue: { id: t.id, name: issue.name, description: issue.description, status: 'active', regressed_at: issue.regressed_at ?? null },
      event: { uuid: t.first.uuid, distinct_id: t.first.distinctId, timestamp: t.first.timestamp },
    });
  }
}

/**
 * The error tracking step of ingestion, over `$exception` events: at the door their properties are sanitized and stored
 * with the stack traces apart (`sanitizeException`, before they are measured), before the transaction their frames are
 * source-mapped (`prepareExceptions`), and in it they are grouped into issues (`recordExceptions`).
 */
export function exceptionsStep(resolve: ResolveFrames): IngestStep<true> {
  return {
    mark: (event) => (event.event === EXCEPTION_EVENT ? true : undefined),
    serialize: (properties) => sanitizeException(properties),
    prepare: (projectId, marked) =>
      prepareExceptions(
        marked.map((m) => m.event),
        projectId,
        resolve,
      ),
    record: (slice, marked) =>
      recordExceptions(
        slice.tx,
        slice.dialect,
        slice.projectId,
        marked.map((m) => m.event),
      ),
  };
}
