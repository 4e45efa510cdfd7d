// Sign-in: sessions, failed attempts, captchas, verification codes, external identities (modules/auth, modules/captcha, modules/sso).
import { bigserial, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { orgs, users } from './org.ts';

/** Access tokens are random; only their SHA-256 is kept. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    period: integer('period'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Wrong-password attempts, kept in the database so several nodes count them together. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    account: text('account').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
  },
  (t) => [index('login_failures_account_at_idx').on(t.account, t.at)],
);

/** Image captchas: single use (used_at), short-lived (expires_at), shared by every node. */
export const captchas = pgTable(
  'captchas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    answer: text('answer').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('captchas_expires_idx').on(t.expiresAt)],
);

/**
 * Four-digit codes of the password retrieval: kept as hashes, single use (used_at), short-lived,
 * a bounded number of wrong tries (attempts). A right code yields a reset ticket (its hash).
 */
export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
    ticketHash: text('ticket_hash').unique(),
    ticketExpiresAt: timestamp('ticket_expires_at', { withTimezone: true }),
    ticketUsedAt: timestamp('ticket_used_at', { withTimezone: true }),
  },
  (t) => [index('verification_codes_user_created_idx').on(t.userId, t.createdAt)],
);

/** External (OpenID Connect) identities bound to accounts: one per provider and account. */
export const userIdentities = pgTable(
  'user_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), uniqueIndex('user_identities_user_issuer_uq').on(t.userId, t.issuer)],
);

/**
 * External sign-ins in flight: `state` rows wait for the provider's answer (nonce, PKCE
 * verifier); `pending` rows hold a verified identity that waits for its account binding;
 * `reauth` rows wait for a signed-in user's sign-in again (subject: the identity expected), and
 * `proof` rows are its single-use result, taken by an electronic signature.
 */
export const ssoFlows = pgTable(
  'sso_flows',
  {
    idHash: text('id_hash').primaryKey(),
    kind: text('kind', { enum: ['state', 'pending', 'reauth', 'proof'] }).notNull(),
    issuer: text('issuer').notNull(),
    nonce: text('nonce'),
    codeVerifier: text('code_verifier'),
    subject: text('subject'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sso_flows_expires_idx').on(t.expiresAt)],
);
