// A record's electronic signatures as a record's detail screen shows them: who (name and account),
// when (in the user's time zone), what it means, the first characters of the hash of the record as
// signed, how the signer proved who they were (password or external sign-in), and a warning when the record no longer matches what was signed (changed afterwards).
import { Empty, List, Skeleton, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { SignatureRecordType, SignatureRow } from '@iotc/shared/signature';
import { useSignatures } from '../api/signatures.ts';

const MEANING_COLORS: Record<SignatureRow['meaning'], string> = { approved: 'success', rejected: 'error', reviewed: 'processing', responsible: 'purple' };

export function SignatureItems({ rows }: { rows: readonly SignatureRow[] }) {
  const { t } = useTranslation();
  if (rows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('signature.none')} data-testid="signatures-empty" />;
  return (
    <List
      size="small"
      dataSource={[...rows]}
      data-testid="signatures"
      renderItem={(s) => (
        <List.Item data-testid="signature" data-matches={s.matches}>
          <div>
            <Tag color={MEANING_COLORS[s.meaning]}>{t(`signature.meaning.${s.meaning}`)}</Tag>
            <Typography.Text strong>{s.signerName}</Typography.Text> <Typography.Text type="secondary">({s.signerAccount})</Typography.Text>
            {' · '}
            <span>{dayjs(s.signedAt).format(DATETIME_FORMAT)}</span>
            {s.matches ? null : (
              <Tooltip title={t('signature.mismatchHint')}>
                <Tag color="warning" className="signature-mismatch" data-testid="signature-mismatch">
                  {t('signature.mismatch')}
                </Tag>
              </Tooltip>
            )}
            <div>
              <Typography.Text type="secondary" className="signature-hash">
                {t('signature.hash')}: <code title={s.recordHash}>{s.recordHash.slice(0, 16)}…</code>
                {' · '}
                <span data-testid="signature-method">{t(`signature.method.${s.method}`)}</span>
              </Typography.Text>
            </div>
          </div>
        </List.Item>
      )}
    />
  );
}

/** The signatures of one record, read from the server. */
export function SignatureList({ recordType, recordId }: { recordType: SignatureRecordType; recordId: string | null | undefined }) {
  const q = useSignatures(recordType, recordId);
  if (q.isPending) return <Skeleton active paragraph={{ rows: 1 }} />;
  return <SignatureItems rows={q.data ?? []} />;
}
