/**
 * Schedules `request` (which must not throw): the calls of one tick are merged into one request, one
 * request runs at a time, and a call made during a request asks for one more after it. Returns the
 * function that asks for a reload.
 */
export function reloader(request: () => Promise<unknown> | undefined): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  let busy = false
  let again = false
  const run = (): void => {
    if (busy) return void (again = true)
    busy = true
    Promise.resolve(request()).finally(() => {
      busy = false
      if (again) {
        again = false
        run()
      }
    })
  }
  return () => {
    timer ??= setTimeout(() => {
      timer = undefined
      run()
    }, 5)
  }
}
