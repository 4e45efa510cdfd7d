// Data and a fake API for the alarm configuration tests (imported by tests only): one
// organisation with the four default levels, a platform administrator signed in, and `request`
// answering the calls every screen makes, a test's own answers first.
import type { Mock } from 'vitest';
import { ALARM_API, DEFAULT_LEVELS, type LevelRow, type PolicyRow } from '@iotc/shared/alarm';
import { API, type UserInfo } from '@iotc/shared/auth';
import type { Page } from '@iotc/shared/envelope';
import { PLATFORM_API, type OrgNode } from '@iotc/shared/platform';
import type { RequestOptions } from '../../api/client.ts';

export const ORG = '11111111-1111-4111-8111-111111111111';
export const LEVEL_IDS = ['aaaaaaaa-0000-4000-8000-000000000001', 'aaaaaaaa-0000-4000-8000-000000000002', 'aaaaaaaa-0000-4000-8000-000000000003', 'aaaaaaaa-0000-4000-8000-000000000004'];

export const ME: UserInfo = {
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

export const TREE: OrgNode[] = [{ id: ORG, parentId: null, code: 'cc', name: 'Cold Chain Co', kind: 'tenant', status: 'active', userCount: 1, createdAt: '2026-01-01T00:00:00Z', children: [] }];

export const LEVELS: LevelRow[] = DEFAULT_LEVELS.map((l, i) => ({
  ...l,
  id: LEVEL_IDS[i]!,
  orgId: ORG,
  orgName: 'Cold Chain Co',
  rulesUsing: i === 0 ? 2 : 0,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-03-01T08:30:00Z',
}));

export function page<T>(rows: T[]): Page<T> {
  return { rows, total: rows.length, page: 1, size: 10 };
}

export function policyRow(over: Partial<PolicyRow> = {}): PolicyRow {
  return {
    id: 'bbbbbbbb-0000-4000-8000-000000000001',
    orgId: ORG,
    orgName: 'Cold Chain Co',
    name: 'Reefer temperature',
    description: 'Keep goods between 2 and 8 °C',
    enabled: true,
    scope: 'all',
    targets: [],
    rules: [
      { id: 'r1', type: 'temp_high', enabled: true, threshold: 8, durationS: 300, hysteresis: 0.5, levelId: LEVEL_IDS[0]!, schedule: null, places: [], allowedTimes: null, route: [] },
    ],
    activeAlarms: 3,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-03-01T08:30:00Z',
    ...over,
  };
}

export type Answer = (path: string, opts: RequestOptions) => unknown;

/** `request` answering the common calls; `own` answers first (undefined: not handled there). */
export function fakeApi(mock: Mock, own: Answer = () => undefined, policies: PolicyRow[] = []): void {
  mock.mockImplementation(async (path: string, opts: RequestOptions = {}) => {
    const mine = await own(path, opts);
    if (mine !== undefined) return mine;
    if (path === API.info) return ME;
    if (path === PLATFORM_API.orgTree) return TREE;
    if (path.startsWith(ALARM_API.levels) && (opts.method ?? 'GET') === 'GET') return page(LEVELS);
    if (path === ALARM_API.policies && (opts.method ?? 'GET') === 'GET') return page(policies);
    throw new Error(`unexpected call ${opts.method ?? 'GET'} ${path}`);
  });
}

/** The calls that changed something (everything but GET and the user info, which is a POST). */
export function writes(mock: Mock): [string, RequestOptions][] {
  return (mock.mock.calls as [string, RequestOptions | undefined][]).filter(([p, o]) => (o?.method ?? 'GET') !== 'GET' && p !== API.info).map(([p, o]) => [p, o ?? {}]);
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
