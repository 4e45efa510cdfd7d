// The database schema as code (Drizzle). Migrations under apps/server/drizzle are generated
// from it with `npm run db:generate` and applied at start on PGlite and PostgreSQL alike.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  doublePrecision,
  boolean,
  index,
  integer,
  date,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
  bigint,
  customType,
  smallint,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Binary values (ledger hashes, packed tracks). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/** Organisations form a tree; a user sees rows of their organisation and its descendants. */
export const orgs = pgTable('orgs', {
  id: uuid('id').primaryKey().defaultRandom(),
  parentId: uuid('parent_id').references((): AnyPgColumn => orgs.id),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  kind: text('kind', { enum: ['platform', 'tenant'] }).notNull().default('tenant'),
  status: text('status', { enum: ['active', 'disabled'] }).notNull().default('active'),
  createdAt: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    account: text('account').notNull(),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    passwordHash: text('password_hash').notNull(),
    status: text('status', { enum: ['active', 'disabled'] }).notNull().default('active'),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    isPlatformAdmin: boolean('is_platform_admin').notNull().default(false),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_account_lower_uq').on(sql`lower(${t.account})`), index('users_org_idx').on(t.orgId)],
);

export const roles = pgTable(
  'roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    code: text('code').notNull(),
    nameZh: text('name_zh').notNull(),
    nameEn: text('name_en').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('roles_org_code_uq').on(t.orgId, t.code)],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

/** Menu items of one scenario type (101-104); three levels by pid. Ids are stable codes. */
export const menus = pgTable(
  'menus',
  {
    id: text('id').primaryKey(),
    pid: text('pid').references((): AnyPgColumn => menus.id),
    type: integer('type').notNull(),
    nameZh: text('name_zh').notNull(),
    nameEn: text('name_en').notNull(),
    url: text('url'),
    icon: text('icon'),
    sort: integer('sort').notNull().default(0),
    active: boolean('active').notNull().default(true),
    /** Platform-management entries: only platform administrators see them. */
    platformOnly: boolean('platform_only').notNull().default(false),
  },
  (t) => [index('menus_type_idx').on(t.type)],
);

export const roleMenus = pgTable(
  'role_menus',
  {
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    menuId: text('menu_id')
      .notNull()
      .references(() => menus.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] })],
);

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

export const dictTypes = pgTable('dict_types', {
  code: text('code').primaryKey(),
  nameZh: text('name_zh').notNull(),
  nameEn: text('name_en').notNull(),
  sort: integer('sort').notNull().default(0),
});

export const dictItems = pgTable(
  'dict_items',
  {
    dictCode: text('dict_code')
      .notNull()
      .references(() => dictTypes.code, { onDelete: 'cascade' }),
    dictKey: text('dict_key').notNull(),
    valZh: text('val_zh').notNull(),
    valEn: text('val_en').notNull(),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dictCode, t.dictKey] })],
);

/** Who did what, when, from where: sign-ins, sign-outs and, as areas land, their changes. */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    account: text('account').notNull(),
    action: text('action').notNull(),
    result: text('result', { enum: ['success', 'failure'] }).notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    detail: text('detail'),
  },
  // (org, time, id) serves one organisation's newest-first pages straight from the index;
  // (time, id) the same across a whole organisation tree.
  (t) => [index('audit_logs_org_at_id_idx').on(t.orgId, t.at, t.id), index('audit_logs_at_id_idx').on(t.at, t.id)],
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

/** The actions a role grants (permission codes of packages/shared platform.ts). */
export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permission: text('permission').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.permission] })],
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

/** Every message the platform sends (mail, SMS): the default delivery, and the record of real ones. */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: uuid('org_id').references(() => orgs.id, { onDelete: 'set null' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    /** outbox: kept here only (no transport configured); sent: handed to SMTP / the gateway; failed. */
    status: text('status', { enum: ['outbox', 'sent', 'failed'] }).notNull(),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_recipient_idx').on(t.recipient, t.createdAt)],
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
 * verifier); `pending` rows hold a verified identity that waits for its account binding.
 */
export const ssoFlows = pgTable(
  'sso_flows',
  {
    idHash: text('id_hash').primaryKey(),
    kind: text('kind', { enum: ['state', 'pending'] }).notNull(),
    issuer: text('issuer').notNull(),
    nonce: text('nonce'),
    codeVerifier: text('code_verifier'),
    subject: text('subject'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sso_flows_expires_idx').on(t.expiresAt)],
);

/**
 * Devices (trackers, gateways, data loggers): an id (IMEI or serial) unique on the platform,
 * an owning organisation, and a secret kept only as a hash (it authenticates MQTT and HTTP reports).
 */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    deviceId: text('device_id').notNull().unique(),
    name: text('name').notNull(),
    model: text('model'),
    /** How the device reports: 'json' (MQTT or HTTP, DESIGN.md's report format) or 'jt808' (its device id is the terminal phone number). */
    protocol: text('protocol', { enum: ['json', 'jt808'] }).notNull().default('json'),
    sim: text('sim'),
    firmware: text('firmware'),
    secretHash: text('secret_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('devices_org_idx').on(t.orgId)],
);

/**
 * Every accepted report: raw blocks and decoded values side by side; one row per device and device time.
 * Range-partitioned by `time` (migration 0025; drizzle-kit does not express it): one partition per
 * UTC month, telemetry_pYYYY_MM, and telemetry_default for a month without one (db/partitions.ts).
 */
export const telemetry = pgTable(
  'telemetry',
  {
    orgId: uuid('org_id').notNull(),
    // No foreign key: a check of the device per stored reading costs more than the rest of
    // the insert at full intake; deleting a device deletes its readings itself.
    deviceRef: uuid('device_ref').notNull(),
    time: timestamp('time', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    positioning: text('positioning'),
    network: text('network'),
    speed: doublePrecision('speed'),
    course: doublePrecision('course'),
    raw: jsonb('raw').notNull(),
    sensors: jsonb('sensors').notNull(),
  },
  (t) => [
    primaryKey({ name: 'telemetry_pk', columns: [t.deviceRef, t.time] }),
    index('telemetry_org_time_idx').on(t.orgId, t.time),
    // The ledger reads readings by the minute they were stored; rows arrive in that order, so a
    // block-range index serves it at almost no cost to the intake.
    index('telemetry_received_brin').using('brin', t.receivedAt),
  ],
);

/**
 * The readings archive (modules/archive): each device's readings of one closed UTC day packed
 * into one value, every column kept (pack.ts), so that a month of history reads as 30 values
 * instead of hundreds of thousands of rows and takes a few bytes a reading. `data` holds all but
 * the raw reports, which are in `raw`, so that curves and tracks never read those. A reading that
 * arrives late for a packed day marks its pack stale (readers then merge the pack with that day's
 * rows, the pack winning on a repeated time) until the job packs the day again.
 */
export const readingDays = pgTable(
  'reading_days',
  {
    deviceRef: uuid('device_ref').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    /** The organisation of the day's readings (the last one's, when the device moved that day). */
    orgId: uuid('org_id').notNull(),
    readings: integer('readings').notNull(),
    firstTime: timestamp('first_time', { withTimezone: true }).notNull(),
    lastTime: timestamp('last_time', { withTimezone: true }).notNull(),
    /** The earliest and latest time received among the readings: the ledger finds a minute's readings by these. */
    receivedFrom: timestamp('received_from', { withTimezone: true }).notNull(),
    receivedTo: timestamp('received_to', { withTimezone: true }).notNull(),
    data: bytea('data').notNull(),
    raw: bytea('raw').notNull(),
    /** Readings received up to this time are in the pack (set a little early, so that none committing late is assumed in). */
    packedAt: timestamp('packed_at', { withTimezone: true }).notNull(),
    /** A reading of this day arrived after the pack was made: readers merge the day's rows in. */
    stale: boolean('stale').notNull().default(false),
  },
  (t) => [
    primaryKey({ name: 'reading_days_pk', columns: [t.deviceRef, t.day] }),
    index('reading_days_org_day_idx').on(t.orgId, t.day),
    // The ledger reads a device's readings received in a recent minute: only packs that received one since.
    index('reading_days_received_idx').on(t.deviceRef, t.receivedTo),
  ],
);

/**
 * Where the archive's job is (one row): days before `closedThrough` have been swept, readings
 * received before `receivedMark` looked at; `lease` names the node's run holding the job until
 * `leaseUntil`.
 */
export const readingArchiveState = pgTable('reading_archive_state', {
  id: integer('id').primaryKey(),
  closedThrough: date('closed_through', { mode: 'string' }),
  receivedMark: timestamp('received_mark', { withTimezone: true }),
  lease: text('lease'),
  leaseUntil: timestamp('lease_until', { withTimezone: true }),
});

/**
 * How long an organisation keeps its readings (issue 24, retention). Each part either inherits
 * from the parent organisation (`*Inherit`) or sets a number of days, null meaning forever:
 * `rows` is how long reading rows stay before only their day's pack remains (only rows a fresh
 * pack holds are ever removed), `packs` how long the packs (and with them the readings) stay.
 * Organisations without a row inherit everything. On the platform organisation the row is the
 * default of the whole tree, and `packsFloorDays` the floor no organisation may go below.
 */
export const retentionRules = pgTable('retention_rules', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  rowsInherit: boolean('rows_inherit').notNull().default(true),
  rowsDays: integer('rows_days'),
  packsInherit: boolean('packs_inherit').notNull().default(true),
  packsDays: integer('packs_days'),
  /** Platform organisation only: the fewest days any organisation may keep packs (null: no floor). */
  packsFloorDays: integer('packs_floor_days'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/**
 * A legal hold: while it is not released, nothing of its subject is removed by retention (an
 * organisation: every device of it and of its sub-organisations; a device; a transport task: its
 * devices over the task's time).
 */
export const legalHolds = pgTable(
  'legal_holds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The organisation the hold was placed in (whose users see and release it). */
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    subjectKind: text('subject_kind', { enum: ['org', 'device', 'task'] }).notNull(),
    subjectId: uuid('subject_id').notNull(),
    reason: text('reason').notNull(),
    placedAt: timestamp('placed_at', { withTimezone: true }).notNull().defaultNow(),
    placedBy: uuid('placed_by').references(() => users.id, { onDelete: 'set null' }),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releasedBy: uuid('released_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('legal_holds_org_idx').on(t.orgId, t.placedAt), index('legal_holds_subject_idx').on(t.subjectKind, t.subjectId)],
);

/**
 * What retention removed, one row per device and run: `rows` (reading rows whose pack holds them:
 * nothing is lost) or `packs` (the readings themselves). `policy` says which rule, in words kept
 * as they were on the day; the ledger's record checks answer "removed under policy X on date Y"
 * for the readings in [fromTime, toTime) received in [receivedFrom, receivedTo].
 */
export const retentionRemovals = pgTable(
  'retention_removals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull(),
    /** The device row id (no foreign key: the record outlives a deleted device). */
    deviceRef: uuid('device_ref').notNull(),
    what: text('what', { enum: ['rows', 'packs'] }).notNull(),
    fromTime: timestamp('from_time', { withTimezone: true }).notNull(),
    toTime: timestamp('to_time', { withTimezone: true }).notNull(),
    receivedFrom: timestamp('received_from', { withTimezone: true }),
    receivedTo: timestamp('received_to', { withTimezone: true }),
    readings: bigint('readings', { mode: 'number' }).notNull(),
    /** The organisation whose rule applied, and the rule in words (e.g. "packs kept 1825 days"). */
    policyOrgId: uuid('policy_org_id'),
    policy: text('policy').notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }).notNull().defaultNow(),
    /** The ledger leaf that logs this removal (packs only), once appended. */
    ledgerIndex: bigint('ledger_index', { mode: 'number' }),
  },
  (t) => [index('retention_removals_device_idx').on(t.deviceRef, t.fromTime), index('retention_removals_org_idx').on(t.orgId, t.removedAt)],
);

/**
 * Storage per organisation and day (UTC), taken by the storage job: readings still as rows and
 * readings in packs, with their bytes (rows: the organisation's share of the readings table's
 * size; packs: the packs' own bytes). Growth per day and the days left come from these.
 */
export const storageDaily = pgTable(
  'storage_daily',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    rowReadings: bigint('row_readings', { mode: 'number' }).notNull(),
    rowBytes: bigint('row_bytes', { mode: 'number' }).notNull(),
    packedReadings: bigint('packed_readings', { mode: 'number' }).notNull(),
    packs: bigint('packs', { mode: 'number' }).notNull(),
    packBytes: bigint('pack_bytes', { mode: 'number' }).notNull(),
    takenAt: timestamp('taken_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'storage_daily_pk', columns: [t.orgId, t.day] })],
);

/**
 * A JT/T 808 terminal's registration (0x0100) and session record, one per device of protocol
 * jt808. Its authentication code is kept as SHA-256 only: any node checks a reconnecting
 * terminal's 0x0102 against it, so nothing a node keeps in memory is needed by another.
 */
export const jt808Terminals = pgTable('jt808_terminals', {
  deviceRef: uuid('device_ref')
    .primaryKey()
    .references(() => devices.id, { onDelete: 'cascade' }),
  orgId: uuid('org_id').notNull(),
  /** SHA-256 (hex) of the code sent in the last 0x8100; null after a deregistration. */
  authCodeHash: text('auth_code_hash'),
  province: integer('province'),
  city: integer('city'),
  manufacturer: text('manufacturer'),
  model: text('model'),
  terminalId: text('terminal_id'),
  plateColour: integer('plate_colour'),
  plate: text('plate'),
  edition: integer('edition'),
  registeredAt: timestamp('registered_at', { withTimezone: true }),
  lastConnectedAt: timestamp('last_connected_at', { withTimezone: true }),
  lastAddress: text('last_address'),
  /** NODE_ID of the node that took its last authentication. */
  nodeId: text('node_id'),
  /** True from an authentication to the close of that connection; a node that dies leaves it true, so it counts only with a recent last_frame_at. */
  connected: boolean('connected').notNull().default(false),
  /** When a frame of the authenticated connection was last seen, written at most every 30 s per terminal. */
  lastFrameAt: timestamp('last_frame_at', { withTimezone: true }),
  lastDisconnectedAt: timestamp('last_disconnected_at', { withTimezone: true }),
});

/**
 * The last frames of an authenticated JT/T 808 terminal, in and out, for troubleshooting: decoded
 * summary and raw hex, a few per terminal and second, the newest 50 per terminal kept.
 */
export const jt808Frames = pgTable(
  'jt808_frames',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    messageId: integer('message_id').notNull(),
    serial: integer('serial').notNull(),
    summary: jsonb('summary').notNull(),
    hex: text('hex').notNull(),
  },
  (t) => [index('jt808_frames_device_id_idx').on(t.deviceRef, t.id)],
);

/**
 * Vendor mappings of JT/T 808 additional items for one terminal model (jt808-models.ts `items`),
 * owned by an organisation: a terminal uses its organisation's mapping of its model, else the
 * nearest ancestor's, so the platform's mappings serve every organisation that sets none.
 */
export const jt808Models = pgTable(
  'jt808_models',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    model: text('model').notNull(),
    description: text('description').notNull().default(''),
    items: jsonb('items').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('jt808_models_org_model_uq').on(t.orgId, t.model)],
);

/** Refused reports with their reason, per device (null when the device itself is unknown). */
export const intakeLog = pgTable(
  'intake_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceRef: uuid('device_ref').references(() => devices.id, { onDelete: 'cascade' }),
    deviceId: text('device_id'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    channel: text('channel', { enum: ['mqtt', 'http', 'jt808'] }).notNull(),
    reason: text('reason').notNull(),
    payload: text('payload'),
  },
  (t) => [index('intake_log_device_at_idx').on(t.deviceRef, t.at)],
);

/**
 * The newest state of each device, kept current by the intake: the newest device time's
 * position, each sensor's last known value, and when the platform last heard from it. The
 * status (unused / shutdown / offline / parked / driving) is derived from it when read.
 */
export const deviceStates = pgTable(
  'device_states',
  {
    deviceRef: uuid('device_ref')
      .primaryKey()
      .references(() => devices.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id').notNull(),
    time: timestamp('time', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    positioning: text('positioning'),
    network: text('network'),
    speed: doublePrecision('speed'),
    course: doublePrecision('course'),
    acc: boolean('acc'),
    sensors: jsonb('sensors').notNull(),
  },
  (t) => [index('device_states_org_received_idx').on(t.orgId, t.receivedAt)],
);

/**
 * Assets devices are mounted on. `code` is the plate, container number, warehouse or gateway
 * code; the kind's own fields are in `attrs`; the ranges are the goods' limits.
 */
export const assets = pgTable(
  'assets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id),
    kind: text('kind', { enum: ['vehicle', 'container', 'warehouse', 'cold_room', 'refrigerator', 'gateway'] }).notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    parentId: uuid('parent_id').references((): AnyPgColumn => assets.id),
    attrs: jsonb('attrs').notNull(),
    tempMin: doublePrecision('temp_min'),
    tempMax: doublePrecision('temp_max'),
    humidityMin: doublePrecision('humidity_min'),
    humidityMax: doublePrecision('humidity_max'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('assets_org_kind_code_uq').on(t.orgId, t.kind, t.code), index('assets_parent_idx').on(t.parentId)],
);

/**
 * Which device is mounted on which asset, and since when: a row per binding, ended (never
 * deleted) by an unbind. The asset's kind, code and name are copied so the history reads the
 * same after the asset is gone.
 */
export const deviceBindings = pgTable(
  'device_bindings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull(),
    deviceRef: uuid('device_ref').references(() => devices.id, { onDelete: 'set null' }),
    deviceId: text('device_id').notNull(),
    assetRef: uuid('asset_ref').references(() => assets.id, { onDelete: 'set null' }),
    assetKind: text('asset_kind', { enum: ['vehicle', 'container', 'warehouse', 'cold_room', 'refrigerator', 'gateway'] }).notNull(),
    assetCode: text('asset_code').notNull(),
    assetName: text('asset_name').notNull(),
    boundAt: timestamp('bound_at', { withTimezone: true }).notNull().defaultNow(),
    boundBy: text('bound_by').notNull(),
    unboundAt: timestamp('unbound_at', { withTimezone: true }),
    unboundBy: text('unbound_by'),
  },
  (t) => [
    uniqueIndex('device_bindings_active_uq').on(t.deviceRef).where(sql`unbound_at is null`),
    index('device_bindings_asset_idx').on(t.assetRef, t.boundAt),
    index('device_bindings_device_idx').on(t.deviceRef, t.boundAt),
  ],
);

/** Platform notifications (announcements) on the home screen: for one organisation's tree, or everyone (null). */
export const notices = pgTable(
  'notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').references(() => orgs.id, { onDelete: 'cascade' }),
    titleZh: text('title_zh').notNull(),
    titleEn: text('title_en').notNull(),
    bodyZh: text('body_zh').notNull().default(''),
    bodyEn: text('body_en').notNull().default(''),
    level: text('level', { enum: ['info', 'warning', 'important'] }).notNull().default('info'),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notices_published_idx').on(t.publishedAt)],
);

/** Alarm levels of an organisation (every organisation starts with four; see db/org-defaults.ts). */
export const alarmLevels = pgTable(
  'alarm_levels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    nameZh: text('name_zh').notNull(),
    nameEn: text('name_en').notNull(),
    color: text('color').notNull(),
    priority: integer('priority').notNull(),
    sound: boolean('sound').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('alarm_levels_org_code_uq').on(t.orgId, t.code)],
);

/**
 * What is abnormal for the devices of an organisation tree: rules (alarm.ts `ruleSchema`) kept
 * as JSON, scoped to all devices, named devices, assets or asset kinds (`targets`).
 */
export const alarmPolicies = pgTable(
  'alarm_policies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    scope: text('scope', { enum: ['all', 'devices', 'assets', 'asset_kinds'] }).notNull(),
    targets: jsonb('targets').notNull().$type<string[]>(),
    rules: jsonb('rules').notNull(),
    /** Set on the policy a transport task runs while in transit (kept by the task, not shown among the policies). */
    taskId: uuid('task_id').references((): AnyPgColumn => transportTasks.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alarm_policies_org_idx').on(t.orgId)],
);

/**
 * The engine's memory of one rule on one device while its condition holds (pending, or active
 * with its open alarm); no row means idle. In the database so that it survives a restart and
 * several server processes share it.
 */
export const alarmRuleStates = pgTable(
  'alarm_rule_states',
  {
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    policyId: uuid('policy_id')
      .notNull()
      .references(() => alarmPolicies.id, { onDelete: 'cascade' }),
    ruleId: text('rule_id').notNull(),
    phase: text('phase', { enum: ['pending', 'active'] }).notNull(),
    since: timestamp('since', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    peak: doublePrecision('peak'),
    alarmId: uuid('alarm_id'),
  },
  (t) => [primaryKey({ name: 'alarm_rule_states_pk', columns: [t.deviceRef, t.policyId, t.ruleId] })],
);

/** Alarm records: one per device and rule while its condition holds. */
export const alarms = pgTable(
  'alarms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull(),
    policyId: uuid('policy_id').references(() => alarmPolicies.id, { onDelete: 'set null' }),
    policyName: text('policy_name').notNull(),
    ruleId: text('rule_id').notNull(),
    type: text('type').notNull(),
    levelId: uuid('level_id')
      .notNull()
      .references(() => alarmLevels.id),
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    assetRef: uuid('asset_ref').references(() => assets.id, { onDelete: 'set null' }),
    taskId: uuid('task_id'),
    status: text('status', { enum: ['active', 'cleared', 'closed'] }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    threshold: doublePrecision('threshold').notNull(),
    value: doublePrecision('value'),
    peak: doublePrecision('peak'),
    count: integer('count').notNull().default(1),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: text('acknowledged_by'),
    closedBy: text('closed_by'),
    closeReason: text('close_reason'),
    /** Who handles it (a user of the organisation tree). */
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('alarms_org_started_idx').on(t.orgId, t.startedAt),
    index('alarms_device_started_idx').on(t.deviceRef, t.startedAt),
    index('alarms_active_idx').on(t.orgId).where(sql`status = 'active'`),
    index('alarms_level_idx').on(t.levelId),
  ],
);

/** Each alarm's story (created, acknowledged, cleared, closed, ...): appended, never changed. */
export const alarmEvents = pgTable(
  'alarm_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alarmId: uuid('alarm_id')
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    /** The user's account, or null for the platform. */
    actor: text('actor'),
    detail: jsonb('detail').notNull().default({}),
  },
  (t) => [index('alarm_events_alarm_idx').on(t.alarmId, t.at)],
);

/**
 * Push rules (alarm-push.ts `pushRuleBodySchema`): which alarms of the organisation tree notify
 * whom, over which channels, in which language, and the escalation steps (kept as JSON, webhook
 * secrets included: the dispatcher signs with them). A transport task keeps one of its own
 * (task_id set, transport/task-policy.ts).
 */
export const pushRules = pgTable(
  'push_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    match: jsonb('match').notNull(),
    events: jsonb('events').notNull().$type<string[]>(),
    language: text('language', { enum: ['zh', 'en'] }).notNull(),
    timezone: text('timezone').notNull(),
    templates: jsonb('templates').notNull(),
    steps: jsonb('steps').notNull(),
    /** Set on the rule that pushes a transport task's alarms to its recipients (kept by the task, not shown among the rules). */
    taskId: uuid('task_id').references((): AnyPgColumn => transportTasks.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('push_rules_org_idx').on(t.orgId), uniqueIndex('push_rules_task_uq').on(t.taskId)],
);

/**
 * Where a rule's escalation of one alarm stands: how many steps were sent, how often the last one
 * repeated, when the next is due; done once the alarm is acknowledged, cleared or closed, or the
 * steps ran out. Belongs to the rule's organisation.
 */
export const pushEscalations = pgTable(
  'push_escalations',
  {
    alarmId: uuid('alarm_id')
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id')
      .notNull()
      .references(() => pushRules.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** When the push began: the steps' delays count from here. */
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    firedSteps: integer('fired_steps').notNull().default(0),
    repeats: integer('repeats').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }),
    done: boolean('done').notNull().default(false),
    /** The cleared notice went out (at most once). */
    clearedSent: boolean('cleared_sent').notNull().default(false),
  },
  (t) => [primaryKey({ name: 'push_escalations_pk', columns: [t.alarmId, t.ruleId] }), index('push_escalations_due_idx').on(t.nextAt).where(sql`not done`)],
);

/**
 * The delivery log: one row per alarm, rule, event, step (and repeat), channel and target, with
 * its status, attempts and next attempt; each attempt in `delivery_attempts`. Belongs to the
 * rule's organisation.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    alarmId: uuid('alarm_id')
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    ruleId: uuid('rule_id').references(() => pushRules.id, { onDelete: 'set null' }),
    ruleName: text('rule_name').notNull(),
    event: text('event', { enum: ['opened', 'cleared'] }).notNull(),
    step: integer('step').notNull(),
    round: integer('round').notNull().default(0),
    channel: text('channel', { enum: ['in_app', 'email', 'sms', 'webhook'] }).notNull(),
    target: text('target').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Webhooks: the signing key at the time the step fired (never read back by the API). */
    secret: text('secret'),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'outbox'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** Pending: when it is due (or, while a node sends it, when that claim lapses). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lastError: text('last_error'),
    responseCode: integer('response_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('deliveries_once_uq').on(t.alarmId, t.ruleId, t.event, t.step, t.round, t.channel, t.target),
    index('deliveries_org_created_idx').on(t.orgId, t.createdAt),
    index('deliveries_alarm_idx').on(t.alarmId, t.createdAt),
    index('deliveries_user_idx').on(t.userId, t.createdAt),
    index('deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
  ],
);

/** Every attempt of a delivery, with its result: appended, never changed. */
export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['sent', 'failed', 'outbox'] }).notNull(),
    responseCode: integer('response_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    resend: boolean('resend').notNull().default(false),
  },
  (t) => [index('delivery_attempts_delivery_idx').on(t.deliveryId, t.id)],
);

/** Work orders (work-order.ts): opened from alarms or by hand; belong to an organisation. */
export const workOrders = pgTable(
  'work_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    priority: text('priority', { enum: ['urgent', 'high', 'medium', 'low'] }).notNull(),
    status: text('status', { enum: ['open', 'in_progress', 'resolved', 'closed'] }).notNull().default('open'),
    source: text('source', { enum: ['alarm', 'manual'] }).notNull(),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    dueAt: timestamp('due_at', { withTimezone: true }),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('work_orders_org_code_uq').on(t.orgId, t.code),
    index('work_orders_org_created_idx').on(t.orgId, t.createdAt),
    index('work_orders_assignee_idx').on(t.assigneeId),
  ],
);

/** The alarms of a work order; an alarm is in at most one. */
export const workOrderAlarms = pgTable(
  'work_order_alarms',
  {
    workOrderId: uuid('work_order_id')
      .notNull()
      .references(() => workOrders.id, { onDelete: 'cascade' }),
    alarmId: uuid('alarm_id')
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ name: 'work_order_alarms_pk', columns: [t.workOrderId, t.alarmId] }), uniqueIndex('work_order_alarms_alarm_uq').on(t.alarmId)],
);

/** Each work order's story: appended, never changed. */
export const workOrderEvents = pgTable(
  'work_order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    workOrderId: uuid('work_order_id')
      .notNull()
      .references(() => workOrders.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    actor: text('actor'),
    detail: jsonb('detail').notNull().default({}),
  },
  (t) => [index('work_order_events_order_idx').on(t.workOrderId, t.id)],
);

/**
 * Device faults (fault.ts): at most one unresolved fault per device and kind; a new occurrence
 * after it was resolved opens another. Belongs to the device's organisation.
 */
export const faults = pgTable(
  'faults',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['sensor_failure', 'gps_failure', 'low_battery', 'offline_repeatedly', 'bad_reports'] }).notNull(),
    status: text('status', { enum: ['open', 'repairing', 'resolved'] }).notNull().default('open'),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(1),
    detail: jsonb('detail').notNull().default({}),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: text('resolved_by'),
  },
  (t) => [
    uniqueIndex('faults_unresolved_uq').on(t.deviceRef, t.kind).where(sql`status <> 'resolved'`),
    index('faults_org_last_idx').on(t.orgId, t.lastAt),
  ],
);

/**
 * What the detector counts between reports, per device and kind: a run of bad reports, or the
 * times within a window. Kept in the database so that several processes count together.
 */
export const faultCounters = pgTable(
  'fault_counters',
  {
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    count: integer('count').notNull().default(0),
    /** Start of the counting window, or of the run. */
    since: timestamp('since', { withTimezone: true }).notNull(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'fault_counters_pk', columns: [t.deviceRef, t.kind] })],
);

/** Repair records of a fault: appended, never changed. */
export const faultRepairs = pgTable(
  'fault_repairs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    faultId: uuid('fault_id')
      .notNull()
      .references(() => faults.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    by: text('by').notNull(),
    action: text('action').notNull(),
    result: text('result', { enum: ['in_progress', 'repaired', 'replaced', 'no_fault_found'] }).notNull(),
    note: text('note').notNull().default(''),
  },
  (t) => [index('fault_repairs_fault_idx').on(t.faultId, t.id)],
);

/**
 * Transport task templates: settings used again and again (places, route, ranges, alarm
 * settings, recipients, recognition thresholds), as transport.ts `templateBodySchema` gives them.
 */
export const transportTemplates = pgTable(
  'transport_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** origin, destination, routeSource, route, ranges, alarm, recipients, detection. */
    settings: jsonb('settings').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('transport_templates_org_name_uq').on(t.orgId, t.name)],
);

/**
 * Transport tasks. The places are columns (reports and the monitor read them); the rest of the
 * settings is JSON. `status` is the lifecycle; abnormal is derived when read.
 */
export const transportTasks = pgTable(
  'transport_tasks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    templateId: uuid('template_id').references(() => transportTemplates.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['pending', 'in_transit', 'arrived', 'completed', 'cancelled'] }).notNull().default('pending'),
    goodsName: text('goods_name').notNull(),
    goodsQuantity: doublePrecision('goods_quantity'),
    goodsUnit: text('goods_unit').notNull().default(''),
    goodsValue: doublePrecision('goods_value'),
    highValue: boolean('high_value').notNull().default(false),
    customer: text('customer').notNull().default(''),
    assetRef: uuid('asset_ref').references(() => assets.id, { onDelete: 'set null' }),
    originName: text('origin_name').notNull(),
    originLat: doublePrecision('origin_lat').notNull(),
    originLon: doublePrecision('origin_lon').notNull(),
    originRadiusM: integer('origin_radius_m').notNull(),
    destinationName: text('destination_name').notNull(),
    destinationLat: doublePrecision('destination_lat').notNull(),
    destinationLon: doublePrecision('destination_lon').notNull(),
    destinationRadiusM: integer('destination_radius_m').notNull(),
    plannedDistanceM: doublePrecision('planned_distance_m').notNull(),
    plannedStart: timestamp('planned_start', { withTimezone: true }),
    plannedArrival: timestamp('planned_arrival', { withTimezone: true }),
    driverName: text('driver_name').notNull().default(''),
    driverPhone: text('driver_phone').notNull().default(''),
    /** addresses of the places, route, routeSource, ranges, alarm, recipients, detection, contacts, remark. */
    settings: jsonb('settings').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    startMode: text('start_mode', { enum: ['auto', 'manual'] }),
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
    arriveMode: text('arrive_mode', { enum: ['auto', 'manual'] }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason').notNull().default(''),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('transport_tasks_org_code_uq').on(t.orgId, t.code),
    index('transport_tasks_org_created_idx').on(t.orgId, t.createdAt),
    index('transport_tasks_live_idx').on(t.status).where(sql`status in ('pending', 'in_transit', 'arrived')`),
  ],
);

/** The devices of a task, in order (position 0 is the task's position). */
export const transportTaskDevices = pgTable(
  'transport_task_devices',
  {
    taskId: uuid('task_id')
      .notNull()
      .references(() => transportTasks.id, { onDelete: 'cascade' }),
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ name: 'transport_task_devices_pk', columns: [t.taskId, t.deviceRef] }), index('transport_task_devices_device_idx').on(t.deviceRef)],
);

/** Each task's story: appended, never changed. */
export const transportTaskEvents = pgTable(
  'transport_task_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => transportTasks.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    actor: text('actor'),
    detail: jsonb('detail').notNull().default({}),
  },
  (t) => [index('transport_task_events_task_idx').on(t.taskId, t.id)],
);

// ---- Warehouse operations (modules/warehouse) ----

/**
 * Inbound and outbound records at a warehouse, or at one of its cold rooms or refrigerators
 * (`room_ref`). Codes and names are copied so a record reads the same after its place is gone;
 * the temperature and humidity at hand-over are read once, from the room's sensor at `time`.
 * Only approved records count in the stock.
 */
export const warehouseRecords = pgTable(
  'warehouse_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    warehouseRef: uuid('warehouse_ref').references(() => assets.id, { onDelete: 'set null' }),
    warehouseCode: text('warehouse_code').notNull(),
    warehouseName: text('warehouse_name').notNull(),
    roomRef: uuid('room_ref').references(() => assets.id, { onDelete: 'set null' }),
    roomKind: text('room_kind', { enum: ['cold_room', 'refrigerator'] }),
    roomCode: text('room_code'),
    roomName: text('room_name'),
    direction: text('direction', { enum: ['in', 'out'] }).notNull(),
    goodsName: text('goods_name').notNull(),
    batchNo: text('batch_no').notNull().default(''),
    quantity: doublePrecision('quantity').notNull(),
    unit: text('unit').notNull().default(''),
    time: timestamp('time', { withTimezone: true }).notNull(),
    handler: text('handler').notNull(),
    remark: text('remark').notNull().default(''),
    temperature: doublePrecision('temperature'),
    humidity: doublePrecision('humidity'),
    readingTime: timestamp('reading_time', { withTimezone: true }),
    readingDeviceId: text('reading_device_id'),
    auditStatus: text('audit_status', { enum: ['pending', 'approved', 'rejected'] }).notNull().default('pending'),
    reviewerId: uuid('reviewer_id').references(() => users.id, { onDelete: 'set null' }),
    reviewer: text('reviewer'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    auditReason: text('audit_reason').notNull().default(''),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('warehouse_records_org_time_idx').on(t.orgId, t.time),
    index('warehouse_records_warehouse_idx').on(t.warehouseRef, t.time),
    index('warehouse_records_room_idx').on(t.roomRef, t.time),
  ],
);

// ---------------------------------------------------------------------------------------------
// Remote control (command.ts; modules/command)
// ---------------------------------------------------------------------------------------------

/** Commands to devices: requested, reviewed, sent over MQTT, acknowledged or failed. */
export const commands = pgTable(
  'commands',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    deviceRef: uuid('device_ref')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['report_interval', 'set_point', 'lock', 'unlock', 'reboot', 'custom', 'position_query', 'text_message', 'terminal_control'] }).notNull(),
    params: jsonb('params').notNull().default({}),
    remark: text('remark').notNull().default(''),
    status: text('status', { enum: ['pending_review', 'rejected', 'sent', 'acknowledged', 'failed', 'cancelled'] })
      .notNull()
      .default('pending_review'),
    // Accounts are kept beside the ids: the history reads the same after a user is removed.
    requesterId: uuid('requester_id').references(() => users.id, { onDelete: 'set null' }),
    requesterAccount: text('requester_account').notNull(),
    reviewerId: uuid('reviewer_id').references(() => users.id, { onDelete: 'set null' }),
    reviewerAccount: text('reviewer_account'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewReason: text('review_reason').notNull().default(''),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    ackAt: timestamp('ack_at', { withTimezone: true }),
    failure: text('failure', { enum: ['timeout', 'device', 'send'] }),
    result: text('result'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('commands_org_created_idx').on(t.orgId, t.createdAt),
    index('commands_device_idx').on(t.deviceRef),
    // The time-out check reads the sent ones only.
    index('commands_sent_idx').on(t.sentAt).where(sql`status = 'sent'`),
  ],
);

/** Each command's story: appended, never changed. */
export const commandEvents = pgTable(
  'command_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    commandId: uuid('command_id')
      .notNull()
      .references(() => commands.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    actor: text('actor'),
    detail: jsonb('detail').notNull().default({}),
  },
  (t) => [index('command_events_command_idx').on(t.commandId, t.id)],
);

// ---------------------------------------------------------------------------------------------
// Scheduled reports (ops-report.ts; modules/report-schedule)
// ---------------------------------------------------------------------------------------------

/** A report mailed to recipients every day, week or month; made as its creator would see it. */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['temperature', 'alarm', 'online', 'mileage'] }).notNull(),
    frequency: text('frequency', { enum: ['daily', 'weekly', 'monthly'] }).notNull(),
    hour: integer('hour').notNull(),
    timezone: text('timezone').notNull(),
    lang: text('lang', { enum: ['zh', 'en'] }).notNull(),
    format: text('format', { enum: ['pdf', 'xlsx'] }).notNull(),
    /** Asset or device ids (see scheduleBodySchema); empty: all of the organisation's. */
    subjectIds: jsonb('subject_ids').notNull().$type<string[]>(),
    recipients: jsonb('recipients').notNull().$type<string[]>(),
    enabled: boolean('enabled').notNull().default(true),
    /** Null while disabled. */
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    lastStatus: text('last_status', { enum: ['sent', 'outbox', 'failed'] }),
    /** Whose view of the data a scheduled run reports (null once that user is deleted). */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('report_schedules_org_idx').on(t.orgId, t.updatedAt), index('report_schedules_due_idx').on(t.enabled, t.nextRunAt)],
);

/** Each run of a schedule: by the scheduler or a user's "send now"; appended, never changed. */
export const reportScheduleRuns = pgTable(
  'report_schedule_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => reportSchedules.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** The local days reported, YYYY-MM-DD. */
    periodStart: text('period_start').notNull(),
    periodEnd: text('period_end').notNull(),
    status: text('status', { enum: ['sent', 'outbox', 'failed'] }).notNull(),
    manual: boolean('manual').notNull().default(false),
    filename: text('filename'),
    recipients: jsonb('recipients').notNull().$type<string[]>(),
    error: text('error'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('report_schedule_runs_schedule_idx').on(t.scheduleId, t.at)],
);

// ---------------------------------------------------------------------------------------------
// Ledger (traceability; packages/shared/src/ledger, modules/ledger)
// ---------------------------------------------------------------------------------------------

/**
 * The ledger's leaves, appended in index order and never changed: the canonical record bytes
 * (leaf.ts) and their RFC 6962 leaf hash, with the ids the verification screens look them up by.
 */
export const ledgerLeaves = pgTable(
  'ledger_leaves',
  {
    idx: bigint('idx', { mode: 'number' }).primaryKey(),
    orgId: uuid('org_id').notNull(),
    kind: text('kind', { enum: ['sensor.minute', 'custody', 'alarm', 'retention.removal'] }).notNull(),
    /** A stable key of the logged record: each is logged once. */
    ref: text('ref').notNull().unique(),
    data: bytea('data').notNull(),
    leafHash: bytea('leaf_hash').notNull(),
    /** The record's own time: the minute of a sensor minute, the time of an event. */
    at: timestamp('at', { withTimezone: true }).notNull(),
    deviceRef: uuid('device_ref'),
    taskId: uuid('task_id'),
    warehouseRecordId: uuid('warehouse_record_id'),
    alarmId: uuid('alarm_id'),
    loggedAt: timestamp('logged_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ledger_leaves_device_idx').on(t.deviceRef, t.at),
    index('ledger_leaves_task_idx').on(t.taskId),
    index('ledger_leaves_warehouse_idx').on(t.warehouseRecordId),
  ],
);

/** Every complete subtree of the ledger's tree (level 0: the leaves), for proofs in O(log n) reads. */
export const ledgerNodes = pgTable(
  'ledger_nodes',
  {
    level: smallint('level').notNull(),
    idx: bigint('idx', { mode: 'number' }).notNull(),
    hash: bytea('hash').notNull(),
  },
  (t) => [primaryKey({ name: 'ledger_nodes_pk', columns: [t.level, t.idx] })],
);

/** Signed tree heads (C2SP signed notes), one per tree size. */
export const ledgerCheckpoints = pgTable('ledger_checkpoints', {
  size: bigint('size', { mode: 'number' }).primaryKey(),
  rootHash: bytea('root_hash').notNull(),
  note: text('note').notNull(),
  signedAt: timestamp('signed_at', { withTimezone: true }).notNull().defaultNow(),
});

/** How far the ledger's feeder has read each source. */
export const ledgerWatermarks = pgTable('ledger_watermarks', {
  source: text('source').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Links that publish a task's, a device range's or a warehouse batch's records without login;
 * only the token's SHA-256 is kept. Every link ends: at its expiry, or when it is revoked.
 */
export const ledgerShares = pgTable(
  'ledger_shares',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique('ledger_shares_token_hash_key'),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** 'task' | 'device' | 'batch' | 'warehouseRecord': the key `scope` holds. */
    kind: text('kind').notNull(),
    /** { taskId }, { deviceId (the device row id), from, to }, { warehouseBatch } or { warehouseRecordId }. */
    scope: jsonb('scope').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: text('revoked_by'),
  },
  (t) => [index('ledger_shares_org_idx').on(t.orgId, t.createdAt)],
);
