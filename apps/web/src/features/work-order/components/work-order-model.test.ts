import { describe, expect, it } from 'vitest';
import { WORK_ORDER_STATUSES, WORK_ORDER_TRANSITIONS } from '@iotc/shared/work-order';
import { order } from '../test-fixtures.ts';
import { statusActions, toWorkOrderView, uuidOrNull } from './work-order-model.ts';

describe('work order model', () => {
  it('offers exactly the moves the status allows, asking for a note to resolve and a confirmation to close', () => {
    for (const status of WORK_ORDER_STATUSES) expect(statusActions(status).map((a) => a.to)).toEqual([...WORK_ORDER_TRANSITIONS[status]]);
    expect(statusActions('open')).toEqual([
      { to: 'in_progress', name: 'workOrder.action.start', asks: 'none' },
      { to: 'resolved', name: 'workOrder.action.resolve', asks: 'note' },
      { to: 'closed', name: 'workOrder.action.close', asks: 'confirm' },
    ]);
    expect(statusActions('resolved')[0]).toEqual({ to: 'in_progress', name: 'workOrder.action.reopen', asks: 'none' });
    expect(statusActions('closed')).toEqual([]);
  });

  it('puts the id in the due cell of an overdue order only', () => {
    const late = order(1, { dueAt: '2026-03-01T12:00:00.000Z', overdue: true });
    expect(toWorkOrderView(late).dueAt).toBe(late.id);
    expect(toWorkOrderView({ ...late, overdue: false }).dueAt).toMatch(/^2026-03-01 \d\d:00:00$/);
    expect(toWorkOrderView(order(2)).dueAt).toBe('');
  });

  it('reads only uuids from the address', () => {
    expect(uuidOrNull(' 00000000-0000-4000-8000-000000000101 ')).toBe('00000000-0000-4000-8000-000000000101');
    expect(uuidOrNull('../x')).toBeNull();
    expect(uuidOrNull(null)).toBeNull();
  });
});
