// What the work orders screen shows, worked out without React: the colours of statuses and
// priorities, times in the user's zone, a row as the table shows it, and which status actions
// an order offers (WORK_ORDER_TRANSITIONS: only the moves its status allows).
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { PATTERNS } from '@iotc/shared/validation';
import {
  WORK_ORDER_TRANSITIONS,
  type WorkOrderPriority,
  type WorkOrderRow,
  type WorkOrderStatus,
} from '@iotc/shared/work-order';

export const STATUS_COLORS: Record<WorkOrderStatus, string> = {
  open: '#fa8c16',
  in_progress: '#1677ff',
  resolved: '#52c41a',
  closed: '#8c8c8c',
};

export const PRIORITY_COLORS: Record<WorkOrderPriority, string> = {
  urgent: '#f5222d',
  high: '#fa8c16',
  medium: '#1677ff',
  low: '#8c8c8c',
};

/** The red of an overdue due time. */
export const OVERDUE_COLOR = '#cf1322';

/** An instant in the user's time zone, '' when absent or unreadable. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format(DATETIME_FORMAT) : '';
}

/** A uuid from the address, else null (an address is user input). */
export function uuidOrNull(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v && PATTERNS.uuid.test(v) ? v : null;
}

/** A status action of the drawer: where it moves the order and how it asks. */
export interface StatusAction {
  to: WorkOrderStatus;
  /** i18n key of the button. */
  name: 'workOrder.action.start' | 'workOrder.action.reopen' | 'workOrder.action.resolve' | 'workOrder.action.close';
  /** 'note': a dialog asking what was done; 'confirm': a confirmation; 'none': at once. */
  asks: 'note' | 'confirm' | 'none';
}

/** The actions an order in `status` offers, in the order of WORK_ORDER_TRANSITIONS. */
export function statusActions(status: WorkOrderStatus): StatusAction[] {
  return WORK_ORDER_TRANSITIONS[status].map((to): StatusAction => {
    if (to === 'resolved') return { to, name: 'workOrder.action.resolve', asks: 'note' };
    if (to === 'closed') return { to, name: 'workOrder.action.close', asks: 'confirm' };
    // Back to work: from open it starts, from resolved it reopens.
    return { to, name: status === 'open' ? 'workOrder.action.start' : 'workOrder.action.reopen', asks: 'none' };
  });
}

/** A row as the table shows it. */
export interface WorkOrderView {
  id: string;
  code: string;
  title: string;
  priority: WorkOrderPriority;
  status: WorkOrderStatus;
  assignee: string;
  /**
   * The due time; for an overdue order its id instead, which the column's lookup shows as a red
   * tag (so the sort field stays the API's `dueAt`).
   */
  dueAt: string;
  overdue: boolean;
  alarmCount: number;
  createdBy: string;
  createdAt: string;
  orgName: string;
  row: WorkOrderRow;
}

export function personText(p: { name: string; account: string } | null): string {
  return p ? `${p.name} (${p.account})` : '';
}

export function toWorkOrderView(row: WorkOrderRow): WorkOrderView {
  return {
    id: row.id,
    code: row.code,
    title: row.title,
    priority: row.priority,
    status: row.status,
    assignee: personText(row.assignee),
    dueAt: row.overdue ? row.id : formatTime(row.dueAt),
    overdue: row.overdue,
    alarmCount: row.alarmCount,
    createdBy: row.createdBy,
    createdAt: formatTime(row.createdAt),
    orgName: row.orgName,
    row,
  };
}
