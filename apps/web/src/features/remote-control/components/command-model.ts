// What the remote-control screen shows of a command: status colours, the command and its
// parameters in words, times in the user's zone, who may do what to a row.
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { TERMINAL_CONTROL_ACTIONS, type CommandKind, type CommandRow, type CommandStatus } from '@iotc/shared/command';

export const STATUS_COLORS: Record<CommandStatus, string> = {
  pending_review: '#fa8c16',
  rejected: '#8c8c8c',
  sent: '#1677ff',
  acknowledged: '#52c41a',
  failed: '#f5222d',
  cancelled: '#bfbfbf',
};

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = dayjs(iso);
  return d.isValid() ? d.format(DATETIME_FORMAT) : '';
}

/** The command in words: "Set temperature set point: -18 °C". */
export function describeCommand(t: TFunction, kind: CommandKind, params: Record<string, unknown>): string {
  const name = t(`remoteControl.kind.${kind}`);
  if (kind === 'report_interval') return `${name}: ${t('remoteControl.params.seconds', { n: params.seconds })}`;
  if (kind === 'set_point') return `${name}: ${String(params.celsius)} °C`;
  if (kind === 'custom') return `${name}: ${String(params.name)} ${JSON.stringify(params.payload ?? {})}`;
  if (kind === 'text_message') return `${name}: ${String(params.text)}`;
  if (kind === 'terminal_control') {
    const action = TERMINAL_CONTROL_ACTIONS.find((a) => a === params.action);
    return action ? `${name}: ${t(`remoteControl.control.${action}`)}` : name;
  }
  return name;
}

/** The outcome in words: the device's message, or why it failed. */
export function resultText(t: TFunction, row: Pick<CommandRow, 'status' | 'failure' | 'result' | 'reviewReason'>): string {
  if (row.status === 'rejected') return row.reviewReason;
  if (row.status === 'failed') {
    const why = row.failure ? t(`remoteControl.failure.${row.failure}`) : '';
    return row.result && row.failure !== 'timeout' ? `${why}: ${row.result}` : why;
  }
  return row.result ?? '';
}

const person = (p: { name: string; account: string } | null) => (p ? (p.name && p.name !== p.account ? `${p.name} (${p.account})` : p.account) : '');

export interface CommandView {
  id: string;
  row: CommandRow;
  device: string;
  command: string;
  requester: string;
  requestedAt: string;
  reviewer: string;
  status: CommandStatus;
  sentAt: string;
  ackAt: string;
  result: string;
}

export function toCommandView(t: TFunction, row: CommandRow): CommandView {
  return {
    id: row.id,
    row,
    device: row.deviceName && row.deviceName !== row.deviceId ? `${row.deviceName} (${row.deviceId})` : row.deviceId,
    command: describeCommand(t, row.kind, row.params),
    requester: person(row.requester),
    requestedAt: formatTime(row.requestedAt),
    reviewer: person(row.reviewer),
    status: row.status,
    sentAt: formatTime(row.sentAt),
    ackAt: formatTime(row.ackAt),
    result: resultText(t, row),
  };
}

/** A reviewer reviews pending requests of others. */
export const canReview = (row: CommandRow, userId: string | undefined, reviewer: boolean) => reviewer && row.status === 'pending_review' && row.requester.id !== userId;
/** The requester cancels while the request waits. */
export const canCancel = (row: CommandRow, userId: string | undefined) => row.status === 'pending_review' && !!userId && row.requester.id === userId;
