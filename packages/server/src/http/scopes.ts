/** Objects a scope can name; a scope is `<object>:read`, `<object>:write`, or `*`. */
export const SCOPE_OBJECTS = [
  'early_access_feature',
  'feature_flag',
  'project',
  'event',
  'person',
  'webhook',
  'organization_member',
  'personal_api_key',
  'activity_log',
  'experiment',
  'error_tracking',
  'survey',
  'session_recording',
  'llm',
  'cohort',
] as const;

/** Throws with a readable message when a scope is not `*` or `<object>:<read|write>`. */
export function parseScopes(input: string): string[] {
  const scopes = input
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!scopes.length) throw new Error('at least one scope is required');
  for (const scope of scopes) {
    const [object, action] = scope.split(':');
    const valid = scope === '*' || (SCOPE_OBJECTS.includes(object as never) && (action === 'read' || action === 'write'));
    if (!valid) throw new Error(`unknown scope "${scope}"; use * or <${SCOPE_OBJECTS.join('|')}>:<read|write>`);
  }
  return scopes;
}

/** `write` implies `read`; `*` grants everything. */
export function hasScope(granted: string[], required: string): boolean {
  if (granted.includes('*') || granted.includes(required)) return true;
  const [object, action] = required.split(':');
  return action === 'read' && granted.includes(`${object}:write`);
}
