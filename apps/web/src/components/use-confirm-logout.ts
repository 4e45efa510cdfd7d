// Logout with the spec's confirmation: revoke the token on the server, forget it here, go to
// /login. Shared by the console header and the 'My Services' page.
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useLogout } from '../api/logout.ts';
import { clearAuth } from '../lib/session.ts';
import { queryClient } from '../lib/query-client.ts';

export function useConfirmLogout(): () => void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const logout = useLogout();
  return () =>
    modal.confirm({
      title: t('common.prompt'),
      content: t('layout.logoutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      className: 'logout-confirm',
      onOk: async () => {
        try {
          await logout.mutateAsync();
        } catch {
          // The token is dropped here either way; a failed revoke only means it was already gone.
        }
        clearAuth();
        await navigate('/login');
        // After leaving the console, so no mounted screen refetches without a token.
        queryClient.clear();
      },
    });
}
