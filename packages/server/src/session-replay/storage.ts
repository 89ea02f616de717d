import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { GroupCommit, QueueFullError } from '../capture/group-commit';
import type { Db } from '../db/database';
import type { Executor } from '../db/schema';
import { OverloadedError } from '../errors';
import { Slices } from '../turns';
import { blockKey, type BlobStore } from './blob-store';
import type { RrwebEvent } from './decode';
import { batchMetadata } from './metadata';
import { addBlockToSession, addSessionUrls, personOf, recordingIdOf, type BlockMetadata } from './session-rows';
import { mergeBlocks } from './snapshot-merge';

const compressAsync = promisify(zlib.brotliCompress);
const decompressAsync = promisify(zlib.brotliDecompress);

/**
 * Blocks up to this size (most: a batch of 2 s is some kilobytes) are compressed and read on the event loop, in well
 * under a millisecond; larger ones in libuv's thread pool, which costs a hop each way but holds nothing up.
 */
const SMALL_BLOCK_BYTES = 64 * 1024;

const compress = (text: Buffer, options: zlib.BrotliOptions) =>
  text.length <= SMALL_BLOCK_BYTES ? zlib.brotliCompressSync(text, options) : compressAsync(text, options);
const decompress = (bytes: Uint8Array) => (bytes.length <= SMALL_BLOCK_BYTES / 4 ? zlib.brotliDecompressSync(bytes) : decompressAsync(bytes));

/** One `$snapshot` event of a request, its rrweb events decoded. */
export interface SnapshotPart {
  /** The `$snapshot` event's uuid: a batch sent again under it is kept once. */
  batchId: string;
  events: RrwebEvent[];
  /** Events skipped at decoding (`decode.ts`). */
  skipped: number;
  /** The page it was recorded on (`$current_url`), when sent. */
  currentUrl?: string | undefined;
}

/** A request's `$snapshot` events of one session and window, by one distinct id: stored as one block. */
export interface SnapshotBatch {
  sessionId: string;
  windowId: string;
  distinctId: string;
  parts: SnapshotPart[];
}

/** Blocks are brotli (quality 5: close to the best ratio on rrweb's repetitive JSON, at some tens of MB/s). */
const BROTLI = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
};

/** A block prepared to store: its metadata, and its bytes (under `key`; already written to a blob store outside the database). */
interface Prepared {
  projectId: number;
  batch: SnapshotBatch;
  recordingId: string;
  /** The distinct id that owns the recording's row. */
  ownerId: string;
  personId: number | undefined;
  /** Where its bytes are; undefined when every event of its parts was skipped (only the counts are stored). */
  key: string | undefined;
  /** Its bytes, when the blob store writes them in the rows' transaction (`BlobStore.putIn`). */
  data: Uint8Array | undefined;
  parts: SnapshotPart[];
  /** Its share of its session's metadata (`bytes`: the block's compressed size). */
  meta: BlockMetadata;
  first: number;
  last: number;
}

/**
 * Blocks per transaction: concurrent requests' blocks share one (and its fsync). On SQLite, whose statements run on the
 * event loop, fewer, so that a commit holds it for a few milliseconds at most.
 */
const BLOCKS_PER_COMMIT = { sqlite: 50, postgres: 500 };
/** Blocks accepted but not yet committed above which `/s/` answers 503 (the client keeps its batches and retries). */
const MAX_PENDING_BLOCKS = 5000;

/** Sessions deleted per round of the retention sweep. */
const SWEEP_ROUND = 100;

/**
 * Session replay's storage. A request's batch of one session and window is one block: the decoded rrweb events as
 * lines of `<timestamp>\t<event JSON>`, brotli-compressed, in the blob store, with a row in `replay_blocks` (its first
 * and last event times) and the session's metadata merged into `replay_sessions`. A file is written first, then the
 * rows in one transaction (the database's store writes its blob in that transaction): a batch is acknowledged only
 * once both are stored. A `$snapshot` event's uuid is kept in
 * `replay_batches`, so a batch sent twice is stored once. Reading merges the blocks back into one stream in timestamp
 * order (`snapshot-merge.ts`), whatever order they arrived in.
 */
export class ReplayStorage {
  private readonly writer: GroupCommit<Prepared>;

  constructor(
    private readonly db: Db,
    readonly blobs: BlobStore,
    private readonly options: { retentionDays: number },
  ) {
    this.writer = new GroupCommit((blocks) => this.commit(blocks), { maxPending: MAX_PENDING_BLOCKS, maxPerCommit: BLOCKS_PER_COMMIT[db.dialect] });
  }

  /**
   * Stores each batch as a block (batches already stored left out); resolves once all are stored, in a transaction
   * shared with other requests' blocks (group commit). 503 `overloaded` when too many blocks are waiting.
   */
  async store(projectId: number, batches: readonly SnapshotBatch[]): Promise<void> {
    const prepared: Prepared[] = [];
    try {
      for (const batch of batches) {
        const block = await this.prepare(projectId, batch);
        if (block) prepared.push(block);
      }
      if (prepared.length) await this.writer.write(prepared);
    } catch (error) {
      // The rows were not stored: their files would be read by nothing.
      const keys = prepared.flatMap((block) => (block.key && !block.data ? [block.key] : []));
      await this.blobs.delete(keys).catch(() => undefined);
      if (error instanceof QueueFullError) throw new OverloadedError('The service is busy storing recordings. Retry in a moment.');
      throw error;
    }
  }

  /** Stops taking batches and waits until every accepted one is stored. */
  close(): Promise<void> {
    return this.writer.close();
  }

  /** Commits blocks in one transaction; then removes the files of those whose batches were all stored already. */
  private async commit(blocks: Prepared[]): Promise<void> {
    // In one order, so that transactions naming the same sessions on PostgreSQL (other instances') lock their rows without a deadlock.
    const sorted = [...blocks].sort((a, b) => a.projectId - b.projectId || (a.recordingId < b.recordingId ? -1 : a.recordingId > b.recordingId ? 1 : 0));
    const unused = await this.db.kysely.transaction().execute(async (tx) => {
      const now = new Date().toISOString();
      const left: string[] = [];
      for (const block of sorted) {
        if (!(await this.record(tx, block, now)) && block.key && !block.data) left.push(block.key);
      }
      return left;
    });
    await this.blobs.delete(unused).catch(() => undefined);
  }

  /** Which recording a batch goes to, its parts not stored yet, and its block written to the blob store. */
  private async prepare(projectId: number, batch: SnapshotBatch): Promise<Prepared | undefined> {
    const db = this.db.kysely;
    const personId = await personOf(db, projectId, batch.distinctId);
    const owner = await db
      .selectFrom('replay_sessions')
      .select(['distinct_id', 'person_id'])
      .where('project_id', '=', projectId)
      .where('session_id', '=', batch.sessionId)
      .executeTakeFirst();
    const samePerson =
      !owner ||
      owner.distinct_id === batch.distinctId ||
      (personId !== undefined && (owner.person_id ?? (await personOf(db, projectId, owner.distinct_id))) === personId);
    const recordingId = samePerson ? batch.sessionId : recordingIdOf(batch.sessionId, batch.distinctId);
    // A session stays its first distinct id's, whoever of the same person sends to it later.
    const ownerId = samePerson && owner ? owner.distinct_id : batch.distinctId;
    const stored = await db
      .selectFrom('replay_batches')
      .select('batch_id')
      .where('project_id', '=', projectId)
      .where('session_id', '=', recordingId)
      .where(
        'batch_id',
        'in',
        batch.parts.map((part) => part.batchId),
      )
      .execute();
    const known = new Set(stored.map((row) => row.batch_id));
    const parts = batch.parts.filter((part) => !known.has(part.batchId) && (part.events.length || part.skipped));
    if (!parts.length) return undefined;
    const events = parts.flatMap((part) => part.events);
    const meta = {
      ...batchMetadata(events, parts.find((part) => part.currentUrl)?.currentUrl),
      events: events.length,
      skipped: parts.reduce((sum, part) => sum + part.skipped, 0),
      bytes: 0,
    };
    const block = { projectId, batch, recordingId, ownerId, personId, parts, meta };
    if (!events.length) return { ...block, key: undefined, data: undefined, first: 0, last: 0 };
    const { bytes, first, last } = await this.encode(events);
    meta.bytes = bytes.length;
    const key = blockKey(projectId);
    if (this.blobs.putIn) return { ...block, key, data: bytes, first, last };
    await this.blobs.put(key, bytes);
    return { ...block, key, data: undefined, first, last };
  }

  /** The block's bytes: its events' lines in timestamp order (a batch's own order kept among equal times). */
  private async encode(unsorted: RrwebEvent[]): Promise<{ bytes: Uint8Array; first: number; last: number }> {
    const events = [...unsorted].sort((a, b) => a.timestamp - b.timestamp);
    const lines: string[] = [];
    const slices = new Slices();
    await slices.begin();
    for (const event of events) {
      if (slices.over) await slices.next();
      lines.push(`${event.timestamp}\t${JSON.stringify(event)}\n`);
    }
    const text = Buffer.from(lines.join(''));
    const bytes = await compress(text, { ...BROTLI, params: { ...BROTLI.params, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: text.length } });
    return { bytes, first: events[0]?.timestamp ?? 0, last: events.at(-1)?.timestamp ?? 0 };
  }

  /** The block's rows, in the transaction; false when all its batches were stored meanwhile (its blob is then unused). */
  private async record(tx: Executor, block: Prepared, now: string): Promise<boolean> {
    const { projectId } = block;
    let recordingId = block.recordingId;
    const insertBatches = async () =>
      tx
        .insertInto('replay_batches')
        .values(block.parts.map((part) => ({ project_id: projectId, session_id: recordingId, batch_id: part.batchId, created_at: now })))
        .onConflict((oc) => oc.doNothing())
        .returning('batch_id')
        .execute();
    // A concurrent request stored the same batch: the read path drops its events' duplicates, the block is left out.
    if (!(await insertBatches()).length) return false;
    const { meta } = block;
    const owner = { projectId, sessionId: recordingId, distinctId: block.ownerId, personId: block.personId };
    const blocks = block.key ? 1 : 0;
    let seq = await addBlockToSession(tx, owner, meta, blocks, now);
    if (seq === undefined) {
      // Another person's batches made the session's row since `prepare` looked.
      recordingId = recordingIdOf(block.batch.sessionId, block.batch.distinctId);
      await insertBatches();
      seq = await addBlockToSession(tx, { ...owner, sessionId: recordingId, distinctId: block.batch.distinctId }, meta, blocks, now);
      if (seq === undefined) throw new Error(`The recording ${recordingId} belongs to another distinct id`);
    }
    await addSessionUrls(tx, projectId, recordingId, meta.urls);
    if (!block.key) return false;
    if (block.data) await this.blobs.putIn!(tx, block.key, block.data);
    await tx
      .insertInto('replay_blocks')
      .values({
        project_id: projectId,
        session_id: recordingId,
        seq,
        window_id: block.batch.windowId,
        first_ts: block.first,
        last_ts: block.last,
        event_count: meta.events,
        size_bytes: meta.bytes,
        blob_key: block.key,
        created_at: now,
      })
      .execute();
    return true;
  }

  /**
   * A recording's rrweb events, each as its JSON, once, in timestamp order, across blocks that arrived in any order
   * (exact duplicates dropped). A recording still being written yields what is stored so far. The first block's events
   * come before the later blocks are read.
   */
  async *snapshots(projectId: number, sessionId: string): AsyncIterable<string> {
    const blocks = await this.db.kysely
      .selectFrom('replay_blocks')
      .select(['blob_key', 'first_ts', 'last_ts'])
      .where('project_id', '=', projectId)
      .where('session_id', '=', sessionId)
      .orderBy('first_ts')
      .orderBy('seq')
      .execute();
    yield* mergeBlocks(
      blocks.map((block) => ({ first: Number(block.first_ts), last: Number(block.last_ts), key: block.blob_key })),
      (key) => this.readBlock(key),
    );
  }

  /** A block's lines; none when its blob is gone (deleted while being read). */
  private async readBlock(key: string): Promise<string[]> {
    const bytes = await this.blobs.get(key);
    if (!bytes) return [];
    const text = (await decompress(bytes)).toString('utf8');
    const lines = text.split('\n');
    lines.pop();
    return lines;
  }

  /** Deletes a recording: its blocks, their blobs, its URLs and batch ids, its row. True when there was one. */
  async deleteSession(projectId: number, sessionId: string): Promise<boolean> {
    const { keys, found } = await this.db.kysely.transaction().execute(async (tx) => {
      const blocks = await tx.selectFrom('replay_blocks').select('blob_key').where('project_id', '=', projectId).where('session_id', '=', sessionId).execute();
      await tx.deleteFrom('replay_blocks').where('project_id', '=', projectId).where('session_id', '=', sessionId).execute();
      await tx.deleteFrom('replay_session_urls').where('project_id', '=', projectId).where('session_id', '=', sessionId).execute();
      await tx.deleteFrom('replay_batches').where('project_id', '=', projectId).where('session_id', '=', sessionId).execute();
      const deleted = await tx.deleteFrom('replay_sessions').where('project_id', '=', projectId).where('session_id', '=', sessionId).executeTakeFirst();
      const keys = blocks.map((block) => block.blob_key);
      if (this.blobs.deleteIn) await this.blobs.deleteIn(tx, keys);
      return { keys: this.blobs.deleteIn ? [] : keys, found: Number(deleted.numDeletedRows) > 0 };
    });
    // After the commit: a file whose rows are gone is read by nothing; one whose delete failed is only disk.
    await this.blobs.delete(keys);
    return found;
  }

  /** What a project's recordings take: their blocks' compressed bytes, and the sessions with snapshots. */
  async usage(projectId: number): Promise<{ bytes: number; sessions: number }> {
    const db = this.db.kysely;
    const blocks = await db
      .selectFrom('replay_blocks')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size_bytes'), eb.lit(0)).as('bytes'))
      .where('project_id', '=', projectId)
      .executeTakeFirstOrThrow();
    const sessions = await db
      .selectFrom('replay_sessions')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('project_id', '=', projectId)
      .where('start_time', 'is not', null)
      .executeTakeFirstOrThrow();
    return { bytes: Number(blocks.bytes), sessions: Number(sessions.count) };
  }

  /**
   * Deletes the recordings that ended more than the retention days before `now` (a session without snapshots by when it
   * was last named), every project's, a round of sessions at a time. Returns how many were deleted.
   */
  async sweep(now: Date = new Date()): Promise<number> {
    const cutoff = new Date(now.getTime() - this.options.retentionDays * 86_400_000).toISOString();
    let deleted = 0;
    for (;;) {
      const due = await this.db.kysely
        .selectFrom('replay_sessions')
        .select(['project_id', 'session_id'])
        .where((eb) => eb.or([eb('end_time', '<', cutoff), eb.and([eb('end_time', 'is', null), eb('updated_at', '<', cutoff)])]))
        .limit(SWEEP_ROUND)
        .execute();
      for (const session of due) {
        if (await this.deleteSession(session.project_id, session.session_id)) deleted++;
      }
      if (due.length < SWEEP_ROUND) return deleted;
    }
  }
}
