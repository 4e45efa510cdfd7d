// The alarm tables as declarations: level as a tag in its colour, type, device, asset, times,
// duration, value / peak with the unit, count, status tag, who acknowledged it, the policy and
// the transport task (hidden but on the task alarms screen). What fits 1280 px shows, the rest is
// behind custom columns; cells wrap rather than being cut;
// row buttons Details, Acknowledge and Close (the flow table also Assign and Open work order). The
// query table sorts by start, level priority and peak; the real-time table shows the active alarms
// newest first and does not sort.
import { CheckOutlined, CloseCircleOutlined, FileAddOutlined, ProfileOutlined, UserSwitchOutlined } from '@ant-design/icons';
import { ALARM_STATUSES, ALARM_TYPES } from '@iotc/shared/alarm';
import type { Lang } from '@iotc/shared/i18n';
import type { ButtonLookupItem, RowButton, TableColumn, TableDescriptor, TopButton } from '../../../components/data-table/types.ts';
import { ALARM_STATUS_COLORS, levelName, type AlarmView, type LevelInfo } from './alarm-model.ts';
import { tagColoursOn } from '../../../lib/color.ts';
import type { AlarmActions } from './use-alarm-actions.tsx';

export function levelButtons(levels: readonly LevelInfo[], lang: Lang): ButtonLookupItem[] {
  return levels.map((l) => ({ key: l.id, text: levelName(l, lang), butType: 'tag', ...tagColoursOn(l.color) }));
}

const STATUS_BUTTONS: ButtonLookupItem[] = ALARM_STATUSES.map((s) => ({
  key: s,
  text: `alarm.status.${s}`,
  butType: 'tag',
  background: ALARM_STATUS_COLORS[s],
  color: '#fff',
}));

const TYPE_TEXTS: Record<string, string> = Object.fromEntries(ALARM_TYPES.map((type) => [type, `alarm.type.${type}`]));

function columns(levels: readonly LevelInfo[], lang: Lang, sortable: boolean): TableColumn<AlarmView>[] {
  return [
    { key: 'alarm.col.level', value: 'priority', type: 'button', buttons: levelButtons(levels, lang), sortable, width: 100, fixedLeft: true, testId: 'alarm-cell-level' },
    { key: 'alarm.col.type', value: 'type', type: 'map', textMap: TYPE_TEXTS, width: 150, fixedLeft: true, testId: 'alarm-cell-type' },
    { key: 'alarm.col.deviceId', value: 'deviceId', width: 160, testId: 'alarm-cell-device-id' },
    { key: 'alarm.col.deviceName', value: 'deviceName', width: 150 },
    { key: 'alarm.col.asset', value: 'asset', width: 180, hidden: true },
    { key: 'alarm.col.startedAt', value: 'startedAt', type: 'datetime', sortable },
    { key: 'alarm.col.endedAt', value: 'endedAt', type: 'datetime', hidden: true },
    { key: 'alarm.col.duration', value: 'duration', width: 120 },
    { key: 'alarm.col.valuePeak', value: 'peak', sortable, width: 150, testId: 'alarm-cell-value' },
    { key: 'alarm.col.count', value: 'count', width: 80, hidden: true },
    { key: 'alarm.col.status', value: 'status', type: 'button', buttons: STATUS_BUTTONS, width: 100, testId: 'alarm-cell-status' },
    { key: 'alarm.col.acknowledged', value: 'acknowledged', width: 220, hidden: true },
    { key: 'alarm.col.policy', value: 'policyName', width: 160, hidden: true },
    { key: 'alarm.col.task', value: 'task', width: 170, hidden: true, testId: 'alarm-cell-task' },
    { key: 'alarm.col.assignee', value: 'assignee', width: 120, hidden: true, testId: 'alarm-cell-assignee' },
    { key: 'alarm.col.workOrder', value: 'workOrder', width: 160, hidden: true, testId: 'alarm-cell-work-order' },
    { key: 'alarm.col.org', value: 'orgName', width: 160, hidden: true },
  ];
}

function rowButtons(actions: AlarmActions, onDetails: (row: AlarmView) => void, flow = false): RowButton<AlarmView>[] {
  return [
    { name: 'alarm.action.details', icon: <ProfileOutlined />, showtype: 'i', onClick: onDetails, testId: 'alarm-row-details' },
    {
      name: 'alarm.action.acknowledge',
      icon: <CheckOutlined />,
      showtype: 'i',
      onClick: (v) => void actions.acknowledge(v.row),
      hidden: (v) => !actions.canAcknowledge(v.row),
      disabled: (v) => actions.acknowledging === v.id,
      testId: 'alarm-row-acknowledge',
    },
    ...(flow
      ? ([
          { name: 'alarm.action.assign', icon: <UserSwitchOutlined />, showtype: 'i', onClick: (v) => actions.assign(v.row), hidden: (v) => !actions.canClose(v.row), testId: 'alarm-row-assign' },
          {
            name: 'alarm.action.workOrder',
            icon: <FileAddOutlined />,
            showtype: 'i',
            onClick: (v) => actions.openWorkOrder(v.row),
            hidden: (v) => !actions.canOpenWorkOrder(v.row),
            testId: 'alarm-row-work-order',
          },
        ] satisfies RowButton<AlarmView>[])
      : []),
    {
      name: 'alarm.action.close',
      icon: <CloseCircleOutlined />,
      showtype: 'i',
      danger: true,
      onClick: (v) => actions.close(v.row),
      hidden: (v) => !actions.canClose(v.row),
      testId: 'alarm-row-close',
    },
  ];
}

export interface AlarmTableOptions {
  levels: readonly LevelInfo[];
  lang: Lang;
  actions: AlarmActions;
  onDetails: (row: AlarmView) => void;
  topButtons?: TopButton[];
  /** The column preference cookies carry the user's id, so each user keeps their own. */
  userId: string | undefined;
  /** The transport tasks' alarms: the task column shown (and column preferences of their own). */
  tasks?: boolean;
}

export function alarmQueryDescriptor(o: AlarmTableOptions): TableDescriptor<AlarmView> {
  return {
    id: o.userId ? `alarm-query-${o.userId}` : 'alarm-query',
    rowKey: 'id',
    columns: columns(o.levels, o.lang, true),
    rowButtons: rowButtons(o.actions, o.onDetails),
    topButtons: o.topButtons,
    pageSizes: 'main',
    actionWidth: 120,
  };
}

/** The active alarms: no end, no status (all active) and no sorting; rows change live. */
export function alarmRealtimeDescriptor(o: AlarmTableOptions): TableDescriptor<AlarmView> {
  const hide = new Set<string>(['status', 'deviceName']);
  const show = new Set<string>(['acknowledged']);
  const name = o.tasks ? 'alarm-task-realtime' : 'alarm-realtime';
  return {
    id: o.userId ? `${name}-${o.userId}` : name,
    rowKey: 'id',
    columns: columns(o.levels, o.lang, false).map((c) =>
      hide.has(c.value) ? { ...c, hidden: true } : show.has(c.value) || (o.tasks && c.value === 'task') ? { ...c, hidden: false } : c,
    ),
    rowButtons: rowButtons(o.actions, o.onDetails),
    pageSizes: 'main',
    actionWidth: 120,
    immutableRows: true,
  };
}

/**
 * The alarm flow: who acknowledged and handles each alarm and its work order, with the handling
 * buttons (acknowledge, assign, open work order, close) on every row.
 */
export function alarmFlowDescriptor(o: AlarmTableOptions): TableDescriptor<AlarmView> {
  const show = new Set<string>(['assignee', 'workOrder']);
  const hide = new Set<string>(['deviceName', 'duration', 'peak']);
  return {
    id: o.userId ? `alarm-flow-${o.userId}` : 'alarm-flow',
    rowKey: 'id',
    columns: columns(o.levels, o.lang, true).map((c) => (show.has(c.value) ? { ...c, hidden: false } : hide.has(c.value) ? { ...c, hidden: true } : c)),
    rowButtons: rowButtons(o.actions, o.onDetails, true),
    topButtons: o.topButtons,
    pageSizes: 'main',
    actionWidth: 170,
  };
}
