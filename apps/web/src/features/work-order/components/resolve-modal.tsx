// Resolving a work order: what was done is required (the server refuses a resolution without
// it); a refusal is shown in the dialog, which stays open. Ctrl+Enter submits.
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@iotc/shared/errors';
import type { WorkOrderRow } from '@iotc/shared/work-order';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { useLang } from '../../../lib/language.ts';
import { useTransitionWorkOrder } from '../api/work-order-transition.ts';

/** The server's limit of a transition note. */
export const NOTE_MAX = 1000;

export interface ResolveModalProps {
  /** The order to resolve; null keeps the dialog closed. */
  order: WorkOrderRow | null;
  onClose: () => void;
}

export function ResolveModal({ order, onClose }: ResolveModalProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const move = useTransitionWorkOrder();

  const submit = async (note: string) => {
    if (!order) return;
    await move.mutateAsync({ id: order.id, to: 'resolved', note });
    void message.success(t('workOrder.action.moved', { status: t('workOrder.status.resolved') }));
    onClose();
  };

  return (
    <ReasonDialog
      open={!!order}
      texts={{
        title: order ? t('workOrder.resolve.title', { code: order.code }) : null,
        label: t('workOrder.resolve.note'),
        placeholder: t('workOrder.resolve.placeholder'),
        ok: t('workOrder.action.resolve'),
        cancel: t('common.cancel'),
        required: errorText('WORK_ORDER_RESOLUTION_REQUIRED', lang),
        tooLong: t('workOrder.resolve.noteTooLong', { max: NOTE_MAX }),
      }}
      required
      maxLength={NOTE_MAX}
      onSubmit={submit}
      onClose={onClose}
      testId="wo-resolve"
      inputId="wo-resolve-note"
      className="wo-resolve-modal"
      rows={4}
      autoFocus
      submitOnCtrlEnter
    />
  );
}
