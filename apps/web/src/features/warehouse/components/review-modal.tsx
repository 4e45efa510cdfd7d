// Approving or rejecting a pending record, signed: the reviewer's password again and the meaning
// (approved or reviewed; rejected), with a reason (required to reject) or an optional note. A
// refusal (a wrong password, no stock for an outbound, already reviewed) is shown in the dialog,
// which stays open.
import { App, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@iotc/shared/errors';
import type { SignatureMeaning } from '@iotc/shared/signature';
import type { RecordRow } from '@iotc/shared/warehouse';
import { SignatureDialog, type SignatureValues } from '../../../components/signature-dialog.tsx';
import { useLang } from '../../../lib/language.ts';
import { useReviewRecord, type ReviewDecision } from '../api/record-review.ts';
import { quantityText } from './record-model.ts';

export const REASON_MAX = 500;
const APPROVE_MEANINGS: readonly SignatureMeaning[] = ['approved', 'reviewed'];
const REJECT_MEANINGS: readonly SignatureMeaning[] = ['rejected'];

export interface ReviewTarget {
  row: RecordRow;
  decision: ReviewDecision;
}

export function ReviewModal({ target, open, onClose, afterClose }: { target: ReviewTarget | null; open: boolean; onClose: () => void; afterClose?: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const review = useReviewRecord();
  const rejecting = target?.decision === 'reject';

  const submit = async (values: SignatureValues) => {
    if (!target) return;
    await review.mutateAsync({ id: target.row.id, decision: target.decision, ...values });
    void message.success(t(rejecting ? 'warehouse.review.rejected' : 'warehouse.review.approved'));
    onClose();
  };

  return (
    <SignatureDialog
      open={open}
      title={t(rejecting ? 'warehouse.review.rejectTitle' : 'warehouse.review.approveTitle')}
      okText={t(rejecting ? 'warehouse.action.reject' : 'warehouse.action.approve')}
      meanings={rejecting ? REJECT_MEANINGS : APPROVE_MEANINGS}
      reason={{
        label: t(rejecting ? 'warehouse.review.reason' : 'warehouse.review.note'),
        placeholder: t(rejecting ? 'warehouse.review.reasonPlaceholder' : 'warehouse.review.notePlaceholder'),
        required: rejecting,
        requiredText: errorText('WAREHOUSE_REJECT_REASON_REQUIRED', lang),
        maxLength: REASON_MAX,
      }}
      onSubmit={submit}
      onClose={onClose}
      afterClose={afterClose}
      testId="wh-review"
      className="wh-review-modal"
      danger={rejecting}
    >
      {target ? (
        <Descriptions size="small" column={1} className="wh-gap">
          <Descriptions.Item label={t('warehouse.col.direction')}>{t(`warehouse.direction.${target.row.direction}`)}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.goods')}>{`${target.row.goodsName}${target.row.batchNo ? ` / ${target.row.batchNo}` : ''}`}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.quantity')}>{quantityText(target.row.quantity, target.row.unit)}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.place')}>{[target.row.warehouseName, target.row.roomName].filter(Boolean).join(' / ')}</Descriptions.Item>
        </Descriptions>
      ) : null}
    </SignatureDialog>
  );
}
