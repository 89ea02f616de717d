import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { actorOf as activityActorOf } from '../http/actor';
import { authorize, isOwner, type SessionUser, type AuthLookups } from '../http/auth';
import { clientNetwork } from '../http/client-network';
import { ApiError, permissionDenied, throttled } from '../http/errors';
import { Text, errorResponses, intId } from '../http/schemas';
import { checkCsrf, checkSameOrigin, clearSessionCookie, ownOrigin, sessionToken, setSessionCookie } from '../http/session';
import { NotFoundError } from '../errors';
import type { RouteContext } from '../module';
import { PASSWORD_RESET_HOURS, type PasswordService } from './password-service';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords';
import type { Actor, User, UserService } from './service';
import { ROLE_SCOPES } from '../http/roles';
import { csrfTokenOf, type SessionService } from './sessions';

const RoleSchema = Type.Union([Type.Literal('viewer'), Type.Literal('member'), Type.Literal('admin'), Type.Literal('owner')], {
  title: 'Role',
  description:
    'viewer: read; member: read and change flags, early access features and the rest; admin: also members, invites, API keys, project settings, webhooks; owner: everything',
});
const Email = Text({ minLength: 1, maxLength: 254, description: 'stored in lower case' });
const Password = Type.String({
  minLength: 1,
  maxLength: MAX_PASSWORD_LENGTH,
  description: `at least ${MIN_PASSWORD_LENGTH} characters, not blank, not one of the most common passwords`,
});
const Name = Text({ minLength: 1, maxLength: 150 });

const MeSchema = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    scopes: Type.Array(Type.String(), {
      description: "the scopes of the user's role: what a session may do, and the most a key of the user may have (`*`: everything)",
    }),
    organization: Type.Object({ id: Type.Integer(), name: Type.String() }),
    csrf_token: Type.Union([Type.String(), Type.Null()], {
      description: 'send it as X-CSRF-Token on POST, PATCH, PUT and DELETE requests made with the session; null for a personal API key',
    }),
  },
  { title: 'SignedInUser' },
);
const MemberSchema = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    name: Type.String(),
    role: RoleSchema,
    joined_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Member' },
);
const InviteSchema = Type.Object(
  {
    id: Type.String(),
    role: RoleSchema,
    email: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time' }),
    created_by: Type.Union([Type.Integer(), Type.Null()], { description: 'user id; null when made with a command-line key or by a removed user' }),
  },
  { title: 'Invite' },
);
const CreatedInviteSchema = Type.Object(
  {
    id: Type.String(),
    role: RoleSchema,
    email: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: Type.String({ format: 'date-time' }),
    url: Type.String({ description: 'the single-use invite link, shown once: `<origin>/invite/<token>`' }),
  },
  { title: 'CreatedInvite' },
);
const PasswordResetSchema = Type.Object(
  {
    user_id: Type.Integer(),
    email: Type.String(),
    expires_at: Type.String({ format: 'date-time' }),
    url: Type.String({ description: 'the single-use link to set a new password, shown once: `<origin>/reset-password/<token>`' }),
  },
  { title: 'PasswordReset' },
);
const PasswordResetInfoSchema = Type.Object({ valid: Type.Literal(true), email: Type.String(), name: Type.String() }, { title: 'PasswordResetInfo' });
const InviteInfoSchema = Type.Object(
  {
    valid: Type.Literal(true),
    role: RoleSchema,
    email: Type.Union([Type.String(), Type.Null()]),
    organization_name: Type.String(),
  },
  { title: 'InviteInfo' },
);

const SignupBody = Type.Object({ email: Email, name: Name, password: Password, organization_name: Type.Optional(Text({ maxLength: 150 })) });
const LoginBody = Type.Object({ email: Text({ maxLength: 254 }), password: Type.String({ maxLength: MAX_PASSWORD_LENGTH }) });
const AcceptBody = Type.Object({ email: Email, name: Name, password: Password });
const InviteBody = Type.Object({ role: RoleSchema, email: Type.Optional(Type.Union([Email, Type.Null()])) });
const RoleBody = Type.Object({ role: RoleSchema });
const ChangePasswordBody = Type.Object({ current_password: Type.String({ maxLength: MAX_PASSWORD_LENGTH }), password: Password });
const ResetBody = Type.Object({ password: Password });
const UserParams = Type.Object({ user_id: Type.String() });
const IdParams = Type.Object({ id: Type.String() });
const TokenParams = Type.Object({ token: Type.String() });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A link's token as made (base64url of 32 bytes: invites, password resets); anything else is no link, without a query. */
const TOKEN = /^[\w-]{43}$/;
const noInvite = () => new NotFoundError('This invite link is unknown, used or expired.');
const noPasswordReset = () => new NotFoundError('This password reset link is unknown, used or expired.');

const invalidCredentials = () => new ApiError(401, 'authentication_error', 'invalid_credentials', 'Invalid email or password.');

/** A wait in words: seconds under two minutes, else whole minutes (rounded up, so the client never comes back early). */
const inWords = (seconds: number) => (seconds < 120 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`);
const loginThrottled = (seconds: number) => throttled(seconds, `Too many wrong passwords for this email from your address. Try again in ${inWords(seconds)}.`);

const actorOf = (request: FastifyRequest): Actor => ({ ...activityActorOf(request), owner: isOwner(request.principal!) });

/** `{id, email, name, role, scopes, organization, csrf_token}` */
async function me(services: { users: UserService }, user: SessionUser, csrfToken: string | null): Promise<Static<typeof MeSchema>> {
  const { id, email, name, role } = user;
  return { id, email, name, role, scopes: [...ROLE_SCOPES[role]], organization: await services.users.organization(), csrf_token: csrfToken };
}

/** Accounts: the first account, login and logout, the current user and their password, members, invites and password reset links. */
export const userRoutes: FastifyPluginAsync<RouteContext<AuthLookups & { users: UserService; sessions: SessionService; passwords: PasswordService }>> = async (
  app,
  { services },
) => {
  const tags = ['users'];
  const publicRoute = { tags, security: [] };
  const anyone = authorize(services, null, { projectLimitedKeys: true });
  const signedIn = authorize(services, null);
  const readMembers = authorize(services, 'organization_member:read');
  const manageMembers = authorize(services, 'organization_member:write');

  /** Starts a session for the user (ending the one the request came with) and answers `Me`. */
  const logIn = async (request: FastifyRequest, reply: FastifyReply, user: User, status: number) => {
    const token = await services.sessions.start(user.id, sessionToken(request));
    setSessionCookie(request, reply, token);
    return reply.code(status).send(await me(services, user, csrfTokenOf(token)));
  };

  app.get(
    '/api/setup',
    {
      schema: {
        ...publicRoute,
        summary: 'Whether the service has no account yet (the first visit then creates the owner)',
        response: { 200: Type.Object({ needs_first_account: Type.Boolean() }), ...errorResponses },
      },
    },
    async () => ({ needs_first_account: await services.users.needsFirstAccount() }),
  );

  app.post<{ Body: Static<typeof SignupBody> }>(
    '/api/signup',
    {
      schema: {
        ...publicRoute,
        summary: "Create the first account, the owner's, and log in",
        body: SignupBody,
        response: { 201: MeSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      checkSameOrigin(request, false);
      const { email, name, password, organization_name } = request.body;
      const user = await services.users.signup({ email, name, password, organizationName: organization_name });
      return logIn(request, reply, user, 201);
    },
  );

  app.post<{ Body: Static<typeof LoginBody> }>(
    '/api/login',
    { schema: { ...publicRoute, summary: 'Log in: a session cookie and its CSRF token', body: LoginBody, response: { 200: MeSchema, ...errorResponses } } },
    async (request, reply) => {
      checkSameOrigin(request, false);
      const result = await services.users.login(request.body.email, request.body.password, clientNetwork(request.ip));
      if (!result.ok) throw result.retryAfterSeconds ? loginThrottled(result.retryAfterSeconds) : invalidCredentials();
      return logIn(request, reply, result.user, 200);
    },
  );

  app.post(
    '/api/logout',
    {
      schema: {
        ...publicRoute,
        summary: 'Log out: end the session',
        response: { 204: Type.Null({ description: 'logged out; the cookie is cleared' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const token = sessionToken(request);
      const session = token ? await services.sessions.verify(token) : undefined;
      if (token && session) {
        checkCsrf(request, session.csrfToken);
        await services.sessions.end(token);
      }
      clearSessionCookie(request, reply);
      return reply.code(204).send();
    },
  );

  const meSchema = { tags, summary: "Retrieve the signed-in user (or the personal API key's owner)", response: { 200: MeSchema, ...errorResponses } };
  app.get('/api/users/@me', { onRequest: anyone, schema: meSchema }, async (request) => {
    const principal = request.principal!;
    if (principal.user) return me(services, principal.user, principal.csrfToken);
    const user = principal.userId === null ? undefined : await services.users.get(principal.userId);
    if (!user) throw permissionDenied('This personal API key belongs to no user (it was made by the command line).');
    return me(services, user, null);
  });

  app.post<{ Body: Static<typeof ChangePasswordBody> }>(
    '/api/users/@me/password',
    {
      onRequest: signedIn,
      schema: {
        tags,
        summary: "Change the signed-in user's password (the user's other sessions end)",
        body: ChangePasswordBody,
        response: { 204: Type.Null({ description: 'changed; this session goes on, the others ended' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const principal = request.principal!;
      // A key is a credential of its own: the password is changed by its user, signed in.
      if (principal.via !== 'session') throw permissionDenied('A password is changed in a session of the web app, not with a personal API key.');
      const result = await services.passwords.change(
        principal.userId!,
        { currentPassword: request.body.current_password, password: request.body.password },
        clientNetwork(request.ip),
        sessionToken(request)!,
      );
      if (!result.ok) throw loginThrottled(result.retryAfterSeconds);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/organization/members',
    { onRequest: readMembers, schema: { tags, response: { 200: Type.Object({ results: Type.Array(MemberSchema) }), ...errorResponses } } },
    async () => ({ results: await services.users.members() }),
  );

  app.patch<{ Params: Static<typeof UserParams>; Body: Static<typeof RoleBody> }>(
    '/api/organization/members/:user_id',
    { onRequest: manageMembers, schema: { tags, params: UserParams, body: RoleBody, response: { 200: MemberSchema, ...errorResponses } } },
    async (request) => {
      const id = intId(request.params.user_id);
      if (id === undefined) throw new NotFoundError('No such member.');
      return services.users.setRole(actorOf(request), id, request.body.role);
    },
  );

  app.delete<{ Params: Static<typeof UserParams> }>(
    '/api/organization/members/:user_id',
    {
      onRequest: manageMembers,
      schema: {
        tags,
        params: UserParams,
        response: { 204: Type.Null({ description: 'removed: sessions ended, personal API keys revoked' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = intId(request.params.user_id);
      if (id === undefined) throw new NotFoundError('No such member.');
      await services.users.remove(actorOf(request), id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: Static<typeof UserParams> }>(
    '/api/organization/members/:user_id/password_reset',
    {
      onRequest: manageMembers,
      schema: {
        tags,
        summary: `Make a password reset link for a member (single use, valid ${PASSWORD_RESET_HOURS} hours; their earlier unused link stops working)`,
        params: UserParams,
        response: { 201: PasswordResetSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = intId(request.params.user_id);
      if (id === undefined) throw new NotFoundError('No such member.');
      const { user, token, expires_at } = await services.passwords.makeReset(actorOf(request), id);
      return reply.code(201).send({ user_id: user.id, email: user.email, expires_at, url: `${ownOrigin(request) ?? ''}/reset-password/${token}` });
    },
  );

  app.get(
    '/api/organization/invites',
    { onRequest: manageMembers, schema: { tags, response: { 200: Type.Object({ results: Type.Array(InviteSchema) }), ...errorResponses } } },
    async () => ({ results: await services.users.invites() }),
  );

  app.post<{ Body: Static<typeof InviteBody> }>(
    '/api/organization/invites',
    { onRequest: manageMembers, schema: { tags, body: InviteBody, response: { 201: CreatedInviteSchema, ...errorResponses } } },
    async (request, reply) => {
      const { invite, token } = await services.users.invite(actorOf(request), { role: request.body.role, email: request.body.email });
      const { id, role, email, created_at, expires_at } = invite;
      return reply.code(201).send({ id, role, email, created_at, expires_at, url: `${ownOrigin(request) ?? ''}/invite/${token}` });
    },
  );

  app.delete<{ Params: Static<typeof IdParams> }>(
    '/api/organization/invites/:id',
    {
      onRequest: manageMembers,
      schema: { tags, params: IdParams, response: { 204: Type.Null({ description: 'withdrawn; its link no longer works' }), ...errorResponses } },
    },
    async (request, reply) => {
      if (!UUID.test(request.params.id)) throw new NotFoundError('No such pending invite.');
      await services.users.deleteInvite(request.params.id, actorOf(request));
      return reply.code(204).send();
    },
  );

  app.get<{ Params: Static<typeof TokenParams> }>(
    '/api/invites/:token',
    {
      config: { secretInUrl: true },
      schema: { ...publicRoute, summary: 'Retrieve an invite by its link', params: TokenParams, response: { 200: InviteInfoSchema, ...errorResponses } },
    },
    async (request) => {
      const found = TOKEN.test(request.params.token) ? await services.users.inviteByToken(request.params.token) : undefined;
      if (!found) throw noInvite();
      return { valid: true as const, role: found.invite.role, email: found.invite.email, organization_name: found.organizationName };
    },
  );

  app.post<{ Params: Static<typeof TokenParams>; Body: Static<typeof AcceptBody> }>(
    '/api/invites/:token/accept',
    {
      config: { secretInUrl: true },
      schema: {
        ...publicRoute,
        summary: 'Accept an invite: create its account and log in',
        params: TokenParams,
        body: AcceptBody,
        response: { 201: MeSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      checkSameOrigin(request, false);
      if (!TOKEN.test(request.params.token)) throw noInvite();
      const user = await services.users.acceptInvite(request.params.token, request.body);
      return logIn(request, reply, user, 201);
    },
  );

  app.get<{ Params: Static<typeof TokenParams> }>(
    '/api/password_resets/:token',
    {
      config: { secretInUrl: true },
      schema: {
        ...publicRoute,
        summary: 'Retrieve the account of a password reset link',
        params: TokenParams,
        response: { 200: PasswordResetInfoSchema, ...errorResponses },
      },
    },
    async (request) => {
      const user = TOKEN.test(request.params.token) ? await services.passwords.resetFor(request.params.token) : undefined;
      if (!user) throw noPasswordReset();
      return { valid: true as const, email: user.email, name: user.name };
    },
  );

  app.post<{ Params: Static<typeof TokenParams>; Body: Static<typeof ResetBody> }>(
    '/api/password_resets/:token',
    {
      config: { secretInUrl: true },
      schema: {
        ...publicRoute,
        summary: "Set a new password with a reset link and log in (the link is used up; the user's other sessions end)",
        params: TokenParams,
        body: ResetBody,
        response: { 200: MeSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      checkSameOrigin(request, false);
      if (!TOKEN.test(request.params.token)) throw noPasswordReset();
      const user = await services.passwords.reset(request.params.token, request.body.password);
      return logIn(request, reply, user, 200);
    },
  );
};
