import { VERSION } from '../version'

/** Event or person properties: any JSON-serialisable values. */
export type Props = Record<string, unknown>

/** What every event says about the library, the page and the screen (`$lib`, `$current_url`, `$referrer`, viewport, ...). */
export function pageProperties(): Props {
  // A referrer is an absolute URL (or empty): its host is its third `/`-separated part.
  const ref = document.referrer
  return {
    $lib: 'web',
    $lib_version: VERSION,
    $current_url: location.href,
    $host: location.host,
    $pathname: location.pathname,
    $referrer: ref || '$direct',
    $referring_domain: ref ? ref.split('/')[2] : '$direct',
    $screen_height: screen.height,
    $screen_width: screen.width,
    $viewport_height: innerHeight,
    $viewport_width: innerWidth,
  }
}
