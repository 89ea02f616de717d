// What the flags feature keeps in persistence, by key: the last values, payloads and metadata `/flags` gave,
// the overrides, and the `$feature_flag_called` events already sent.
export const FLAGS = '$flags'
export const PAYLOADS = '$flag_payloads'
export const META = '$flag_meta'
export const OVERRIDES = '$flag_overrides'
export const CALLED = '$flag_called'
