/** Listeners of one kind: `add(listener) → remove`; `call(value)` calls each, and a failing one stops neither the others nor the caller. */
export interface Listeners<T> {
  add(listener: (value: T) => void): () => void
  call(value: T): void
}

export function listeners<T = void>(): Listeners<T> {
  const set = new Set<(value: T) => void>()
  return {
    add(listener) {
      set.add(listener)
      return () => void set.delete(listener)
    },
    call(value) {
      set.forEach((listener) => {
        try {
          listener(value)
        } catch {
          // a failing listener must not stop the others, nor the client
        }
      })
    },
  }
}

/**
 * A framework-free store: what `useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot)` needs.
 * Its functions work unbound.
 */
export interface Store<T> {
  /** Calls `listener` after every snapshot change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void
  /** The current snapshot, synchronously (the same object until the state changes). */
  getSnapshot(): T
  /** The snapshot for server rendering and the hydration render: the same on the server and in the browser. */
  getServerSnapshot(): T
}

/** A store with its writer; only the `Store` part is public. */
export interface WritableStore<T> extends Store<T> {
  /** Replaces the snapshot (listeners are called when it is another object). */
  set(snapshot: T): void
  /** What `getServerSnapshot` returns. */
  _server: T
}

export function createStore<T>(snapshot: T): WritableStore<T> {
  const changed = listeners()
  const store: WritableStore<T> = {
    _server: snapshot,
    subscribe: changed.add,
    getSnapshot: () => snapshot,
    getServerSnapshot: () => store._server,
    set(next) {
      if (next === snapshot) return
      snapshot = next
      changed.call()
    },
  }
  return store
}
