// The tasks table as a declaration: code, goods (with the high-value tag and the declared value),
// customer, carrier, devices, origin → destination, planned times, status (with the red abnormal
// tag and why), when it started and arrived (recognised or by hand) and whether it was on time.
// At 1280 px the table shows what tells tasks apart (code, goods, carrier, route, planned start,
// status); customer, devices, planned arrival, start, arrival and on time are behind custom columns.
// Row buttons follow the status: Details always; for writers Edit until final, Copy, the moves,
// and Hand over while in transit or arrived.
import { CheckCircleOutlined, CloseCircleOutlined, CopyOutlined, EditOutlined, EnvironmentOutlined, PlayCircleOutlined, ProfileOutlined, SwapOutlined } from '@ant-design/icons';
import type { RowButton, TableDescriptor, TopButton } from '../../../components/data-table/types.ts';
import { canHandOver, isClosed, taskActions, type TaskAction, type TaskView } from './task-model.ts';

export interface TaskTableOptions {
  onDetails: (row: TaskView) => void;
  onEdit: (row: TaskView) => void;
  onCopy: (row: TaskView) => void;
  onMove: (row: TaskView, action: TaskAction) => void;
  onHandover: (row: TaskView) => void;
  canWrite: boolean;
  topButtons: TopButton[];
  userId: string | undefined;
}

const MOVE_ICONS = {
  in_transit: <PlayCircleOutlined />,
  arrived: <EnvironmentOutlined />,
  completed: <CheckCircleOutlined />,
  cancelled: <CloseCircleOutlined />,
} as const;

/** The row button of one move, shown where the row's status allows it. */
function moveButton(to: 'in_transit' | 'arrived' | 'completed' | 'cancelled', name: TaskAction['name'], o: TaskTableOptions, from?: TaskView['row']['status']): RowButton<TaskView> {
  const actionOf = (row: TaskView) => taskActions(row.row.status).find((a) => a.to === to && a.name === name);
  return {
    name,
    icon: MOVE_ICONS[to],
    showtype: 'i',
    danger: to === 'cancelled',
    hidden: (row) => !actionOf(row) || (from !== undefined && row.row.status !== from),
    onClick: (row) => {
      const action = actionOf(row);
      if (action) o.onMove(row, action);
    },
    testId: `tt-row-${to === 'in_transit' ? (name === 'transport.task.action.resume' ? 'resume' : 'start') : to}`,
  };
}

export function taskDescriptor(o: TaskTableOptions): TableDescriptor<TaskView> {
  const writes: RowButton<TaskView>[] = o.canWrite
    ? [
        { name: 'transport.task.action.edit', icon: <EditOutlined />, showtype: 'i', hidden: (r) => isClosed(r.row.status), onClick: o.onEdit, testId: 'tt-row-edit' },
        { name: 'transport.task.action.copy', icon: <CopyOutlined />, showtype: 'i', onClick: o.onCopy, testId: 'tt-row-copy' },
        moveButton('in_transit', 'transport.task.action.start', o, 'pending'),
        moveButton('arrived', 'transport.task.action.arrive', o),
        moveButton('completed', 'transport.task.action.complete', o),
        { name: 'transport.task.action.handover', icon: <SwapOutlined />, showtype: 'i', hidden: (r) => !canHandOver(r.row.status), onClick: o.onHandover, testId: 'tt-row-handover' },
        moveButton('cancelled', 'transport.task.action.cancel', o),
      ]
    : [];
  return {
    id: o.userId ? `transport-tasks-${o.userId}` : 'transport-tasks',
    rowKey: 'id',
    columns: [
      { key: 'transport.task.col.code', value: 'code', width: 170, fixedLeft: true, testId: 'tt-cell-code' },
      { key: 'transport.task.col.goods', value: 'goods', type: 'html', width: 240, testId: 'tt-cell-goods' },
      { key: 'transport.task.col.customer', value: 'customer', width: 140, hidden: true, testId: 'tt-cell-customer' },
      { key: 'transport.task.col.carrier', value: 'carrier', width: 160, testId: 'tt-cell-carrier' },
      { key: 'transport.task.col.devices', value: 'devices', type: 'tags', width: 180, hidden: true, testId: 'tt-cell-devices' },
      { key: 'transport.task.col.places', value: 'places', width: 220, testId: 'tt-cell-places' },
      { key: 'transport.task.col.plannedStart', value: 'plannedStart', type: 'datetime', sortable: true, testId: 'tt-cell-planned-start' },
      { key: 'transport.task.col.plannedArrival', value: 'plannedArrival', type: 'datetime', sortable: true, hidden: true, testId: 'tt-cell-planned-arrival' },
      { key: 'transport.task.col.status', value: 'status', type: 'html', width: 230, testId: 'tt-cell-status' },
      { key: 'transport.task.col.startedAt', value: 'startedAt', width: 210, hidden: true, testId: 'tt-cell-started' },
      { key: 'transport.task.col.arrivedAt', value: 'arrivedAt', width: 210, hidden: true, testId: 'tt-cell-arrived' },
      { key: 'transport.task.col.onTime', value: 'onTime', width: 90, hidden: true, testId: 'tt-cell-on-time' },
      { key: 'transport.task.col.org', value: 'orgName', width: 160, hidden: true },
    ],
    rowButtons: [{ name: 'transport.task.action.details', icon: <ProfileOutlined />, showtype: 'i', onClick: o.onDetails, testId: 'tt-row-details' }, ...writes],
    topButtons: o.topButtons,
    pageSizes: 'main',
    actionWidth: o.canWrite ? 220 : 80,
  };
}
