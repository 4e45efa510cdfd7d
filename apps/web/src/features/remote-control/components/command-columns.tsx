// The remote-control table as a declaration: device, command in words, requester and time,
// reviewer, status tag, sent and acknowledged times, result; row actions Approve, Reject (for
// reviewers, not on their own requests), Cancel (the requester, while pending) and Details.
import { CheckOutlined, CloseOutlined, ProfileOutlined, RollbackOutlined } from '@ant-design/icons';
import { COMMAND_STATUSES } from '@iotc/shared/command';
import type { ButtonLookupItem, TableDescriptor, TopButton } from '../../../components/data-table/types.ts';
import { canCancel, canReview, STATUS_COLORS, type CommandView } from './command-model.ts';

const STATUS_BUTTONS: ButtonLookupItem[] = COMMAND_STATUSES.map((s) => ({ key: s, text: `remoteControl.status.${s}`, butType: 'tag', background: STATUS_COLORS[s], color: '#fff' }));

export interface CommandTableOptions {
  userId: string | undefined;
  reviewer: boolean;
  topButtons: TopButton[];
  onApprove: (row: CommandView) => void;
  onReject: (row: CommandView) => void;
  onCancel: (row: CommandView) => void;
  onDetails: (row: CommandView) => void;
}

export function commandDescriptor(o: CommandTableOptions): TableDescriptor<CommandView> {
  return {
    id: o.userId ? `remote-control-${o.userId}` : 'remote-control',
    rowKey: 'id',
    // Cells wrap so the list fits 1280 px; reviewer, sent and acknowledged times are behind custom columns.
    columns: [
      { key: 'remoteControl.col.device', value: 'device', width: 200, fixedLeft: true, testId: 'rc-cell-device' },
      { key: 'remoteControl.col.command', value: 'command', width: 240, testId: 'rc-cell-command' },
      { key: 'remoteControl.col.requester', value: 'requester', width: 150, testId: 'rc-cell-requester' },
      { key: 'remoteControl.col.requestedAt', value: 'requestedAt', type: 'datetime', sortable: true },
      { key: 'remoteControl.col.reviewer', value: 'reviewer', width: 150, hidden: true, testId: 'rc-cell-reviewer' },
      { key: 'remoteControl.col.status', value: 'status', type: 'button', buttons: STATUS_BUTTONS, width: 110, testId: 'rc-cell-status' },
      { key: 'remoteControl.col.sentAt', value: 'sentAt', type: 'datetime', sortable: true, hidden: true },
      { key: 'remoteControl.col.ackAt', value: 'ackAt', type: 'datetime', hidden: true },
      { key: 'remoteControl.col.result', value: 'result', width: 200, testId: 'rc-cell-result' },
    ],
    rowButtons: [
      { name: 'remoteControl.action.approve', icon: <CheckOutlined />, showtype: 't', onClick: o.onApprove, hidden: (r) => !canReview(r.row, o.userId, o.reviewer), testId: 'rc-row-approve' },
      { name: 'remoteControl.action.reject', icon: <CloseOutlined />, showtype: 't', danger: true, onClick: o.onReject, hidden: (r) => !canReview(r.row, o.userId, o.reviewer), testId: 'rc-row-reject' },
      {
        name: 'remoteControl.action.cancel',
        icon: <RollbackOutlined />,
        showtype: 't',
        confirm: 'remoteControl.action.cancelConfirm',
        onClick: o.onCancel,
        hidden: (r) => !canCancel(r.row, o.userId),
        testId: 'rc-row-cancel',
      },
      { name: 'remoteControl.action.details', icon: <ProfileOutlined />, showtype: 'i', onClick: o.onDetails, testId: 'rc-row-details' },
    ],
    topButtons: o.topButtons,
    pageSizes: 'main',
    actionWidth: 200,
  };
}
