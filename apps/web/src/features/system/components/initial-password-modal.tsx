// Shows a new user's (or a reset) initial password exactly once, with a copy button: the
// server keeps only its hash, and the user must change it at the first sign-in.
import { App, Alert, Button, Modal, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { InitialPasswordData } from '@iotc/shared/platform';
import { copyText } from '../../../lib/clipboard.ts';

export interface InitialPasswordModalProps {
  data: InitialPasswordData | null;
  open: boolean;
  onClose: () => void;
  afterClose?: () => void;
}

export function InitialPasswordModal({ data, open, onClose, afterClose }: InitialPasswordModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const copy = async () => {
    if (!data) return;
    if (await copyText(data.initialPassword)) void message.success(t('system.users.passwordCopied'));
    else void message.error(t('system.users.copyFailed'));
  };
  return (
    <Modal
      open={open}
      title={t('system.users.initialPasswordTitle')}
      className="initial-password-modal"
      // Shown once: closing it takes a deliberate click, never a stray one on the mask.
      mask={{ closable: false }}
      keyboard={false}
      // The password leaves the page with the dialog, not hidden in it.
      destroyOnHidden
      onCancel={onClose}
      afterClose={afterClose}
      footer={
        <Button type="primary" data-testid="initial-password-done" onClick={onClose}>
          {t('system.users.initialPasswordDone')}
        </Button>
      }
    >
      {data ? (
        <div data-testid="initial-password" className="initial-password">
          <p>{t('system.users.initialPasswordFor', { account: data.account })}</p>
          <div className="initial-password-row">
            <Typography.Text code className="initial-password-value" data-testid="initial-password-value">
              {data.initialPassword}
            </Typography.Text>
            <Button icon={<CopyOutlined />} data-testid="initial-password-copy" onClick={() => void copy()}>
              {t('system.users.copy')}
            </Button>
          </div>
          <Alert type="warning" showIcon title={t('system.users.initialPasswordOnce')} description={t('system.users.initialPasswordHint')} />
        </div>
      ) : null}
    </Modal>
  );
}
