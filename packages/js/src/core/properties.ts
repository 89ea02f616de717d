import { VERSION } from '../version'

/** Event or person properties: any JSON-serialisable values. */
export type Props = Record<string, unknown>

/** What every event says about the library, the page and the screen (`$lib`, `$current_url`, `$referrer`, viewport, ...). */
export function pageProperties(): Props {
  const ref = document.referrer
  let refDomain = '$direct'
  try {
    if (ref) refDomain = new URL(ref).host
  } catch {
    // keep $direct
  }
  return {
    $lib: 'web',
    $lib_version: VERSION,
    $current_url: location.href,
    $host: location.host,
    $pathname: location.pathname,
    $referrer: ref || '$direct',
    $referring_domain: refDomain,
    $screen_height: screen.height,
    $screen_width: screen.width,
    $viewport_height: innerHeight,
    $viewport_width: innerWidth,
  }
}
