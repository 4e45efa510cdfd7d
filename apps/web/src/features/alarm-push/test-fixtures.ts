// Data and a fake API for the message push tests (imported by tests only): one organisation with
// the four default levels, two policies, users and roles, a platform administrator signed in
// (or a user with the given permissions), and `request` answering the calls the screen makes, a
// test's own answers first.
import type { Mock } from 'vitest';
import { ALARM_API, DEFAULT_LEVELS, type LevelRow, type PolicyRow } from '@iotc/shared/alarm';
import { MASKED_SECRET, PUSH_API, type DeliveryDetail, type DeliveryRow, type PushRuleRow } from '@iotc/shared/alarm-push';
import { API, type UserInfo } from '@iotc/shared/auth';
import type { Page } from '@iotc/shared/envelope';
import { PLATFORM_API, type OrgNode, type Permission, type RoleRow, type UserRow } from '@iotc/shared/platform';
import type { RequestOptions } from '../../api/client.ts';

export const ORG = '11111111-1111-4111-8111-111111111111';
export const LEVEL_IDS = ['aaaaaaaa-0000-4000-8000-000000000001', 'aaaaaaaa-0000-4000-8000-000000000002', 'aaaaaaaa-0000-4000-8000-000000000003', 'aaaaaaaa-0000-4000-8000-000000000004'];
export const POLICY_IDS = ['bbbbbbbb-0000-4000-8000-000000000001', 'bbbbbbbb-0000-4000-8000-000000000002'];
export const USER_IDS = ['cccccccc-0000-4000-8000-000000000001', 'cccccccc-0000-4000-8000-000000000002'];
export const ROLE_IDS = ['dddddddd-0000-4000-8000-000000000001'];
export const RULE_IDS = ['eeeeeeee-0000-4000-8000-000000000001', 'eeeeeeee-0000-4000-8000-000000000002'];
export const DELIVERY_IDS = ['ffffffff-0000-4000-8000-000000000001', 'ffffffff-0000-4000-8000-000000000002'];
export const ALARM_ID = '99999999-0000-4000-8000-000000000001';

export const ADMIN: UserInfo = {
  id: 'u1',
  account: 'admin',
  name: 'Admin',
  orgId: ORG,
  orgName: 'Cold Chain Co',
  email: null,
  phone: null,
  roles: [],
  permissions: [],
  isPlatformAdmin: true,
  mustChangePassword: false,
};

/** A signed-in user who is no platform administrator and holds only `permissions`. */
export function userWith(permissions: Permission[]): UserInfo {
  return { ...ADMIN, id: 'u2', account: 'ops', name: 'Ops', isPlatformAdmin: false, permissions };
}

export const TREE: OrgNode[] = [{ id: ORG, parentId: null, code: 'cc', name: 'Cold Chain Co', kind: 'tenant', status: 'active', userCount: 2, createdAt: '2026-01-01T00:00:00Z', children: [] }];

export const LEVELS: LevelRow[] = DEFAULT_LEVELS.map((l, i) => ({
  ...l,
  id: LEVEL_IDS[i]!,
  orgId: ORG,
  orgName: 'Cold Chain Co',
  rulesUsing: 0,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-03-01T08:30:00Z',
}));

export const POLICIES: PolicyRow[] = ['Reefer temperature', 'Fleet speed'].map((name, i) => ({
  id: POLICY_IDS[i]!,
  orgId: ORG,
  orgName: 'Cold Chain Co',
  name,
  description: '',
  enabled: true,
  scope: 'all',
  targets: [],
  rules: [],
  activeAlarms: 0,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-03-01T08:30:00Z',
}));

export const USERS: UserRow[] = [
  ['zhang', 'Zhang Wei'],
  ['li', 'Li Na'],
].map(([account, name], i) => ({
  id: USER_IDS[i]!,
  account: account!,
  name: name!,
  orgId: ORG,
  orgName: 'Cold Chain Co',
  email: `${account}@example.com`,
  phone: null,
  status: 'active',
  mustChangePassword: false,
  roles: [],
  createdAt: '2026-01-01T00:00:00Z',
}));

export const ROLES: RoleRow[] = [
  { id: ROLE_IDS[0]!, orgId: ORG, orgName: 'Cold Chain Co', code: 'duty', name: 'On duty', nameZh: '值班员', nameEn: 'On duty', userCount: 3, permissions: [], menuIds: [], createdAt: '2026-01-01T00:00:00Z' },
];

export function page<T>(rows: T[]): Page<T> {
  return { rows, total: rows.length, page: 1, size: 10 };
}

export function ruleRow(over: Partial<PushRuleRow> = {}): PushRuleRow {
  return {
    id: RULE_IDS[0]!,
    orgId: ORG,
    orgName: 'Cold Chain Co',
    name: 'Urgent to duty officers',
    enabled: true,
    match: { policyIds: [POLICY_IDS[0]!], levelIds: [LEVEL_IDS[0]!], types: ['temp_high'] },
    events: ['opened', 'cleared'],
    language: 'en',
    timezone: 'Asia/Shanghai',
    quietFrom: null,
    quietTo: null,
    digestMinutes: null,
    templates: { subject: '[{level}] {device}', body: '' },
    steps: [
      { afterMinutes: 0, channels: ['in_app', 'email'], userIds: [USER_IDS[0]!], roleIds: [ROLE_IDS[0]!], emails: ['duty@example.com'], phones: [], webhooks: [], repeatMinutes: null },
      {
        afterMinutes: 15,
        channels: ['sms', 'webhook'],
        userIds: [],
        roleIds: [],
        emails: [],
        phones: ['13800000000'],
        webhooks: [{ url: 'https://hooks.example.com/alarms', secret: MASKED_SECRET }],
        repeatMinutes: 30,
      },
    ],
    deliveries: 12,
    failed: 2,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-03-01T08:30:00Z',
    ...over,
  };
}

export function deliveryRow(over: Partial<DeliveryRow> = {}): DeliveryRow {
  return {
    id: DELIVERY_IDS[0]!,
    orgId: ORG,
    alarmId: ALARM_ID,
    ruleId: RULE_IDS[0]!,
    ruleName: 'Urgent to duty officers',
    event: 'opened',
    step: 2,
    round: 1,
    channel: 'webhook',
    target: 'https://hooks.example.com/alarms',
    user: null,
    subject: '[Urgent] Reefer 07',
    body: 'Device Reefer 07 raised an alarm',
    status: 'failed',
    attempts: 5,
    nextAttemptAt: null,
    lastError: 'connect ECONNREFUSED',
    responseCode: 502,
    createdAt: '2026-03-01T08:30:00Z',
    sentAt: null,
    alarm: {
      type: 'temp_high',
      status: 'active',
      level: { id: LEVEL_IDS[0]!, code: 'urgent', nameZh: '紧急', nameEn: 'Urgent', color: '#f5222d' },
      device: { id: 'dev-1', deviceId: 'TRK-0007', name: 'Reefer 07' },
    },
    ...over,
  };
}

export function deliveryDetail(over: Partial<DeliveryDetail> = {}): DeliveryDetail {
  return {
    ...deliveryRow(),
    attemptLog: [
      { at: '2026-03-01T08:30:00Z', status: 'failed', responseCode: 502, error: 'Bad gateway', durationMs: 120, resend: false },
      { at: '2026-03-01T08:31:00Z', status: 'failed', responseCode: null, error: 'connect ECONNREFUSED', durationMs: 8, resend: true },
    ],
    ...over,
  };
}

export type Answer = (path: string, opts: RequestOptions) => unknown;

export interface FakeData {
  me?: UserInfo;
  rules?: PushRuleRow[];
  deliveries?: DeliveryRow[];
}

/** `request` answering the common calls; `own` answers first (undefined: not handled there). */
export function fakeApi(mock: Mock, own: Answer = () => undefined, data: FakeData = {}): void {
  mock.mockImplementation(async (path: string, opts: RequestOptions = {}) => {
    const mine = await own(path, opts);
    if (mine !== undefined) return mine;
    const method = opts.method ?? 'GET';
    if (path === API.info) return data.me ?? ADMIN;
    if (method !== 'GET') throw new Error(`unexpected call ${method} ${path}`);
    if (path === PLATFORM_API.orgTree) return TREE;
    if (path.startsWith(ALARM_API.levels)) return page(LEVELS);
    if (path === ALARM_API.policies) return page(POLICIES);
    if (path.startsWith(`${ALARM_API.policies}/`)) return POLICIES.find((p) => path.endsWith(p.id)) ?? Promise.reject(new Error('not found'));
    if (path === PLATFORM_API.users) return page(USERS);
    if (path === PLATFORM_API.roles) return page(ROLES);
    if (path === PUSH_API.rules) return page(data.rules ?? []);
    if (path === PUSH_API.deliveries) return page(data.deliveries ?? []);
    throw new Error(`unexpected call ${method} ${path}`);
  });
}

/** The calls that changed something (everything but GET and the user info, which is a POST). */
export function writes(mock: Mock): [string, RequestOptions][] {
  return (mock.mock.calls as [string, RequestOptions | undefined][]).filter(([p, o]) => (o?.method ?? 'GET') !== 'GET' && p !== API.info).map(([p, o]) => [p, o ?? {}]);
}

/** The GET calls made to `path`, with their query values. */
export function reads(mock: Mock, path: string): RequestOptions[] {
  return (mock.mock.calls as [string, RequestOptions | undefined][]).filter(([p, o]) => p === path && (o?.method ?? 'GET') === 'GET').map(([, o]) => o ?? {});
}

/** Retries `check` until it passes: the machine running the tests may be slow. */
export async function until(check: () => void, settle: () => Promise<void>, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > end) throw error;
      await settle();
    }
  }
}
