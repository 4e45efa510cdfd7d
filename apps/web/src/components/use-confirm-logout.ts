// Logout with the spec's confirmation: revoke the token on the server, forget it here, go to
// /login. Shared by the console header and the 'My Services' page. A deliberate logout ends
// the session's calls, polling and live sockets quietly: no "login expired" dialog and no
// server error may follow the user to the login page.
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useLogout } from '../api/logout.ts';
import { clearAuth, endSession, getToken } from '../lib/session.ts';
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
        const token = getToken();
        // Queries cancelled keep their data (no error state flashes before the screen goes);
        // then every other call in flight is aborted and the live sockets close.
        void queryClient.cancelQueries();
        endSession();
        // Forgotten before the revoke: a poll firing meanwhile goes without it and ends quietly.
        clearAuth();
        try {
          if (token) await logout.mutateAsync(token);
        } catch {
          // The token is gone here either way; a failed revoke only means it was already gone.
        }
        await navigate('/login');
        // After leaving the console, so no mounted screen refetches without a token.
        queryClient.clear();
      },
    });
}
