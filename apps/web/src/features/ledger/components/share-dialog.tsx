// The "Share and certificate" dialog: makes a public link for the scope (POST shares), shows it
// with copy and open buttons, and downloads the PDF certificate of that link.
import { useEffect, useState } from 'react';
import { Alert, App, Button, Input, Modal, Space, Typography } from 'antd';
import { CopyOutlined, ExportOutlined, FilePdfOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { ShareAnswer, ShareBody } from '@iotc/shared/ledger/api';
import { copyText } from '../../../lib/clipboard.ts';
import { useExport } from '../../../lib/use-export.ts';
import { downloadCertificate } from '../api/certificate.ts';
import { useCreateShare } from '../api/shares.ts';

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

export function ShareDialog({ body, open, onClose }: { body: ShareBody; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const share = useCreateShare();
  const [made, setMade] = useState<ShareAnswer | null>(null);
  const { mutate, reset } = share;
  const bodyKey = JSON.stringify(body);

  useEffect(() => {
    if (!open) return;
    setMade(null);
    reset();
    mutate(JSON.parse(bodyKey) as ShareBody, { onSuccess: setMade });
  }, [open, bodyKey, mutate, reset]);

  const url = made ? absoluteUrl(made.url) : '';
  const copy = async () => {
    if (await copyText(url)) void message.success(t('ledger.share.copied'));
    else void message.warning(t('ledger.share.copyFailed'));
  };

  return (
    <Modal open={open} title={t('ledger.share.title')} onCancel={onClose} footer={null} width={640} destroyOnHidden data-testid="ledger-share-dialog">
      <Typography.Paragraph type="secondary">{t('ledger.share.intro')}</Typography.Paragraph>
      {share.isError ? <Alert type="error" showIcon title={t('ledger.share.failed')} data-testid="ledger-share-error" /> : null}
      <Typography.Text strong>{t('ledger.share.link')}</Typography.Text>
      <Space.Compact style={{ width: '100%', margin: '8px 0' }}>
        <Input readOnly value={url} placeholder="…" className="ledger-mono" data-testid="ledger-share-url" />
        <Button icon={<CopyOutlined />} disabled={!made} onClick={() => void copy()} data-testid="ledger-share-copy">
          {t('ledger.share.copy')}
        </Button>
        <Button icon={<ExportOutlined />} disabled={!made} href={url || undefined} target="_blank" rel="noopener noreferrer" data-testid="ledger-share-open">
          {t('ledger.share.open')}
        </Button>
      </Space.Compact>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text type="secondary">
          {made ? (made.expiresAt ? t('ledger.share.expires', { time: dayjs(made.expiresAt).format(DATETIME_FORMAT) }) : t('ledger.share.never')) : null}
        </Typography.Text>
        {made ? <CertificateButton token={made.token} /> : <Button loading={share.isPending} icon={<FilePdfOutlined />} disabled>{t('ledger.certificate.download')}</Button>}
      </Space>
    </Modal>
  );
}
