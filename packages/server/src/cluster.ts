import cluster, { type Worker } from 'node:cluster';

/**
 * `service start` with `WORKERS` above 1: a primary process that forks the workers (`node:cluster`: they share the
 * port), relays messages between them, replaces one that dies and stops them all on SIGTERM/SIGINT. Each worker is
 * a whole service (its own database connections, flag cache and group commit).
 */

/** What the primary relays from a worker to every other worker. */
interface Published {
  service: 'publish';
  channel: string;
  payload: string;
}

/**
 * The SQLite write lock, taken in turns: a worker asks (`write-turn`), the primary grants in the order asked (the same
 * message back), the worker says when it is done (`write-done`).
 */
interface WriteTurn {
  service: 'write-turn' | 'write-done';
  id: number;
}

type Message = Published | WriteTurn;

const isMessage = (message: unknown): message is Message => typeof message === 'object' && message !== null && typeof (message as Message).service === 'string';

/** Sends to the primary; a callback, so that a channel closing meanwhile (the service stopping) is not an uncaught 'error'. */
const toPrimary = (message: Message) => process.connected && process.send!(message, undefined, undefined, () => undefined);

/**
 * Messages between the workers of one `service start`, through the primary; undefined in a process that is not
 * such a worker. On SQLite it carries what PostgreSQL's LISTEN/NOTIFY carries (see `Db.publish`), and the turns
 * of its one writer.
 */
export const siblings = cluster.isWorker ? siblingBus() : undefined;

function siblingBus() {
  const handlers = new Map<string, (payload: string) => void>();
  const waiting = new Map<number, () => void>();
  let lastId = 0;
  process.on('message', (message) => {
    if (!isMessage(message)) return;
    if (message.service === 'publish') handlers.get(message.channel)?.(message.payload);
    else if (message.service === 'write-turn') {
      const granted = waiting.get(message.id);
      waiting.delete(message.id);
      // Given up on meanwhile: the next worker's turn.
      if (granted) granted();
      else toPrimary({ service: 'write-done', id: message.id });
    }
  });
  return {
    /** Sends `payload` to every other worker subscribed to `channel`. */
    async publish(channel: string, payload: string) {
      toPrimary({ service: 'publish', channel, payload });
    },
    subscribe(channel: string, onMessage: (payload: string) => void) {
      handlers.set(channel, onMessage);
    },
    /**
     * Waits, without holding the event loop, until no other worker writes; resolves with the function that ends the
     * turn. After `timeoutMs` rejects with SQLITE_BUSY, as a lock held too long does (503).
     */
    writeTurn(timeoutMs: number): Promise<() => void> {
      const id = ++lastId;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(Object.assign(new Error('another worker held the database write lock too long'), { code: 'SQLITE_BUSY' }));
        }, timeoutMs);
        waiting.set(id, () => {
          clearTimeout(timer);
          resolve(() => toPrimary({ service: 'write-done', id }));
        });
        toPrimary({ service: 'write-turn', id });
      });
    },
  };
}

export interface WorkersOptions {
  count: number;
  /** Only the first worker runs the jobs that must run once per database (SQLite: webhook deliveries, WAL checkpoints). */
  jobsInOneWorker: boolean;
  /** Where the primary says that a worker died and another is started. */
  log: (line: string) => void;
}

/** A worker that ran at least this long before it died is replaced at once; one that died sooner, after a back-off. */
const HEALTHY_AFTER_MS = 10_000;
const MAX_BACKOFF_MS = 30_000;

/**
 * Forks the workers and resolves once all listen; rejects when one exits before that (it said why on stderr; the
 * caller checks beforehand that the port is free, the mistake every worker would make). Afterwards a worker that
 * exits is replaced, after a back-off that doubles while replacements keep dying young. `stop` sends every worker
 * SIGTERM (each drains its requests and commits the events it accepted) and resolves once all have exited.
 */
export async function startWorkers(options: WorkersOptions): Promise<{ stop(): Promise<void> }> {
  const slots: { worker?: Worker; startedAt: number; failures: number; timer?: NodeJS.Timeout }[] = Array.from({ length: options.count }, () => ({
    startedAt: 0,
    failures: 0,
  }));
  let ready = false;
  let stopping = false;
  /** Who asked for the SQLite write turn, in order; the first has it. */
  const turns: { worker: Worker; id: number }[] = [];
  const grantTurn = () => turns[0]?.worker.send({ service: 'write-turn', id: turns[0].id } satisfies WriteTurn, undefined, () => undefined);
  let failStart: (error: Error) => void = () => undefined;
  const startFailed = new Promise<never>((_, reject) => (failStart = reject));
  startFailed.catch(() => undefined);

  const fork = (index: number): Promise<void> => {
    const slot = slots[index]!;
    const worker = cluster.fork(options.jobsInOneWorker && index > 0 ? { SERVICE_WORKER_JOBS: '0' } : {});
    slot.worker = worker;
    slot.startedAt = Date.now();
    worker.on('message', (message: unknown) => {
      if (!isMessage(message)) return;
      if (message.service === 'publish') {
        for (const other of slots)
          if (other.worker && other.worker !== worker && other.worker.isConnected()) other.worker.send(message, undefined, () => undefined);
      } else if (message.service === 'write-turn') {
        turns.push({ worker, id: message.id });
        if (turns.length === 1) grantTurn();
      } else if (turns[0]?.worker === worker && turns[0].id === message.id) {
        turns.shift();
        grantTurn();
      }
    });
    worker.on('exit', (code, signal) => {
      if (slot.worker === worker) slot.worker = undefined;
      // A worker that died with the turn held no lock any more (SQLite let go with its connection).
      const held = turns[0]?.worker === worker;
      for (let i = turns.length - 1; i >= 0; i--) if (turns[i]!.worker === worker) turns.splice(i, 1);
      if (held) grantTurn();
      if (stopping) return;
      if (!ready) return failStart(new Error(`a worker exited while starting (${signal ?? `code ${code}`})`));
      slot.failures = Date.now() - slot.startedAt < HEALTHY_AFTER_MS ? slot.failures + 1 : 0;
      const delay = slot.failures ? Math.min(250 * 2 ** (slot.failures - 1), MAX_BACKOFF_MS) : 0;
      options.log(`Worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another${delay ? ` in ${delay} ms` : ''}.`);
      slot.timer = setTimeout(() => void fork(index), delay);
    });
    return new Promise<void>((resolve) => worker.once('listening', () => resolve()));
  };

  const stop = async () => {
    stopping = true;
    const exits: Promise<unknown>[] = [];
    for (const slot of slots) {
      clearTimeout(slot.timer);
      const worker = slot.worker;
      if (!worker || worker.isDead()) continue;
      exits.push(new Promise((resolve) => worker.once('exit', resolve)));
      worker.process.kill('SIGTERM');
    }
    await Promise.all(exits);
  };

  try {
    await Promise.race([Promise.all(slots.map((_, i) => fork(i))), startFailed]);
  } catch (error) {
    await stop();
    throw error;
  }
  ready = true;
  return { stop };
}
