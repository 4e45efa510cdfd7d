// Cancelling a task: the reason is required (the server refuses a cancel without one) and kept in
// the task's story; a refusal is shown in the dialog, which stays open. Ctrl+Enter submits.
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@iotc/shared/errors';
import type { TaskRow } from '@iotc/shared/transport';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { useLang } from '../../../lib/language.ts';
import { useTransitionTask } from '../api/task-transition.ts';

/** The server's limit of a transition note. */
export const REASON_MAX = 500;

export function CancelModal({ task, onClose }: { task: Pick<TaskRow, 'id' | 'code'> | null; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const move = useTransitionTask();

  const submit = async (note: string) => {
    if (!task) return;
    await move.mutateAsync({ id: task.id, to: 'cancelled', note });
    void message.success(t('transport.task.moved', { code: task.code, status: t('transport.status.cancelled') }));
    onClose();
  };

  return (
    <ReasonDialog
      open={!!task}
      texts={{
        title: task ? t('transport.cancel.title', { code: task.code }) : null,
        label: t('transport.cancel.reason'),
        placeholder: t('transport.cancel.placeholder'),
        ok: t('transport.task.action.cancel'),
        cancel: t('transport.cancel.back'),
        required: errorText('TASK_CANCEL_REASON_REQUIRED', lang),
        tooLong: t('transport.cancel.tooLong', { max: REASON_MAX }),
      }}
      required
      maxLength={REASON_MAX}
      onSubmit={submit}
      onClose={onClose}
      testId="tt-cancel"
      inputId="tt-cancel-note"
      className="tt-cancel-modal"
      danger
      rows={4}
      autoFocus
      submitOnCtrlEnter
    />
  );
}
