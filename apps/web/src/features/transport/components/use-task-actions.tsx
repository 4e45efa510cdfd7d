// The status moves, the hand-over and the copy of a task, shared by the table's row buttons and
// the drawer: starting, arriving, resuming and completing ask for a confirmation; cancelling asks
// why and a hand-over asks its details (their dialogs are the `dialog` element to render); a copy
// opens where `onCopied` says.
import { useState, type ReactNode } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TaskDetail, TaskRow } from '@iotc/shared/transport';
import { useConfirmAction } from '../../../lib/use-confirm-action.ts';
import { useCopyTask } from '../api/task-copy.ts';
import { useTransitionTask } from '../api/task-transition.ts';
import { CancelModal } from './cancel-modal.tsx';
import { HandoverModal, type HandoverTarget } from './handover-modal.tsx';
import type { TaskAction } from './task-model.ts';

export interface TaskActions {
  run: (task: Pick<TaskRow, 'id' | 'code'>, action: TaskAction) => void;
  copy: (task: Pick<TaskRow, 'id' | 'code'>) => void;
  /** Opens the hand-over dialog (the driver is offered as the party handing over). */
  handover: (task: HandoverTarget) => void;
  dialog: ReactNode;
  pendingTo: string | null;
}

export function useTaskActions(onCopied?: (task: TaskDetail) => void): TaskActions {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const confirm = useConfirmAction();
  const move = useTransitionTask();
  const copier = useCopyTask();
  const [cancelling, setCancelling] = useState<Pick<TaskRow, 'id' | 'code'> | null>(null);
  const [handing, setHanding] = useState<HandoverTarget | null>(null);

  const run = (task: Pick<TaskRow, 'id' | 'code'>, action: TaskAction) => {
    if (action.asks === 'reason') {
      setCancelling(task);
      return;
    }
    confirm({
      title: t(`${action.name}Confirm`, { code: task.code }),
      content: <div data-testid="tt-confirm-content">{t(`${action.name}Hint`)}</div>,
      okText: t(action.name),
      action: () => move.mutateAsync({ id: task.id, to: action.to, note: '' }),
      success: t('transport.task.moved', { code: task.code, status: t(`transport.status.${action.to}`) }),
    });
  };

  const copy = (task: Pick<TaskRow, 'id' | 'code'>) =>
    confirm({
      title: t('transport.task.action.copyConfirm', { code: task.code }),
      content: <div data-testid="tt-confirm-content">{t('transport.task.action.copyHint')}</div>,
      okText: t('transport.task.action.copy'),
      action: async () => {
        const made = await copier.mutateAsync(task.id);
        void message.success(t('transport.task.copied', { code: made.code }));
        onCopied?.(made);
      },
    });

  return {
    run,
    copy,
    handover: (task) => setHanding({ id: task.id, code: task.code, driverName: task.driverName }),
    pendingTo: move.isPending ? (move.variables?.to ?? null) : null,
    dialog: (
      <>
        <CancelModal task={cancelling} onClose={() => setCancelling(null)} />
        <HandoverModal task={handing} onClose={() => setHanding(null)} />
      </>
    ),
  };
}
