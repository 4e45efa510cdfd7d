// Acknowledge, Assign, Open work order and Close as the alarm screens offer them: only with
// alarm:handle and never on a closed alarm (Acknowledge also not twice; a work order only for an
// alarm that has none). Close, Assign and Open work order ask in dialogs, which the screen renders
// (`dialog`); `onChanged` gets the alarm as the server answered.
import { useState, type ReactNode } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AlarmRow } from '@iotc/shared/alarm';
import { useAcknowledgeAlarm } from '../../../api/alarm-acknowledge.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { lazyPart } from '../../../components/lazy-part.tsx';

// The dialogs are fetched the first time one opens, not with the screens that list alarms.
const CloseAlarmModal = lazyPart(() => import('./close-alarm-modal.tsx').then((m) => m.CloseAlarmModal));
const AssignAlarmModal = lazyPart(() => import('./assign-alarm-modal.tsx').then((m) => m.AssignAlarmModal));
const OpenWorkOrderModal = lazyPart(() => import('./open-work-order-modal.tsx').then((m) => m.OpenWorkOrderModal));

export interface AlarmActions {
  canAcknowledge: (row: AlarmRow) => boolean;
  canClose: (row: AlarmRow) => boolean;
  acknowledge: (row: AlarmRow) => Promise<void>;
  canOpenWorkOrder: (row: AlarmRow) => boolean;
  /** Opens the close dialog for `row`. */
  close: (row: AlarmRow) => void;
  /** Opens the assign dialog for `row`. */
  assign: (row: AlarmRow) => void;
  /** Opens the new work order dialog for `row`. */
  openWorkOrder: (row: AlarmRow) => void;
  /** The id being acknowledged, if any. */
  acknowledging: string | undefined;
  dialog: ReactNode;
}

export function canHandle(can: boolean, row: Pick<AlarmRow, 'status'>): boolean {
  return can && row.status !== 'closed';
}

export function useAlarmActions(onChanged?: (row: AlarmRow) => void): AlarmActions {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const allowed = usePermission()('alarm:handle');
  const ack = useAcknowledgeAlarm();
  const [closing, setClosing] = useState<AlarmRow | null>(null);
  const [assigning, setAssigning] = useState<AlarmRow | null>(null);
  const [ordering, setOrdering] = useState<AlarmRow | null>(null);

  const acknowledge = async (row: AlarmRow) => {
    try {
      const done = await ack.mutateAsync(row.id);
      void message.success(t('alarm.action.acknowledged'));
      onChanged?.(done);
    } catch {
      // The HTTP client has already shown the server's reason.
    }
  };

  return {
    canAcknowledge: (row) => canHandle(allowed, row) && !row.acknowledgedAt,
    canClose: (row) => canHandle(allowed, row),
    canOpenWorkOrder: (row) => allowed && !row.workOrder,
    acknowledge,
    close: setClosing,
    assign: setAssigning,
    openWorkOrder: setOrdering,
    acknowledging: ack.isPending ? ack.variables : undefined,
    dialog: (
      <>
        <CloseAlarmModal
          when={closing !== null}
          alarm={closing}
          onCancel={() => setClosing(null)}
          onClosed={(row) => {
            setClosing(null);
            onChanged?.(row);
          }}
        />
        <AssignAlarmModal
          when={assigning !== null}
          alarm={assigning}
          onCancel={() => setAssigning(null)}
          onAssigned={(row) => {
            setAssigning(null);
            onChanged?.(row);
          }}
        />
        <OpenWorkOrderModal when={ordering !== null} alarm={ordering} onCancel={() => setOrdering(null)} onOpened={() => setOrdering(null)} />
      </>
    ),
  };
}
