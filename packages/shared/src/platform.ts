// Platform management: organisations (a tree), users and roles. A role grants menu items
// (what the console shows) and actions (what the API allows); every call checks its action.
import { z } from 'zod';
import { accountSchema, optionalEmailSchema, optionalMobileSchema } from './account.ts';
import type { I18nText } from './i18n.ts';
import { listQuerySchema } from './list.ts';
import { menuItemSchema } from './auth.ts';
import { passwordSchema } from './validation.ts';

/** The actions a role may grant, with their names in both languages. */
export const PERMISSIONS = {
  'org:read': { en: 'View organisations', zh: '查看组织' },
  'org:write': { en: 'Manage organisations', zh: '管理组织' },
  'user:read': { en: 'View users', zh: '查看用户' },
  'user:write': { en: 'Manage users', zh: '管理用户' },
  'role:read': { en: 'View roles', zh: '查看角色' },
  'role:write': { en: 'Manage roles and permissions', zh: '管理角色与权限' },
  'audit:read': { en: 'View the audit log', zh: '查看操作日志' },
  'audit:export': { en: 'Export the audit log', zh: '导出操作日志' },
  'device:read': { en: 'View devices and their data', zh: '查看设备及数据' },
  'device:write': { en: 'Manage devices', zh: '管理设备' },
  'alarm:read': { en: 'View alarms, alarm policies and levels', zh: '查看告警、告警策略与等级' },
  'alarm:write': { en: 'Manage alarm policies and levels', zh: '管理告警策略与等级' },
  'alarm:handle': { en: 'Handle alarms: acknowledge, assign, comment, close, send notifications again', zh: '处理告警：确认、指派、备注、关闭、重新发送通知' },
  'place:read': { en: 'View the place library', zh: '查看地点库' },
  'place:write': { en: 'Manage the place library: create, change, delete, import places', zh: '管理地点库：新建、修改、删除、导入地点' },
  'fault:handle': { en: 'Record device repairs', zh: '登记设备维修' },
  'transport:read': { en: 'View transport tasks, templates and tracks', zh: '查看运输任务、模板与轨迹' },
  'transport:write': { en: 'Manage transport tasks and templates: create, change, start, end, cancel', zh: '管理运输任务与模板：新建、修改、开始、结束、取消' },
  'warehouse:read': { en: 'View inbound and outbound records and stock', zh: '查看出入库记录与库存' },
  'warehouse:write': { en: 'Record inbound and outbound goods', zh: '登记出入库' },
  'warehouse:audit': { en: 'Approve or reject inbound and outbound records', zh: '审核出入库记录' },
  'product:read': { en: 'View product profiles, batches and their excursion budgets', zh: '查看产品档案、批次及其温度预算' },
  'product:write': { en: 'Manage product profiles and batches, and the batches a transport task carries', zh: '管理产品档案与批次，以及运输任务承运的批次' },
  'command:request': { en: 'Request remote commands to devices', zh: '申请远程控制指令' },
  'command:review': { en: 'Approve or reject remote commands', zh: '审核远程控制指令' },
  'report:schedule': { en: 'Manage scheduled reports mailed to recipients', zh: '管理定时邮件报表' },
} as const satisfies Record<string, I18nText>;
export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_CODES = Object.keys(PERMISSIONS) as Permission[];
export const permissionSchema = z.enum(PERMISSION_CODES as [Permission, ...Permission[]]);

const blankAsUndefined = (v: unknown) => (v === '' ? undefined : v);
const optionalFilter = <T extends z.ZodType>(s: T) => z.preprocess(blankAsUndefined, s.optional());

/**
 * Screens of the platform administrator alone, whatever a role grants: the outbox holds every
 * organisation's verification codes and addresses, the storage figures every organisation's
 * volumes, the map settings the whole platform's base map, the notices go to every organisation
 * (their APIs refuse everyone else too).
 * The menu hides them from everyone else and the seed grants them to no organisation's role.
 */
export const PLATFORM_ADMIN_SCREENS: ReadonlySet<string> = new Set(['view/system/outbox', 'view/system/storage', 'view/system/map', 'view/system/notices']);

/**
 * Screens that need an action besides their menu grant: the menu shows them only to callers
 * holding it (the API refuses everyone else with 403 anyway).
 */
export const SCREEN_PERMISSIONS: Readonly<Record<string, Permission>> = {
  'view/warehouse/batches': 'product:read',
  'view/warehouse/profiles': 'product:read',
};

/** Organisation and role codes: 2-32 letters, digits, `_` or `-`. */
export const CODE_KEY_PATTERN = /^[A-Za-z0-9_-]{2,32}$/;
const codeKeySchema = z.string().trim().regex(CODE_KEY_PATTERN, { message: 'CODE_FORMAT_KEY' });
const nameSchema = z.string().trim().min(1, { message: 'NAME_REQUIRED' }).max(100);

export const ORG_STATUSES = ['active', 'disabled'] as const;
export const USER_STATUSES = ['active', 'disabled'] as const;

export interface OrgNode {
  id: string;
  parentId: string | null;
  code: string;
  name: string;
  kind: 'platform' | 'tenant';
  status: (typeof ORG_STATUSES)[number];
  userCount: number;
  createdAt: string;
  children: OrgNode[];
}
export const orgNodeSchema: z.ZodType<OrgNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    parentId: z.string().nullable(),
    code: z.string(),
    name: z.string(),
    kind: z.enum(['platform', 'tenant']),
    status: z.enum(ORG_STATUSES),
    userCount: z.number().int(),
    createdAt: z.string(),
    children: z.array(orgNodeSchema),
  }),
);

export const orgCreateBodySchema = z.object({ parentId: z.uuid(), code: codeKeySchema, name: nameSchema });
export type OrgCreateBody = z.infer<typeof orgCreateBodySchema>;
export const orgUpdateBodySchema = z.object({ name: nameSchema });
export type OrgUpdateBody = z.infer<typeof orgUpdateBodySchema>;

export const idParamsSchema = z.object({ id: z.uuid() });

export const userQuerySchema = listQuerySchema.extend({
  /** The organisation and its descendants. */
  orgId: optionalFilter(z.uuid()),
  /** Part of the account or the name. */
  keyword: optionalFilter(z.string().trim().max(64)),
  status: optionalFilter(z.enum(USER_STATUSES)),
});
export type UserQuery = z.infer<typeof userQuerySchema>;

export const userRowSchema = z.object({
  id: z.string(),
  account: z.string(),
  name: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: z.enum(USER_STATUSES),
  mustChangePassword: z.boolean(),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  createdAt: z.string(),
});
export type UserRow = z.infer<typeof userRowSchema>;

export const userCreateBodySchema = z.object({
  orgId: z.uuid(),
  account: accountSchema,
  name: nameSchema,
  email: optionalEmailSchema,
  phone: optionalMobileSchema,
  roleIds: z.array(z.uuid()).max(50).default([]),
  /** The initial password; generated when absent. The user is asked to change it at sign-in. */
  password: z.preprocess(blankAsUndefined, passwordSchema.optional()),
});
export type UserCreateBody = z.infer<typeof userCreateBodySchema>;
export const initialPasswordDataSchema = z.object({ id: z.string(), account: z.string(), initialPassword: z.string() });
export type InitialPasswordData = z.infer<typeof initialPasswordDataSchema>;

export const userUpdateBodySchema = z.object({ name: nameSchema, email: optionalEmailSchema, phone: optionalMobileSchema });
export type UserUpdateBody = z.infer<typeof userUpdateBodySchema>;
export const userRolesBodySchema = z.object({ roleIds: z.array(z.uuid()).max(50) });
export type UserRolesBody = z.infer<typeof userRolesBodySchema>;

export const roleQuerySchema = listQuerySchema.extend({
  orgId: optionalFilter(z.uuid()),
  keyword: optionalFilter(z.string().trim().max(64)),
});
export type RoleQuery = z.infer<typeof roleQuerySchema>;

export const roleRowSchema = z.object({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  code: z.string(),
  /** In the request's language. */
  name: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  userCount: z.number().int(),
  permissions: z.array(permissionSchema),
  menuIds: z.array(z.string()),
  createdAt: z.string(),
});
export type RoleRow = z.infer<typeof roleRowSchema>;

const grantsSchema = {
  nameZh: nameSchema,
  nameEn: nameSchema,
  permissions: z.array(permissionSchema).max(PERMISSION_CODES.length).default([]),
  menuIds: z.array(z.string().max(64)).max(1000).default([]),
};
export const roleCreateBodySchema = z.object({ orgId: z.uuid(), code: codeKeySchema, ...grantsSchema });
export type RoleCreateBody = z.infer<typeof roleCreateBodySchema>;
export const roleUpdateBodySchema = z.object(grantsSchema);
export type RoleUpdateBody = z.infer<typeof roleUpdateBodySchema>;

/** What the caller may grant: their own actions and menu items (everything for a platform administrator). */
export const grantablesSchema = z.object({
  actions: z.array(z.object({ code: permissionSchema, name: z.string() })),
  menus: z.array(z.object({ type: z.number().int(), items: z.array(menuItemSchema) })),
});
export type Grantables = z.infer<typeof grantablesSchema>;

export const PLATFORM_API = {
  orgTree: '/api/iot/v2/orgs/tree',
  orgs: '/api/iot/v2/orgs',
  users: '/api/iot/v2/users',
  roles: '/api/iot/v2/roles',
  grantables: '/api/iot/v2/permissions',
} as const;
