import type { FastifyRequest } from 'fastify';

/**
 * Who makes a change: a user with a session (`user_id`), a personal API key (`api_key_id`, and its user unless the command
 * line made it), or the command line (neither). `label` is the name the log keeps: the user's name, the key's label.
 */
export interface Actor {
  user_id: number | null;
  api_key_id: string | null;
  label: string;
}

/** Who the request acts for, as the activity log records it: the session's user, or the personal API key (and its user). */
export function actorOf(request: FastifyRequest): Actor {
  const principal = request.principal!;
  if (principal.via === 'key' && request.apiKey) return { user_id: principal.userId, api_key_id: request.apiKey.id, label: request.apiKey.label };
  const user = principal.user;
  return { user_id: principal.userId, api_key_id: null, label: user ? user.name || user.email : 'unknown' };
}
