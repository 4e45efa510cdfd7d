// Alarms, levels and users for the alarm feature's tests (never imported by the app).
import type { AlarmRow, LevelRow } from '@iotc/shared/alarm';
import type { UserInfo } from '@iotc/shared/auth';
import { testUser } from '../../test/user.ts';

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const URGENT = { id: uuid(901), code: 'urgent', nameZh: '紧急', nameEn: 'Urgent', color: '#f5222d', priority: 1, sound: true };
export const MINOR = { id: uuid(903), code: 'minor', nameZh: '次要', nameEn: 'Minor', color: '#fadb14', priority: 3, sound: false };

export function levelRow(level: typeof URGENT): LevelRow {
  return { ...level, orgId: 'o', orgName: 'Demo Logistics', rulesUsing: 1, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };
}

export const LEVELS: LevelRow[] = [levelRow(URGENT), levelRow(MINOR)];

export function alarm(n: number, over: Partial<AlarmRow> = {}): AlarmRow {
  return {
    id: uuid(n),
    orgId: 'o',
    orgName: 'Demo Logistics',
    type: 'temp_high',
    status: 'active',
    level: URGENT,
    policyId: uuid(500),
    policyName: 'Cold chain',
    ruleId: 'r1',
    device: { id: uuid(100 + n), deviceId: `86000000000${String(n).padStart(4, '0')}`, name: `Truck ${n}` },
    asset: { id: uuid(200 + n), kind: 'vehicle', code: `沪A0000${n}`, name: `Reefer ${n}` },
    taskId: null,
    task: null,
    startedAt: `2026-03-01T0${n % 10}:00:00.000Z`,
    lastAt: `2026-03-01T0${n % 10}:05:00.000Z`,
    endedAt: null,
    lat: 31 + n / 10,
    lon: 121,
    threshold: 8,
    unit: '°C',
    value: 9.3,
    peak: 12.15,
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

export function user(permissions: string[]): UserInfo {
  return testUser(permissions);
}
