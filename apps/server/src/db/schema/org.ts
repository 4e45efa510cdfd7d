// Organisations, users, roles, menus and what each role grants (modules/org-user, modules/menu).
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

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

/**
 * One counter that moves whenever a caller's scope may change: an organisation added, removed or
 * moved in the tree, a user's organisation or roles, a role's permissions. Triggers move it
 * (migration 0029), whatever writes the rows; the auth service keeps each session's resolved
 * scope (organisation tree and permissions) until it moves (modules/auth/service.ts).
 */
export const scopeVersion = pgTable('scope_version', {
  id: boolean('id').primaryKey().default(true),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
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
