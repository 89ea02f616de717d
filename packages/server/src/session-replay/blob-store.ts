import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../db/schema';

/**
 * Where session replay's compressed blocks keep their bytes, by key. Keys are made by the service (`blockKey`), never
 * from what a client sent, so a directory store can use them as file names.
 */
export interface BlobStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Uint8Array | undefined>;
  delete(keys: string[]): Promise<void>;
  /**
   * A store in the service's database writes and deletes in the caller's transaction instead, so that a block's bytes
   * and its rows commit together (one commit, one fsync on SQLite, and nothing left behind by a failure).
   */
  putIn?(tx: Executor, key: string, bytes: Uint8Array): Promise<void>;
  deleteIn?(tx: Executor, keys: string[]): Promise<void>;
}

/** A new block's key: its project, then a random id (files spread over 256 folders a project). */
export function blockKey(projectId: number): string {
  const id = randomUUID();
  return `${projectId}/${id.slice(0, 2)}/${id}`;
}

const KEY = /^\d+\/[0-9a-f]{2}\/[0-9a-f-]{36}$/;

/** Keys per DELETE statement: far below SQLite's parameter limit. */
const DELETE_CHUNK = 500;

/** The default store: the `replay_blobs` table of the service's database. */
export class DatabaseBlobStore implements BlobStore {
  constructor(private readonly db: Kysely<Database>) {}

  put(key: string, bytes: Uint8Array): Promise<void> {
    return this.putIn(this.db, key, bytes);
  }

  async putIn(tx: Executor, key: string, bytes: Uint8Array): Promise<void> {
    await tx
      .insertInto('replay_blobs')
      .values({ key, bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), created_at: new Date().toISOString() })
      .execute();
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const row = await this.db.selectFrom('replay_blobs').select('bytes').where('key', '=', key).executeTakeFirst();
    return row?.bytes;
  }

  delete(keys: string[]): Promise<void> {
    return this.deleteIn(this.db, keys);
  }

  async deleteIn(tx: Executor, keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_CHUNK) {
      await tx
        .deleteFrom('replay_blobs')
        .where('key', 'in', keys.slice(i, i + DELETE_CHUNK))
        .execute();
    }
  }
}

/**
 * Files under a folder (`REPLAY_STORAGE_DIR`), one a block. A file is written whole to a temporary name, synced and
 * renamed, so a block's file is either absent or complete, even after a crash; an acknowledged batch's file is on disk.
 */
export class DirectoryBlobStore implements BlobStore {
  constructor(private readonly dir: string) {}

  private fileOf(key: string): string {
    // Keys come from `blockKey`; anything else is a bug, never a path to follow.
    if (!KEY.test(key)) throw new Error(`Not a replay block key: ${key}`);
    return path.join(this.dir, key);
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const file = this.fileOf(key);
    const folder = path.dirname(file);
    await fs.mkdir(folder, { recursive: true });
    const temporary = `${file}.${randomUUID()}.tmp`;
    const handle = await fs.open(temporary, 'wx');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } catch (error) {
      await handle.close();
      await fs.rm(temporary, { force: true });
      throw error;
    }
    await handle.close();
    await fs.rename(temporary, file);
    // The rename is durable once the folder's entry is: sync the folder too.
    const directory = await fs.open(folder, 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return await fs.readFile(this.fileOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(keys: string[]): Promise<void> {
    for (const key of keys) await fs.rm(this.fileOf(key), { force: true });
  }
}

/** The configured store: files under `dir` (REPLAY_STORAGE_DIR) when set, else the database. */
export const blobStoreOf = (db: Kysely<Database>, dir: string | undefined): BlobStore => (dir ? new DirectoryBlobStore(dir) : new DatabaseBlobStore(db));
