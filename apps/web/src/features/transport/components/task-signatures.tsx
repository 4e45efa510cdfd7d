// A task's GSP record and shipment report signatures in its detail drawer: for each document its
// signatures (components/signature-list) and, for writers, "Sign" (the signature dialog: reviewed
// or responsible, the password again).
import { App, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TASK_DOCUMENTS, TASK_DOCUMENT_MEANINGS, type TaskDocument } from '@iotc/shared/signature';
import { SignatureDialog, type SignatureValues } from '../../../components/signature-dialog.tsx';
import { SignatureItems } from '../../../components/signature-list.tsx';
import { useDialog } from '../../../lib/use-dialog.ts';
import { useSignTaskDocument, useTaskSignatures } from '../api/task-signatures.ts';

export function TaskSignatures({ taskId, canWrite }: { taskId: string; canWrite: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const list = useTaskSignatures(taskId);
  const sign = useSignTaskDocument();
  const dialog = useDialog<TaskDocument>();

  const submit = async (values: SignatureValues) => {
    if (!dialog.target) return;
    await sign.mutateAsync({ taskId, document: dialog.target, meaning: values.meaning as (typeof TASK_DOCUMENT_MEANINGS)[number], ...values.proof });
    void message.success(t('signature.signed'));
    dialog.hide();
  };

  return (
    <div data-testid="tt-signatures">
      {TASK_DOCUMENTS.map((doc) => (
        <div key={doc} data-testid={`tt-signatures-${doc}`}>
          <Space className="tt-section-title">
            <Typography.Text strong>{t(`signature.document.${doc}`)}</Typography.Text>
            {canWrite ? (
              <Button size="small" data-testid={`tt-sign-${doc}`} onClick={() => dialog.show(doc)}>
                {t('signature.sign')}
              </Button>
            ) : null}
          </Space>
          <SignatureItems rows={(list.data ?? []).filter((s) => s.recordType === doc)} />
        </div>
      ))}
      <SignatureDialog
        open={dialog.open}
        title={dialog.target ? t('signature.signDocument', { document: t(`signature.document.${dialog.target}`) }) : ''}
        okText={t('signature.sign')}
        meanings={TASK_DOCUMENT_MEANINGS}
        onSubmit={submit}
        onClose={dialog.hide}
        afterClose={dialog.afterClose}
        testId="tt-sign"
      />
    </div>
  );
}
