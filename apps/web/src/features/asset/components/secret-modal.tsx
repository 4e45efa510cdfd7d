// Shows a device's secret exactly once (a new device or a reset), with a copy button: the server
// keeps only its hash, so closing the dialog is the last chance to read it.
import { App, Alert, Button, Modal, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard.ts';

export interface DeviceSecret {
  deviceId: string;
  secret: string;
  /** A reset (the old secret stopped working) rather than a new device. */
  reset?: boolean;
}

export interface SecretModalProps {
  data: DeviceSecret | null;
  open: boolean;
  onClose: () => void;
  afterClose?: () => void;
}

export function SecretModal({ data, open, onClose, afterClose }: SecretModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = async () => {
    if (!data) return;
    if (await copyText(data.secret)) void message.success(t('asset.secret.copied'));
    else void message.error(t('asset.secret.copyFailed'));
  };
  return (
    <Modal
      open={open}
      title={data?.reset ? t('asset.secret.resetTitle') : t('asset.secret.title')}
      className="device-secret-modal"
      // Shown once: closing it takes a deliberate click, never a stray one on the mask or Esc.
      mask={{ closable: false }}
      keyboard={false}
      closable={false}
      // Once closed, the secret leaves the page, not just the screen.
      destroyOnHidden
      onCancel={onClose}
      afterClose={afterClose}
      footer={
        <Button type="primary" data-testid="device-secret-done" onClick={onClose}>
          {t('asset.secret.done')}
        </Button>
      }
    >
      {data ? (
        <div data-testid="device-secret" className="asset-secret">
          <p>{t('asset.secret.for', { deviceId: data.deviceId })}</p>
          <div className="asset-secret-row">
            <Typography.Text code className="asset-secret-value" data-testid="device-secret-value">
              {data.secret}
            </Typography.Text>
            <Button icon={<CopyOutlined />} data-testid="device-secret-copy" onClick={() => void copy()}>
              {t('asset.secret.copy')}
            </Button>
          </div>
          <Alert type="warning" showIcon title={t('asset.secret.once')} description={t('asset.secret.hint')} data-testid="device-secret-warning" />
          <p className="asset-secret-usage">{t('asset.secret.usage')}</p>
        </div>
      ) : null}
    </Modal>
  );
}
