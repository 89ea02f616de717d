// What the core keeps in persistence, by key; features read some of them (the person's properties and groups
// go with each `/flags` request and hold early access enrollments). The first three also go into the cookie
// (persistence.ts).
export const DID = 'distinct_id'
export const DEVICE = '$device_id'
export const STATE = '$user_state'
export const OPT = '$opt'
export const SUPER = '$super'
export const GROUPS = '$groups'
export const PERSON = '$person_props'
export const GROUP_PROPS = '$group_props'
export const ANON = '$anon_distinct_id'
