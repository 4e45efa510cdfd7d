// The initial-password prompt of every sign-in (password or external identity) while the
// account still has the password an administrator gave it: change it now, or not yet.
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';

export function MustChangePasswordModal({ open, landing }: { open: boolean; landing: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Modal
      open={open}
      title={t('login.mustChange.title')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      className="must-change-password-modal"
      footer={[
        <Button key="later" id="change-password-later" onClick={() => void navigate(landing, { replace: true })}>
          {t('login.mustChange.later')}
        </Button>,
        <Button key="now" type="primary" id="change-password-now" onClick={() => void navigate('/view/login/confirmPassword', { replace: true })}>
          {t('login.mustChange.now')}
        </Button>,
      ]}
    >
      <p data-testid="must-change-password-text">{t('login.mustChange.content')}</p>
    </Modal>
  );
}
