// The signatures of a GSP temperature and humidity record, where the paper record has its
// "Recorded by / Reviewed by" lines: the electronic signatures of each role (components/
// signature-list: name, account, time, meaning, hash prefix, "Does not match" once a reading or a
// warehouse record of the period changed), and "Sign" (the signature dialog: recorded, that is
// responsible, or reviewed; the password again) for whoever may write in the record's area, once
// the day or month is over.
import { App, Button, Card, Col, Row, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TASK_DOCUMENT_MEANINGS } from '@iotc/shared/signature';
import type { GspReport } from '@iotc/shared/gsp-report';
import { SignatureDialog, type SignatureValues } from '../../../components/signature-dialog.tsx';
import { SignatureItems } from '../../../components/signature-list.tsx';
import { useDialog } from '../../../lib/use-dialog.ts';
import { usePermission } from '../../../lib/permissions.ts';
import { useGspSignatures, useSignGspRecord } from '../api/gsp-signatures.ts';
import type { GspRequest } from '../api/temperature-report.ts';

/** Recorded first (the responsible person), then reviewed: the order of the lines on the record. */
const MEANINGS = ['responsible', 'reviewed'] as const satisfies readonly (typeof TASK_DOCUMENT_MEANINGS)[number][];

export function GspSignatures({ report, query }: { report: GspReport; query: GspRequest }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const can = usePermission();
  const list = useGspSignatures(query);
  const sign = useSignGspRecord();
  const dialog = useDialog<GspRequest>();
  const mayWrite = can(report.mode === 'storage' ? 'warehouse:write' : 'transport:write');
  const open = Date.parse(report.to) > Date.now();

  const submit = async (values: SignatureValues) => {
    if (!dialog.target) return;
    await sign.mutateAsync({ ...dialog.target, meaning: values.meaning as (typeof MEANINGS)[number], ...values.proof });
    void message.success(t('signature.signed'));
    dialog.hide();
  };

  const button = (
    <Button size="small" type="primary" ghost disabled={open} onClick={() => dialog.show(query)} data-testid="gsp-sign">
      {t('signature.sign')}
    </Button>
  );
  return (
    <Card
      size="small"
      title={t('signature.title')}
      extra={mayWrite ? <Tooltip title={open ? t('gspReport.signOpen') : undefined}>{button}</Tooltip> : null}
      data-testid="gsp-signatures"
    >
      <Row gutter={[24, 8]}>
        {MEANINGS.map((meaning) => (
          <Col xs={24} md={12} key={meaning} data-testid={`gsp-signatures-${meaning}`}>
            <Typography.Text strong>{meaning === 'responsible' ? t('gspReport.recordedBy') : t('gspReport.reviewedBy')}</Typography.Text>
            <SignatureItems rows={(list.data ?? []).filter((s) => s.meaning === meaning)} />
          </Col>
        ))}
      </Row>
      <SignatureDialog
        open={dialog.open}
        title={t('gspReport.signRecord')}
        okText={t('signature.sign')}
        meanings={MEANINGS}
        onSubmit={submit}
        onClose={dialog.hide}
        afterClose={dialog.afterClose}
        testId="gsp-sign-dialog"
      >
        <Space orientation="vertical" size={0}>
          <Typography.Text>{`${report.asset.name} / ${report.asset.code}`}</Typography.Text>
          <Typography.Text type="secondary">{`${t(`gspReport.period.${report.period}`)} · ${report.date}`}</Typography.Text>
        </Space>
      </SignatureDialog>
    </Card>
  );
}
