// /verify/:token, without login: the records a share link publishes (a task, a device range, a
// warehouse batch or one warehouse record), checked in this browser exactly as the verify screen
// checks them (lib/verify.ts), with the subject, the summary, the records, the PDF certificate
// and what was checked in plain words. An expired, a revoked and an unknown link each say so.
import { Alert, Button, Card, Result, Skeleton, Space, Typography, Progress } from 'antd';
import { ClockCircleOutlined, SafetyCertificateOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useParams } from 'react-router-dom';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { ShareSubject } from '@iotc/shared/ledger/api';
import { ApiError } from '../../../api/client.ts';
import { LanguageSwitch } from '../../../components/language-switch.tsx';
import { MAX_VERIFY_RECORDS, usePublicRecords } from '../api/records.ts';
import { RecordsTable } from '../components/records-table.tsx';
import { CertificateButton } from '../components/share-dialog.tsx';
import { useVerification } from '../components/use-verification.ts';
import { VerifySummary } from '../components/verify-summary.tsx';
import '../components/ledger.css';

const at = (iso: string) => dayjs(iso).format(DATETIME_FORMAT);

/** Why a link shows no records: it ended (expired, revoked) or never existed; null for another failure. */
export function endedReason(error: unknown): 'expired' | 'revoked' | 'invalid' | null {
  if (!(error instanceof ApiError)) return null;
  if (error.errorcode === 'LEDGER_SHARE_EXPIRED') return 'expired';
  if (error.errorcode === 'LEDGER_SHARE_REVOKED') return 'revoked';
  return error.status === 404 || error.status === 400 || error.status === 410 ? 'invalid' : null;
}

const ENDED_ICON = { expired: <ClockCircleOutlined />, revoked: <StopOutlined />, invalid: undefined };

function subjectLine(subject: ShareSubject, t: TFunction): string {
  switch (subject.kind) {
    case 'task':
      return t('ledger.public.task', { code: subject.code, goods: subject.goodsName, origin: subject.origin, destination: subject.destination });
    case 'device':
      return t('ledger.public.device', { deviceId: subject.deviceId, name: subject.name, from: at(subject.from), to: at(subject.to) });
    case 'batch':
      return t('ledger.public.batch', { batch: subject.batchNo, goods: subject.goods.join(', '), n: subject.records });
    case 'warehouseRecord':
      return t('ledger.public.warehouseRecord', {
        direction: t(`ledger.public.direction.${subject.direction}`),
        goods: subject.goodsName,
        batch: subject.batchNo || '—',
        warehouse: subject.warehouse,
        time: at(subject.time),
      });
  }
}

function Subject({ subject }: { subject: ShareSubject }) {
  const { t } = useTranslation();
  const line = subjectLine(subject, t);
  return (
    <Typography.Title level={4} style={{ margin: 0 }} data-testid="ledger-subject">
      {line}
    </Typography.Title>
  );
}

function HowChecked() {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('ledger.public.howTitle')} className="ledger-how" data-testid="ledger-how">
      <ol>
        <li>{t('ledger.public.how1')}</li>
        <li>{t('ledger.public.how2')}</li>
        <li>{t('ledger.public.how3')}</li>
        <li>{t('ledger.public.how4')}</li>
        <li>{t('ledger.public.how5')}</li>
      </ol>
    </Card>
  );
}

function Content({ token }: { token: string }) {
  const { t } = useTranslation();
  const records = usePublicRecords(token);
  const pages = records.isError ? undefined : records.data?.pages;
  const verification = useVerification(`public:${token}`, pages, records.dataUpdatedAt);

  if (records.isError) {
    const reason = endedReason(records.error);
    return reason ? (
      <Card>
        <Result status="warning" icon={ENDED_ICON[reason]} title={t(`ledger.public.${reason}`)} subTitle={t(`ledger.public.${reason}Hint`)} data-testid="ledger-invalid" data-reason={reason} />
      </Card>
    ) : (
      <Alert
        type="error"
        showIcon
        title={t('ledger.loadFailed')}
        description={records.error instanceof ApiError ? records.error.errormsg : null}
        action={
          <Button size="small" onClick={() => void records.refetch()}>
            {t('common.retry')}
          </Button>
        }
        data-testid="ledger-error"
      />
    );
  }
  if (!records.data || records.isFetching || !verification.data) {
    return (
      <Card data-testid="ledger-loading">
        <Typography.Text type="secondary">{records.data ? t('ledger.verifying') : t('ledger.loading', { n: records.loaded })}</Typography.Text>
        <Progress percent={Math.min(99, Math.round((records.loaded / MAX_VERIFY_RECORDS) * 100))} showInfo={false} status="active" size="small" />
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }
  const first = records.data.pages[0]!;
  const v = verification.data;
  return (
    <>
      <Card size="small">
        <Space orientation="vertical" size={4}>
          <Subject subject={first.subject} />
          {first.expiresAt ? <Typography.Text type="secondary">{t('ledger.public.expires', { time: at(first.expiresAt) })}</Typography.Text> : null}
        </Space>
      </Card>
      <VerifySummary verification={v} extra={<CertificateButton token={token} />}>
        {records.data.truncated ? <Alert type="warning" showIcon style={{ marginTop: 12 }} title={t('ledger.truncated', { n: v.records.length })} /> : null}
      </VerifySummary>
      {v.records.length === 0 ? (
        <Alert type="info" showIcon title={t('ledger.empty')} description={t('ledger.emptyHint')} data-testid="ledger-empty" />
      ) : (
        <RecordsTable records={v.records} />
      )}
      <HowChecked />
    </>
  );
}

export default function PublicVerifyPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  return (
    <div className="ledger-public" data-testid="ledger-public-page">
      <header className="ledger-public-head">
        <div className="ledger-public-brand">
          <SafetyCertificateOutlined />
          <div>
            <h1 data-testid="screen-title">{t('ledger.public.title')}</h1>
            <Typography.Text type="secondary">
              {t('app.title')} · {t('ledger.public.subtitle')}
            </Typography.Text>
          </div>
        </div>
        <LanguageSwitch />
      </header>
      <main className="ledger-public-main">
        <Content token={token} />
      </main>
    </div>
  );
}
