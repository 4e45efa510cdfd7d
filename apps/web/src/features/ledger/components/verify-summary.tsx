// The summary card of a verification: the overall result (all verified in green, or how many
// records do not match in red), and the signed tree head it was checked against: log origin,
// tree size, when it was signed (in the user's time zone), root hash and public key (monospace,
// copyable).
import type { ReactNode } from 'react';
import { Card, Descriptions, Typography } from 'antd';
import { CheckCircleFilled, ClockCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { Verification } from '../lib/verify.ts';

export type OverallState = 'ok' | 'problems' | 'bad-signature' | 'unsigned' | 'pending';

export function overallState(v: Verification): OverallState {
  if (v.signature === 'invalid') return 'bad-signature';
  if (v.problems > 0) return 'problems';
  if (v.signature === 'none') return 'unsigned';
  if (v.pending > 0) return 'pending';
  return 'ok';
}

export function VerifySummary({ verification: v, extra, children }: { verification: Verification; extra?: ReactNode; children?: ReactNode }) {
  const { t } = useTranslation();
  const state = overallState(v);
  const n = v.records.length;
  const text = {
    ok: v.removed > 0 ? t('ledger.summary.verifiedRemoved', { v: v.verified, r: v.removed }) : t('ledger.summary.allVerified', { n }),
    problems: t('ledger.summary.problems', { k: v.problems, n }),
    'bad-signature': t('ledger.summary.badSignature'),
    unsigned: t('ledger.summary.unsigned'),
    pending: t('ledger.summary.pending', { n: v.verified, p: v.pending }),
  }[state];
  const icon = state === 'ok' ? <CheckCircleFilled /> : state === 'problems' || state === 'bad-signature' ? <CloseCircleFilled /> : <ClockCircleFilled />;
  const mono = (value: string, testId: string) => (
    <Typography.Text className="ledger-mono" copyable={{ text: value }} data-testid={testId}>
      {value}
    </Typography.Text>
  );
  return (
    <Card size="small" title={t('ledger.summary.title')} extra={extra} data-testid="ledger-summary">
      <div className="ledger-overall" data-testid="ledger-overall" data-state={state} role="status">
        {icon}
        <span>{text}</span>
      </div>
      <Typography.Text type="secondary" data-testid="ledger-counts">
        {v.removed > 0
          ? t('ledger.summary.countsRemoved', { v: v.verified, k: v.problems, p: v.pending, r: v.removed })
          : t('ledger.summary.counts', { v: v.verified, k: v.problems, p: v.pending })}
      </Typography.Text>
      <Descriptions size="small" bordered column={{ xs: 1, lg: 2 }} style={{ marginTop: 12 }}>
        <Descriptions.Item label={t('ledger.summary.origin')}>
          <span className="ledger-mono" data-testid="ledger-origin">{v.checkpoint?.origin ?? v.origin}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('ledger.summary.treeSize')}>
          <span data-testid="ledger-tree-size">{v.checkpoint ? v.checkpoint.size : t('ledger.summary.noCheckpoint')}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('ledger.summary.signedAt')} span="filled">
          <span data-testid="ledger-signed-at">{v.checkpoint?.signedAt ? dayjs(v.checkpoint.signedAt).format(DATETIME_FORMAT) : '—'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('ledger.summary.rootHash')} span="filled">
          {v.checkpoint ? mono(v.checkpoint.rootHash, 'ledger-root-hash') : t('ledger.summary.noCheckpoint')}
        </Descriptions.Item>
        <Descriptions.Item label={t('ledger.summary.publicKey')} span="filled">
          {mono(v.verifierKey, 'ledger-public-key')}
        </Descriptions.Item>
      </Descriptions>
      {children}
    </Card>
  );
}
