// Reviewing a command, signed with the reviewer's password again: approving sends it to the
// device at once (a note is optional); rejecting needs a reason. A refusal (a wrong password,
// someone reviewed it meanwhile, one's own request) shows in the dialog.
import { App, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@iotc/shared/errors';
import { SignatureDialog, type SignatureValues } from '../../../components/signature-dialog.tsx';
import { useLang } from '../../../lib/language.ts';
import { useReviewCommand } from '../api/command-review.ts';
import type { CommandView } from './command-model.ts';

/** The server's limit of a review's reason. */
export const REASON_MAX = 500;

export interface ReviewTarget {
  view: CommandView;
  approve: boolean;
}

export function ReviewModal({ target, open, onClose, afterClose }: { target: ReviewTarget | null; open: boolean; onClose: () => void; afterClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const { message } = App.useApp();
  const review = useReviewCommand();
  const approve = target?.approve ?? true;

  const submit = async (values: SignatureValues) => {
    if (!target) return;
    await review.mutateAsync({ id: target.view.id, approve, ...values });
    void message.success(t(approve ? 'remoteControl.review.approved' : 'remoteControl.review.rejected'));
    onClose();
  };

  return (
    <SignatureDialog
      open={open}
      title={t(approve ? 'remoteControl.review.approveTitle' : 'remoteControl.review.rejectTitle')}
      okText={t(approve ? 'remoteControl.action.approve' : 'remoteControl.action.reject')}
      meanings={approve ? ['approved'] : ['rejected']}
      reason={{ label: t(approve ? 'remoteControl.review.note' : 'remoteControl.review.reason'), required: !approve, requiredText: errorText('COMMAND_REASON_REQUIRED', lang), maxLength: REASON_MAX }}
      onSubmit={submit}
      onClose={onClose}
      afterClose={afterClose}
      testId="rc-review"
      danger={!approve}
    >
      {target ? (
        <Descriptions
          size="small"
          column={1}
          bordered
          style={{ marginBottom: 12 }}
          items={[
            { key: 'device', label: t('remoteControl.col.device'), children: target.view.device },
            { key: 'command', label: t('remoteControl.col.command'), children: target.view.command },
            { key: 'requester', label: t('remoteControl.col.requester'), children: target.view.requester },
            ...(target.view.row.remark ? [{ key: 'remark', label: t('remoteControl.request.remark'), children: target.view.row.remark }] : []),
          ]}
        />
      ) : null}
    </SignatureDialog>
  );
}
