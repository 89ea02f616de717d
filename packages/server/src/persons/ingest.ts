import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Changes } from '../changes';
import type { CapturedEvent, IngestStep } from '../capture/pipeline';
import type { Database } from '../db/schema';
import { storable } from '../db/text';
import { isObject, type Properties } from '../json';
import { personWrites } from './store';

/** What person and group rules read from an event. */
export type PersonEvent = Pick<CapturedEvent, 'event' | 'distinctId' | 'properties' | 'timestamp' | 'set' | 'setOnce' | 'unset' | 'group'>;

/** Group types per project: PostHog's limit. A sixth type is ignored. */
export const MAX_GROUP_TYPES = 5;

/**
 * Distinct ids that never name one person (PostHog's list): SDKs and apps send them by mistake, and
 * merging on them would join strangers into one person.
 */
const ILLEGAL_MERGE_IDS = new Set([
  'anonymous',
  'guest',
  'distinctid',
  'distinct_id',
  'id',
  'not_authenticated',
  'email',
  'undefined',
  'true',
  'false',
  '[object object]',
  'nan',
  'none',
  'null',
  'nil',
  '0',
]);
const illegalForMerge = (id: string) => ILLEGAL_MERGE_IDS.has(id.trim().toLowerCase());

/** A distinct id, group type or group key from event properties, as text columns store it. */
const scalar = (v: unknown) => (typeof v === 'string' ? storable(v) : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);
const same = (a: unknown, b: unknown) => a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/** Group type → index mappings already committed, per project; they never change once made. */
export class GroupTypeCache {
  private readonly byProject = new Map<number, Map<string, number>>();

  get(projectId: number): ReadonlyMap<string, number> {
    return this.byProject.get(projectId) ?? new Map();
  }

  remember(projectId: number, mappings: ReadonlyMap<string, number>) {
    const known = this.byProject.get(projectId) ?? new Map<string, number>();
    for (const [type, index] of mappings) known.set(type, index);
    this.byProject.set(projectId, known);
  }
}

interface Person {
  /** Database id; undefined for a person created in this batch until it is inserted. */
  id?: number;
  uuid: string;
  raw?: string;
  parsed?: Properties;
  isIdentified: boolean;
  createdAt: string;
  isNew: boolean;
  dirty: boolean;
  mergedInto?: Person;
}

interface Group {
  index: number;
  key: string;
  properties: Properties;
  createdAt: string;
}

/**
 * Applies the person and group rules of a batch of events, in order, inside the caller's
 * transaction: persons are created on first sight of a distinct id; `$set`, `$set_once`, `$unset`
 * change them; `$identify` and `$create_alias` merge two distinct ids into one person;
 * `$groupidentify` stores group properties (and touches no person). Reads happen once up front, writes once in `flush()`.
 * The caller must be the only writer of this project's persons while it runs.
 */
export class PersonBatch {
  private readonly byDistinctId = new Map<string, Person | null>();
  /** Distinct ids this batch links to a person (rows to insert). */
  private readonly newLinks = new Map<string, Person>();
  /** Stored persons merged into another one, in order. */
  private readonly merges: { from: Person; to: Person }[] = [];
  private readonly created: Person[] = [];
  private readonly loadedPersons = new Map<number, Person>();
  private readonly groups = new Map<string, Group>();
  private readonly groupTypes: Map<string, number>;
  private groupTypesLoaded = false;
  /** Group types this batch mapped, to remember after commit. */
  readonly newGroupTypes = new Map<string, number>();

  constructor(
    private readonly db: Transaction<Database>,
    private readonly projectId: number,
    knownGroupTypes: ReadonlyMap<string, number>,
  ) {
    this.groupTypes = new Map(knownGroupTypes);
  }

  /** Reads the persons of every distinct id the events name. */
  async load(events: readonly PersonEvent[]) {
    const ids = new Set<string>();
    for (const e of events) {
      if (isGroupEvent(e)) continue;
      ids.add(e.distinctId);
      const other = this.otherId(e);
      if (other !== undefined) ids.add(other);
    }
    for (const id of ids) this.byDistinctId.set(id, null);
    for (const row of await personWrites.byDistinctIds(this.db, this.projectId, [...ids])) {
      let person = this.loadedPersons.get(row.id);
      if (!person) {
        person = {
          id: row.id,
          uuid: row.uuid,
          raw: row.properties,
          isIdentified: row.is_identified === 1,
          createdAt: row.created_at,
          isNew: false,
          dirty: false,
        };
        this.loadedPersons.set(row.id, person);
      }
      this.byDistinctId.set(row.distinct_id, person);
    }
  }

  /** Applies one event's rules. Call `load` with every event first, then `apply` for each in order. */
  async apply(e: PersonEvent) {
    if (isObject(e.properties.$groups)) for (const type of Object.keys(e.properties.$groups)) await this.groupTypeIndex(storable(type));
    // A group is not a person: posthog-node sends these with a made-up distinct id like "$company_acme".
    if (e.event === '$groupidentify') return this.groupIdentify(e);
    // Another group event (a group's enrollment in an early access feature, say) sets the group's properties, and touches no person.
    if (e.group) return this.setGroupProperties(e.group.type, e.group.key, e.group.properties, e.timestamp);
    const other = this.otherId(e);
    if (other !== undefined) this.merge(other, e.distinctId, e.event === '$identify', e.timestamp);
    const person = this.personOf(e.distinctId, e.timestamp);
    if (e.event === '$identify' || e.event === '$create_alias') this.markIdentified(person);
    this.setProperties(person, e);
  }

  /** The uuid of the person a distinct id names after the events applied so far, or undefined when it names none. */
  personUuid(distinctId: string): string | undefined {
    const person = this.byDistinctId.get(distinctId);
    return person ? resolve(person).uuid : undefined;
  }

  /** Writes everything the batch changed. */
  async flush() {
    const now = new Date().toISOString();
    const inserting = this.created.filter((p) => !p.mergedInto);
    const ids = await personWrites.insertPersons(
      this.db,
      inserting.map((p) => this.row(p, now)),
    );
    for (const p of inserting) p.id = ids.get(p.uuid);
    for (const { from, to } of this.merges) await personWrites.mergeInto(this.db, from.id!, resolve(to).id!);
    await personWrites.insertDistinctIds(
      this.db,
      [...this.newLinks].map(([distinctId, p]) => ({ project_id: this.projectId, distinct_id: distinctId, person_id: resolve(p).id! })),
    );
    const changed = [...this.loadedPersons.values()].filter((p) => p.dirty && !p.mergedInto);
    await personWrites.updatePersons(
      this.db,
      changed.map((p) => ({ id: p.id!, ...this.row(p, now) })),
    );
    for (const g of this.groups.values()) {
      await personWrites.upsertGroup(this.db, {
        project_id: this.projectId,
        group_type_index: g.index,
        group_key: g.key,
        properties: JSON.stringify(g.properties),
        created_at: g.createdAt,
        updated_at: now,
      });
    }
  }

  /** The distinct id an `$identify` (`$anon_distinct_id`) or `$create_alias` (`alias`) merges in. */
  private otherId(e: PersonEvent): string | undefined {
    if (e.event === '$identify') return scalar(e.properties.$anon_distinct_id) || undefined;
    if (e.event === '$create_alias') return scalar(e.properties.alias) || undefined;
    return undefined;
  }

  private personOf(distinctId: string, timestamp: string): Person {
    const found = this.byDistinctId.get(distinctId);
    if (found) return resolve(found);
    const person: Person = { uuid: randomUUID(), parsed: {}, isIdentified: false, createdAt: timestamp, isNew: true, dirty: true };
    this.created.push(person);
    this.link(distinctId, person);
    return person;
  }

  private link(distinctId: string, person: Person) {
    this.byDistinctId.set(distinctId, person);
    this.newLinks.set(distinctId, person);
  }

  /** Makes `other` and `into` one person; on a conflict of properties, the person of `into` wins. */
  private merge(other: string, into: string, isIdentify: boolean, timestamp: string) {
    if (other === into || illegalForMerge(other) || illegalForMerge(into)) return;
    const a = this.byDistinctId.get(other);
    const b = this.byDistinctId.get(into);
    if (!a && !b) this.link(other, this.personOf(into, timestamp));
    else if (a && !b) this.link(into, resolve(a));
    else if (!a && b) this.link(other, resolve(b));
    else {
      const from = resolve(a!);
      const to = resolve(b!);
      // `$identify` never joins two people who both identified (say, two users of one browser).
      if (from === to || (isIdentify && from.isIdentified)) return;
      to.parsed = { ...this.properties(from), ...this.properties(to) };
      if (from.createdAt < to.createdAt) to.createdAt = from.createdAt;
      to.dirty = true;
      from.mergedInto = to;
      if (!from.isNew) this.merges.push({ from, to });
      for (const [id, p] of this.byDistinctId) if (p === from) this.byDistinctId.set(id, to);
    }
  }

  private markIdentified(person: Person) {
    if (person.isIdentified) return;
    person.isIdentified = true;
    person.dirty = true;
  }

  private setProperties(person: Person, e: PersonEvent) {
    if (!e.set && !e.setOnce && !e.unset) return;
    const props = this.properties(person);
    let changed = false;
    for (const [key, value] of Object.entries(e.set ?? {})) {
      if (key === '__proto__' || same(props[key], value)) continue;
      props[key] = value;
      changed = true;
    }
    for (const [key, value] of Object.entries(e.setOnce ?? {})) {
      if (key === '__proto__' || Object.hasOwn(props, key)) continue;
      props[key] = value;
      changed = true;
    }
    for (const key of e.unset ?? []) {
      if (!Object.hasOwn(props, key)) continue;
      delete props[key];
      changed = true;
    }
    if (changed) person.dirty = true;
  }

  private properties(person: Person): Properties {
    person.parsed ??= JSON.parse(person.raw ?? '{}') as Properties;
    return person.parsed;
  }

  /** A person as stored. */
  private row(p: Person, now: string) {
    return {
      project_id: this.projectId,
      uuid: p.uuid,
      properties: this.serialized(p),
      is_identified: p.isIdentified ? 1 : 0,
      created_at: p.createdAt,
      updated_at: now,
    };
  }

  private serialized(person: Person): string {
    return person.parsed ? JSON.stringify(person.parsed) : (person.raw ?? '{}');
  }

  /** The index of a group type, mapping it (0–4, in order of first use) when new; undefined for a sixth type. */
  private async groupTypeIndex(type: string): Promise<number | undefined> {
    const known = this.groupTypes.get(type);
    if (known !== undefined || this.groupTypes.size >= MAX_GROUP_TYPES) return known;
    if (!this.groupTypesLoaded) {
      for (const row of await personWrites.groupTypes(this.db, this.projectId)) this.groupTypes.set(row.group_type, row.group_type_index);
      this.groupTypesLoaded = true;
      const stored = this.groupTypes.get(type);
      if (stored !== undefined) {
        this.newGroupTypes.set(type, stored);
        return stored;
      }
    }
    if (this.groupTypes.size >= MAX_GROUP_TYPES) return undefined;
    const used = new Set(this.groupTypes.values());
    let index = 0;
    while (used.has(index)) index++;
    await personWrites.insertGroupType(this.db, this.projectId, type, index);
    this.groupTypes.set(type, index);
    this.newGroupTypes.set(type, index);
    return index;
  }

  private async groupIdentify(e: PersonEvent) {
    const type = scalar(e.properties.$group_type);
    const key = scalar(e.properties.$group_key);
    if (!type || !key) return;
    await this.setGroupProperties(type, key, isObject(e.properties.$group_set) ? e.properties.$group_set : {}, e.timestamp);
  }

  /** Sets properties of a group (creating it when new; mapping its type when new). */
  private async setGroupProperties(type: string, key: string, set: Properties, timestamp: string) {
    const index = await this.groupTypeIndex(type);
    if (index === undefined) return;
    const id = `${index}:${key}`;
    let group = this.groups.get(id);
    if (!group) {
      const stored = await personWrites.groupProperties(this.db, this.projectId, index, key);
      group = { index, key, properties: stored ? (JSON.parse(stored) as Properties) : {}, createdAt: timestamp };
      this.groups.set(id, group);
    }
    group.properties = { ...group.properties, ...set };
  }
}

/** An event of a group, not of a person: no person is made for its distinct id (posthog-node's `$<type>_<key>`). */
const isGroupEvent = (e: PersonEvent) => e.event === '$groupidentify' || e.group !== undefined;

function resolve(person: Person): Person {
  let p = person;
  while (p.mergedInto) p = p.mergedInto;
  return p;
}

/**
 * The persons step of ingestion: the person and group rules of each slice's events, in order, then the uuid of the person
 * of each distinct id for the steps after it. Group types a transaction maps are remembered once it commits, and
 * change what flag evaluation sees.
 */
export function personsStep(changes: Changes): IngestStep {
  const groupTypes = new GroupTypeCache();
  /** Group types mapped by a transaction not yet committed, per project: the transaction's later slices know them. */
  const mappedBy = new WeakMap<Transaction<Database>, Map<number, Map<string, number>>>();
  return {
    async record(slice) {
      const { tx, projectId } = slice;
      let byProject = mappedBy.get(tx);
      if (!byProject) mappedBy.set(tx, (byProject = new Map()));
      let mapped = byProject.get(projectId);
      if (!mapped) {
        const inTransaction = (mapped = new Map<string, number>());
        byProject.set(projectId, inTransaction);
        slice.afterCommit(() => {
          if (!inTransaction.size) return;
          groupTypes.remember(projectId, inTransaction);
          // Flag evaluation maps group type indexes to names: a new mapping changes what group flags see.
          changes.flagsChanged(projectId);
        });
      }
      const persons = new PersonBatch(tx, projectId, new Map([...groupTypes.get(projectId), ...mapped]));
      await persons.load(slice.events);
      for (const e of slice.events) await persons.apply(e);
      await persons.flush();
      slice.personUuid = (distinctId) => persons.personUuid(distinctId);
      for (const [type, index] of persons.newGroupTypes) mapped.set(type, index);
    },
  };
}
