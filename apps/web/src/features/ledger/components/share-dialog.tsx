// The "Share and certificate" dialog: the maker picks how long the link works (30 days unless
// changed, or the last day it works, at most 5 years), makes it (POST shares), and sees it with
// its end, copy and open buttons, and the PDF certificate of that link. Every link ends; the
// "Share links" tab lists them and revokes one sooner.
import { useState } from 'react';
import { Alert, App, Button, DatePicker, Input, Modal, Radio, Space, Typography } from 'antd';
import { CopyOutlined, ExportOutlined, FilePdfOutlined, LinkOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { SHARE_EXPIRY_DAYS, type ShareAnswer, type ShareBody } from '@iotc/shared/ledger/api';
import { copyText } from '../../../lib/clipboard.ts';
import { useExport } from '../../../lib/use-export.ts';
import { downloadCertificate } from '../api/certificate.ts';
import { useCreateShare } from '../api/shares.ts';
import { DEFAULT_EXPIRY, dayOutOfRange, expiryEnd, expiryFields, type ExpiryChoice } from './share-expiry.ts';

/** The share's page as an absolute address (the server answers a path unless PUBLIC_URL is set). */
export function absoluteUrl(url: string): string {
  return /^https?:\/\//.test(url) ? url : `${window.location.origin}${url}`;
}

export function CertificateButton({ token }: { token: string }) {
  const { t } = useTranslation();
  const { exporting, download } = useExport<'pdf'>(() => downloadCertificate(token), (name) => t('ledger.certificate.saved', { name }));
  return (
    <Button icon={<FilePdfOutlined />} loading={exporting !== null} onClick={() => void download('pdf')} data-testid="ledger-certificate">
      {t('ledger.certificate.download')}
    </Button>
  );
}

/** The radio value of a choice: a number of days, or 'date'. */
const radioValue = (c: ExpiryChoice) => (c.kind === 'days' ? String(c.days) : 'date');

function ExpiryPicker({ value, onChange, disabled }: { value: ExpiryChoice; onChange: (c: ExpiryChoice) => void; disabled: boolean }) {
  const { t } = useTranslation();
  const end = expiryEnd(value);
  return (
    <div className="ledger-share-expiry">
      <Typography.Text strong id="ledger-share-expiry-label">
        {t('ledger.share.expiry')}
      </Typography.Text>
      <Radio.Group
        aria-labelledby="ledger-share-expiry-label"
        optionType="button"
        disabled={disabled}
        value={radioValue(value)}
        onChange={(e) => {
          const v = String(e.target.value);
          onChange(v === 'date' ? { kind: 'date', date: null } : { kind: 'days', days: Number(v) });
        }}
        options={[
          ...SHARE_EXPIRY_DAYS.map((d) => ({ value: String(d), label: t(`ledger.share.expiry.${d}`) })),
          { value: 'date', label: t('ledger.share.expiry.date') },
        ]}
        data-testid="ledger-share-expiry"
      />
      {value.kind === 'date' ? (
        <DatePicker
          autoFocus
          disabled={disabled}
          value={value.date}
          onChange={(date) => onChange({ kind: 'date', date })}
          disabledDate={(d) => dayOutOfRange(d)}
          placeholder={t('ledger.share.expiryDate')}
          aria-label={t('ledger.share.expiryDate')}
          style={{ width: 200 }}
          data-testid="ledger-share-expiry-date"
        />
      ) : null}
      <Typography.Text type="secondary" data-testid="ledger-share-ends">
        {end ? t('ledger.share.endsAt', { time: end.format(DATETIME_FORMAT) }) : t('ledger.share.pickDate')}
      </Typography.Text>
    </div>
  );
}

export function ShareDialog({ body, open, onClose }: { body: ShareBody; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const share = useCreateShare();
  const [choice, setChoice] = useState<ExpiryChoice>(DEFAULT_EXPIRY);
  const [made, setMade] = useState<ShareAnswer | null>(null);

  const fields = expiryFields(choice);
  const create = () => {
    if (fields) share.mutate({ ...body, ...fields }, { onSuccess: setMade });
  };
  const url = made ? absoluteUrl(made.url) : '';
  const copy = async () => {
    if (await copyText(url)) void message.success(t('ledger.share.copied'));
    else void message.warning(t('ledger.share.copyFailed'));
  };
  // A new dialog starts again from the default expiry.
  const afterClose = () => {
    setMade(null);
    setChoice(DEFAULT_EXPIRY);
    share.reset();
  };

  return (
    <Modal open={open} title={t('ledger.share.title')} onCancel={onClose} afterClose={afterClose} footer={null} width={680} destroyOnHidden data-testid="ledger-share-dialog">
      <Typography.Paragraph type="secondary">{t('ledger.share.intro')}</Typography.Paragraph>
      {share.isError ? <Alert type="error" showIcon title={t('ledger.share.failed')} style={{ marginBottom: 12 }} data-testid="ledger-share-error" /> : null}
      {made ? (
        <>
          <Typography.Text strong>{t('ledger.share.link')}</Typography.Text>
          <Space.Compact style={{ width: '100%', margin: '8px 0' }}>
            <Input readOnly value={url} aria-label={t('ledger.share.link')} className="ledger-mono" data-testid="ledger-share-url" />
            <Button icon={<CopyOutlined />} onClick={() => void copy()} data-testid="ledger-share-copy">
              {t('ledger.share.copy')}
            </Button>
            <Button icon={<ExportOutlined />} href={url} target="_blank" rel="noopener noreferrer" data-testid="ledger-share-open">
              {t('ledger.share.open')}
            </Button>
          </Space.Compact>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
            {t('ledger.share.onceHint')}
          </Typography.Paragraph>
          <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
            <Typography.Text data-testid="ledger-share-expires">{t('ledger.share.expires', { time: dayjs(made.expiresAt).format(DATETIME_FORMAT) })}</Typography.Text>
            <CertificateButton token={made.token} />
          </Space>
        </>
      ) : (
        <>
          <ExpiryPicker value={choice} onChange={setChoice} disabled={share.isPending} />
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 16px' }}>
            {t('ledger.share.revokeHint')}
          </Typography.Paragraph>
          <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="primary" icon={<LinkOutlined />} loading={share.isPending} disabled={!fields} onClick={create} data-testid="ledger-share-create">
              {t('ledger.share.create')}
            </Button>
          </Space>
        </>
      )}
    </Modal>
  );
}
