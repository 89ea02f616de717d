import type { Props } from './config'
import type { FlagSnapshot } from '../flags/store'
import { VERSION } from '../version'

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

/** `$active_feature_flags` (enabled keys, when any) and `$feature/<key>` for every known flag. */
export function flagProperties({ flags }: FlagSnapshot): Props {
  const props: Props = {}
  const active = Object.keys(flags).filter((k) => flags[k])
  if (active.length) props.$active_feature_flags = active
  for (const k in flags) props['$feature/' + k] = flags[k]
  return props
}
