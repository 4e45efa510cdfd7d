// Work orders, their alarms and story, and a fake API for the work order tests (imported by
// tests only): `request` answers the calls the screen makes and records them.
import type { Mock } from 'vitest';
import type { AlarmRow } from '@iotc/shared/alarm';
import { API, type UserInfo } from '@iotc/shared/auth';
import type { Page } from '@iotc/shared/envelope';
import { WORK_ORDER_API, type AssigneeRow, type WorkOrderDetail, type WorkOrderEventRow, type WorkOrderRow, type WorkOrderStatus } from '@iotc/shared/work-order';
import type { RequestOptions } from '../../api/client.ts';
import { testUser } from '../../test/user.ts';

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const ORG = uuid(1);

export function user(permissions: string[]): UserInfo {
  return testUser(permissions, { orgId: ORG, orgName: 'Cold Chain Co' });
}

export function order(n: number, over: Partial<WorkOrderRow> = {}): WorkOrderRow {
  return {
    id: uuid(100 + n),
    code: `WO-20260301-000${n}`,
    orgId: ORG,
    orgName: 'Cold Chain Co',
    title: `Check reefer ${n}`,
    description: '',
    priority: 'medium',
    status: 'open',
    assignee: null,
    dueAt: null,
    overdue: false,
    source: 'manual',
    alarmCount: 0,
    createdBy: 'admin',
    createdAt: `2026-03-01T0${n}:00:00.000Z`,
    updatedAt: `2026-03-01T0${n}:00:00.000Z`,
    resolvedAt: null,
    closedAt: null,
    ...over,
  };
}

export function alarm(n: number, over: Partial<AlarmRow> = {}): AlarmRow {
  return {
    id: uuid(500 + n),
    orgId: ORG,
    orgName: 'Cold Chain Co',
    type: 'temp_high',
    status: 'active',
    level: { id: uuid(900), code: 'urgent', nameZh: '紧急', nameEn: 'Urgent', color: '#f5222d', priority: 1, sound: true },
    policyId: uuid(800),
    policyName: 'Cold chain',
    ruleId: 'r1',
    device: { id: uuid(600 + n), deviceId: `8600000000000${n}`, name: `Truck ${n}` },
    asset: null,
    taskId: null,
    task: null,
    startedAt: `2026-03-01T0${n}:00:00.000Z`,
    lastAt: `2026-03-01T0${n}:05:00.000Z`,
    endedAt: null,
    lat: null,
    lon: null,
    threshold: 8,
    unit: '°C',
    value: 9.3,
    peak: 12.1,
    count: 1,
    acknowledgedAt: null,
    acknowledgedBy: null,
    closedBy: null,
    closeReason: null,
    assignee: null,
    workOrder: null,
    sources: [],
    ...over,
  };
}

export function detail(row: WorkOrderRow, alarms: AlarmRow[] = []): WorkOrderDetail {
  return { ...row, alarms };
}

export const ASSIGNEES: AssigneeRow[] = [
  { id: uuid(41), account: 'li.wei', name: 'Li Wei', orgId: ORG, orgName: 'Cold Chain Co' },
  { id: uuid(42), account: 'anna', name: 'Anna Berg', orgId: ORG, orgName: 'Cold Chain Co' },
];

/** The totals of each status the tab counters read (a list call asking one row). */
export const TOTALS: Record<WorkOrderStatus, number> = { open: 3, in_progress: 2, resolved: 1, closed: 4 };

export interface Call {
  path: string;
  opts: RequestOptions;
}

export interface FakeWorld {
  permissions: string[];
  rows: WorkOrderRow[];
  details: Map<string, WorkOrderDetail>;
  events: Map<string, WorkOrderEventRow[]>;
  calls: Call[];
  /** A test's own answers first; undefined: not handled there. */
  own?: (path: string, opts: RequestOptions) => unknown;
}

export function newWorld(rows: WorkOrderRow[], details: WorkOrderDetail[] = [], events: [string, WorkOrderEventRow[]][] = []): FakeWorld {
  return { permissions: ['alarm:read', 'alarm:handle'], rows, details: new Map(details.map((d) => [d.id, d])), events: new Map(events), calls: [] };
}

/** `request` answering the calls of the work orders screen from `world`, recording each. */
export function fakeApi(mock: Mock, world: FakeWorld): void {
  mock.mockImplementation(async (path: string, opts: RequestOptions = {}) => {
    world.calls.push({ path, opts });
    const mine = await world.own?.(path, opts);
    if (mine !== undefined) return mine;
    const method = opts.method ?? 'GET';
    const base = WORK_ORDER_API.workOrders;
    if (path === API.info) return user(world.permissions);
    if (path.startsWith(WORK_ORDER_API.assignees)) return ASSIGNEES;
    if (path === base && method === 'GET') {
      const q = opts.query ?? {};
      const status = typeof q.status === 'string' ? q.status : undefined;
      if (q.size === 1) return { rows: [], total: status ? TOTALS[status as WorkOrderStatus] : 10, page: 1, size: 1 } satisfies Page<WorkOrderRow>;
      const rows = status ? world.rows.filter((r) => r.status === status) : world.rows;
      return { rows, total: rows.length, page: Number(q.page ?? 1), size: Number(q.size ?? 10) } satisfies Page<WorkOrderRow>;
    }
    if (path === base && method === 'POST') {
      const body = opts.body as { title: string };
      return order(9, { title: body.title, id: uuid(109), code: 'WO-20260301-0009' });
    }
    const m = /^\/api\/iot\/v2\/work-orders\/([^/]+)(?:\/(events|transition|comments|alarms))?$/.exec(path);
    if (m) {
      const id = decodeURIComponent(m[1]!);
      const d = world.details.get(id);
      if (!d) throw new Error(`unknown work order ${id}`);
      if (!m[2] && method === 'GET') return d;
      if (!m[2] && method === 'PUT') return { ...d, ...(opts.body as object) };
      if (m[2] === 'events') return world.events.get(id) ?? [];
      if (m[2] === 'transition') {
        const { to } = opts.body as { to: WorkOrderStatus };
        const next = { ...d, status: to };
        world.details.set(id, next);
        return next;
      }
      if (m[2] === 'comments') {
        const { text } = opts.body as { text: string };
        const list = [...(world.events.get(id) ?? []), { id: 99, at: '2026-03-02T08:00:00.000Z', kind: 'commented' as const, actor: 'operator', detail: { text } }];
        world.events.set(id, list);
        return list;
      }
    }
    throw new Error(`unexpected call ${method} ${path}`);
  });
}

/** The calls that changed something (not GET, and not the user info, which is a POST). */
export function writes(world: FakeWorld): Call[] {
  return world.calls.filter((c) => (c.opts.method ?? 'GET') !== 'GET' && c.path !== API.info);
}
