// The go-to-login button of the account result screens: a real link (copyable, opens in a new
// tab with a modifier), followed inside the app on a plain click.
import type { ReactNode } from 'react';
import { Button } from 'antd';
import { useNavigate } from 'react-router-dom';

export function GoToLogin({ primary, testId, children }: { primary: boolean; testId: string; children: ReactNode }) {
  const navigate = useNavigate();
  return (
    <Button
      type={primary ? 'primary' : 'default'}
      href="/login"
      data-testid={testId}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        void navigate('/login');
      }}
    >
      {children}
    </Button>
  );
}
