// Faults, their repairs and a fake API for the faults tests (imported by tests only): `request`
// answers the calls the screen makes from a small world and records them.
import type { Mock } from 'vitest';
import { API, type UserInfo } from '@iotc/shared/auth';
import type { Page } from '@iotc/shared/envelope';
import { FAULT_API, type FaultDetail, type FaultRow, type FaultStats, type RepairBody } from '@iotc/shared/fault';
import type { RequestOptions } from '../../api/client.ts';
import { testUser } from '../../test/user.ts';

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const ORG = uuid(1);

export function user(permissions: string[]): UserInfo {
  return testUser(permissions, { account: 'fixer', name: 'Fixer', orgId: ORG, orgName: 'Cold Chain Co' });
}

export function fault(n: number, over: Partial<FaultDetail> = {}): FaultDetail {
  return {
    id: uuid(100 + n),
    orgId: ORG,
    orgName: 'Cold Chain Co',
    kind: 'sensor_failure',
    status: 'open',
    device: { id: uuid(200 + n), deviceId: `8600000000000${n}`, name: `Probe ${n}` },
    asset: { id: uuid(300 + n), kind: 'vehicle', code: `沪A0000${n}`, name: `Reefer ${n}` },
    firstAt: `2026-03-01T0${n}:00:00.000Z`,
    lastAt: `2026-03-01T0${n}:30:00.000Z`,
    count: n,
    detail: { reason: 'temperature sensor sends no reading', reports: 4 },
    resolvedAt: null,
    resolvedBy: null,
    repairCount: 0,
    repairs: [],
    ...over,
  };
}

/** The list row of a fault (no repairs). */
export function row(f: FaultDetail): FaultRow {
  const { repairs: _repairs, ...rest } = f;
  return rest;
}

export const STATS: FaultStats = {
  byKind: [
    { kind: 'sensor_failure', count: 4 },
    { kind: 'gps_failure', count: 2 },
    { kind: 'low_battery', count: 1 },
  ],
  byStatus: [
    { status: 'open', count: 3 },
    { status: 'repairing', count: 2 },
    { status: 'resolved', count: 2 },
  ],
};

export interface Call {
  path: string;
  opts: RequestOptions;
}

export interface FakeWorld {
  permissions: string[];
  faults: Map<string, FaultDetail>;
  calls: Call[];
}

export function newWorld(faults: FaultDetail[]): FakeWorld {
  return { permissions: ['device:read', 'fault:handle'], faults: new Map(faults.map((f) => [f.id, f])), calls: [] };
}

/** `request` answering the faults screen from `world`; a repair is added to its fault. */
export function fakeApi(mock: Mock, world: FakeWorld): void {
  mock.mockImplementation(async (path: string, opts: RequestOptions = {}) => {
    world.calls.push({ path, opts });
    const method = opts.method ?? 'GET';
    if (path === API.info) return user(world.permissions);
    if (path === FAULT_API.faults && method === 'GET') {
      const q = opts.query ?? {};
      const kinds = typeof q.kind === 'string' ? q.kind.split(',') : null;
      const rows = [...world.faults.values()].filter((f) => !kinds || kinds.includes(f.kind)).map(row);
      return { rows, total: rows.length, page: Number(q.page ?? 1), size: Number(q.size ?? 10) } satisfies Page<FaultRow>;
    }
    if (path === `${FAULT_API.faults}/stats`) return STATS;
    const m = /^\/api\/iot\/v2\/faults\/([^/]+)(\/repairs)?$/.exec(path);
    if (m) {
      const f = world.faults.get(decodeURIComponent(m[1]!));
      if (!f) throw new Error(`unknown fault ${m[1]}`);
      if (!m[2]) return f;
      const body = opts.body as RepairBody;
      const repairs = [...f.repairs, { id: f.repairs.length + 1, at: '2026-03-02T09:00:00.000Z', by: 'fixer', ...body }];
      const resolved = body.result !== 'in_progress';
      const next: FaultDetail = {
        ...f,
        repairs,
        repairCount: repairs.length,
        status: resolved ? 'resolved' : 'repairing',
        resolvedAt: resolved ? '2026-03-02T09:00:00.000Z' : null,
        resolvedBy: resolved ? 'fixer' : null,
      };
      world.faults.set(f.id, next);
      return next;
    }
    throw new Error(`unexpected call ${method} ${path}`);
  });
}

export function writes(world: FakeWorld): Call[] {
  return world.calls.filter((c) => (c.opts.method ?? 'GET') !== 'GET' && c.path !== API.info);
}
