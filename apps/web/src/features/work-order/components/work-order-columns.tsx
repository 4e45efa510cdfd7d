// The work orders table as a declaration: code, title, priority and status as coloured tags,
// assignee, due time (an overdue one as a red tag), alarms, who created it and when; sortable
// by priority, due time and creation. Rows open their details.
import { ProfileOutlined } from '@ant-design/icons';
import { WORK_ORDER_PRIORITIES, WORK_ORDER_STATUSES } from '@iotc/shared/work-order';
import type { ButtonLookupItem, TableDescriptor, TopButton } from '../../../components/data-table/types.ts';
import { formatTime, OVERDUE_COLOR, PRIORITY_COLORS, STATUS_COLORS, type WorkOrderView } from './work-order-model.ts';

const STATUS_BUTTONS: ButtonLookupItem[] = WORK_ORDER_STATUSES.map((s) => ({
  key: s,
  text: `workOrder.status.${s}`,
  butType: 'tag',
  background: STATUS_COLORS[s],
  color: '#fff',
}));

const PRIORITY_BUTTONS: ButtonLookupItem[] = WORK_ORDER_PRIORITIES.map((p) => ({
  key: p,
  text: `workOrder.priority.${p}`,
  butType: 'tag',
  background: `${PRIORITY_COLORS[p]}14`,
  color: PRIORITY_COLORS[p],
}));

/** One red tag per overdue row, keyed by the row's id (its `dueAt` cell holds the id). */
export function overdueButtons(rows: readonly WorkOrderView[], overdueWord: string): ButtonLookupItem[] {
  return rows
    .filter((r) => r.overdue)
    .map((r) => ({ key: r.id, text: `${formatTime(r.row.dueAt)} · ${overdueWord}`, butType: 'tag', background: '#fff1f0', color: OVERDUE_COLOR }));
}

export interface WorkOrderTableOptions {
  rows: readonly WorkOrderView[];
  overdueWord: string;
  onDetails: (row: WorkOrderView) => void;
  topButtons: TopButton[];
  /** The column preference cookies carry the user's id, so each user keeps their own. */
  userId: string | undefined;
}

export function workOrderDescriptor(o: WorkOrderTableOptions): TableDescriptor<WorkOrderView> {
  return {
    id: o.userId ? `work-orders-${o.userId}` : 'work-orders',
    rowKey: 'id',
    // What fits 1280 px shows (cells wrap); who created it and when are behind custom columns.
    columns: [
      { key: 'workOrder.col.code', value: 'code', width: 170, fixedLeft: true, testId: 'wo-cell-code' },
      { key: 'workOrder.col.title', value: 'title', width: 220, testId: 'wo-cell-title' },
      { key: 'workOrder.col.priority', value: 'priority', type: 'button', buttons: PRIORITY_BUTTONS, sortable: true, width: 100, testId: 'wo-cell-priority' },
      { key: 'workOrder.col.status', value: 'status', type: 'button', buttons: STATUS_BUTTONS, width: 110, testId: 'wo-cell-status' },
      { key: 'workOrder.col.assignee', value: 'assignee', width: 160, testId: 'wo-cell-assignee' },
      { key: 'workOrder.col.dueAt', value: 'dueAt', type: 'button', buttons: overdueButtons(o.rows, o.overdueWord), sortable: true, nowrap: true, width: 230, testId: 'wo-cell-due' },
      { key: 'workOrder.col.alarmCount', value: 'alarmCount', width: 90, testId: 'wo-cell-alarms' },
      { key: 'workOrder.col.createdBy', value: 'createdBy', width: 120, hidden: true },
      { key: 'workOrder.col.createdAt', value: 'createdAt', type: 'datetime', sortable: true, hidden: true },
      { key: 'workOrder.col.org', value: 'orgName', width: 160, hidden: true },
    ],
    rowButtons: [{ name: 'workOrder.action.details', icon: <ProfileOutlined />, showtype: 'i', onClick: o.onDetails, testId: 'wo-row-details' }],
    topButtons: o.topButtons,
    pageSizes: 'main',
    actionWidth: 80,
  };
}
