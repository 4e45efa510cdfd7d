// The faults table as a declaration: device id and name, asset, kind and status as coloured
// tags, first and last seen, occurrences, what was seen and the repairs; sortable by first and
// last seen and by occurrences. Rows open their details.
import { ProfileOutlined } from '@ant-design/icons';
import { FAULT_KINDS, FAULT_STATUSES } from '@iotc/shared/fault';
import type { ButtonLookupItem, TableDescriptor, TopButton } from '../../../components/data-table/types.ts';
import { KIND_COLORS, STATUS_COLORS, type FaultView } from './fault-model.ts';

const KIND_BUTTONS: ButtonLookupItem[] = FAULT_KINDS.map((k) => ({
  key: k,
  text: `fault.kind.${k}`,
  butType: 'tag',
  background: `${KIND_COLORS[k]}14`,
  color: KIND_COLORS[k],
}));

const STATUS_BUTTONS: ButtonLookupItem[] = FAULT_STATUSES.map((s) => ({
  key: s,
  text: `fault.status.${s}`,
  butType: 'tag',
  background: STATUS_COLORS[s],
  color: '#fff',
}));

export function faultDescriptor(o: { onDetails: (row: FaultView) => void; topButtons: TopButton[]; userId: string | undefined }): TableDescriptor<FaultView> {
  return {
    id: o.userId ? `faults-${o.userId}` : 'faults',
    rowKey: 'id',
    // Cells wrap so the list fits 1280 px; asset and first seen are behind custom columns.
    columns: [
      { key: 'alarm.col.deviceId', value: 'deviceId', width: 160, fixedLeft: true, testId: 'fault-cell-device-id' },
      { key: 'alarm.col.deviceName', value: 'deviceName', width: 150, testId: 'fault-cell-device-name' },
      { key: 'alarm.col.asset', value: 'asset', width: 170, hidden: true },
      { key: 'fault.col.kind', value: 'kind', type: 'button', buttons: KIND_BUTTONS, width: 130, testId: 'fault-cell-kind' },
      { key: 'fault.col.status', value: 'status', type: 'button', buttons: STATUS_BUTTONS, width: 100, testId: 'fault-cell-status' },
      { key: 'fault.col.firstAt', value: 'firstAt', type: 'datetime', sortable: true, hidden: true },
      { key: 'fault.col.lastAt', value: 'lastAt', type: 'datetime', sortable: true, testId: 'fault-cell-last' },
      { key: 'fault.col.count', value: 'count', sortable: true, width: 110, testId: 'fault-cell-count' },
      { key: 'fault.col.seen', value: 'seen', width: 280, testId: 'fault-cell-seen' },
      { key: 'fault.col.repairCount', value: 'repairCount', width: 90, testId: 'fault-cell-repairs' },
      { key: 'alarm.col.org', value: 'orgName', width: 160, hidden: true },
    ],
    rowButtons: [{ name: 'fault.action.details', icon: <ProfileOutlined />, showtype: 'i', onClick: o.onDetails, testId: 'fault-row-details' }],
    topButtons: o.topButtons,
    pageSizes: 'main',
    actionWidth: 80,
  };
}
