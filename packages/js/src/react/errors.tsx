import { Component, type ErrorInfo, type ReactNode } from 'react'
import { service, type Props, type Service } from 'service-js'
import { StoreContext, warn, type Ctx } from './context'

/** What a `fallback` function of `ServiceErrorBoundary` receives. */
export interface ServiceErrorBoundaryFallbackProps {
  /** The value thrown. */
  error: unknown
  /** React's component stack of the error (`''` when React gave none). */
  componentStack: string
  /** Clears the error: the boundary renders its children again. */
  reset: () => void
}

/** Props of `ServiceErrorBoundary`. */
export interface ServiceErrorBoundaryProps {
  children?: ReactNode
  /** Rendered instead of the children after an error: an element, or a component given `{ error, componentStack, reset }`. */
  fallback?: ReactNode | ((props: ServiceErrorBoundaryFallbackProps) => ReactNode)
  /** Properties added to the `$exception` event, or a function of the error and React's `errorInfo` returning them. */
  additionalProperties?: Props | ((error: unknown, errorInfo: ErrorInfo) => Props)
}

type Caught = { error: unknown; componentStack: string }

const isErrorLike = (e: unknown): e is Error => !!e && typeof e === 'object' && 'message' in e

/**
 * The error with React's component stack at the end of its `cause` chain, as posthog-js sends it: an error
 * named `React ErrorBoundary <type>` whose stack is the component stack, so it is the last entry of
 * `$exception_list`. The thrown error is not changed: its chain (4 deep at most) is copied.
 * @example client.captureException(withComponentStack(error, errorInfo.componentStack))
 */
export function withComponentStack(error: unknown, componentStack?: string | null): unknown {
  if (!componentStack) return error
  const stackError = new Error(isErrorLike(error) ? error.message : String(error))
  stackError.name = `React ErrorBoundary ${(isErrorLike(error) && error.name) || 'Error'}`
  stackError.stack = componentStack
  const link = (e: unknown, depth: number): unknown =>
    isErrorLike(e) && depth < 4
      ? { name: e.name, message: e.message, stack: e.stack, cause: link(e.cause, depth + 1) }
      : Object.assign(stackError, { cause: e })
  return link(error, 0)
}

/**
 * Catches errors thrown while rendering its children, captures them as `$exception` (handled, with the
 * component stack as a second entry of `$exception_list` named `React ErrorBoundary <type>`, and
 * `additionalProperties`), and renders `fallback` until `reset` is called. Uses the `ServiceProvider`'s
 * client, or the default `service` instance without one.
 * @example
 * <ServiceErrorBoundary fallback={({ error, reset }) => <p>Something went wrong. <button onClick={reset}>Retry</button></p>}>
 *   <Checkout />
 * </ServiceErrorBoundary>
 */
export class ServiceErrorBoundary extends Component<ServiceErrorBoundaryProps, { caught?: Caught }> {
  static override contextType = StoreContext
  override state: { caught?: Caught } = {}

  static getDerivedStateFromError(error: unknown): { caught: Caught } {
    return { caught: { error, componentStack: '' } }
  }

  override componentDidCatch(error: unknown, errorInfo: ErrorInfo): void {
    const componentStack = errorInfo.componentStack ?? ''
    let properties: Props | undefined
    try {
      const extra = this.props.additionalProperties
      properties = typeof extra === 'function' ? extra(error, errorInfo) : extra
    } catch (e) {
      warn('additionalProperties threw: ' + e)
    }
    ;((this.context as Ctx | null)?.client ?? service).captureException(withComponentStack(error, componentStack), properties)
    this.setState({ caught: { error, componentStack } })
  }

  reset = (): void => this.setState({ caught: undefined })

  override render(): ReactNode {
    const { caught } = this.state
    if (!caught) return this.props.children
    const { fallback: Fallback } = this.props
    if (Fallback === undefined) warn('ServiceErrorBoundary caught an error and has no `fallback`: it renders nothing.')
    return typeof Fallback === 'function' ? <Fallback {...caught} reset={this.reset} /> : Fallback
  }
}

/**
 * The error callback for React 19's `createRoot` / `hydrateRoot` options `onUncaughtError`, `onCaughtError`
 * and `onRecoverableError`: captures the error (with its component stack, as `ServiceErrorBoundary`
 * does), then calls `callback`. Never throws. Don't use it for `onCaughtError` around a
 * `ServiceErrorBoundary`, which captures already.
 * @example createRoot(el, { onUncaughtError: setupReactErrorHandler(service, (error) => console.error(error)) })
 */
export function setupReactErrorHandler(
  client: Service,
  callback?: (error: unknown, errorInfo: ErrorInfo) => void,
): (error: unknown, errorInfo: ErrorInfo) => void {
  return (error, errorInfo) => {
    try {
      client.captureException(withComponentStack(error, errorInfo?.componentStack))
      callback?.(error, errorInfo)
    } catch (e) {
      warn('setupReactErrorHandler: ' + e)
    }
  }
}
