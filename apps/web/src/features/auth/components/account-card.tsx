// The login form's panel: antd's Card look (container colour, border, radius, padding) from the
// theme's tokens, without the Card module, which brings Tabs, Menu and Dropdown (about 28 KB gzip)
// onto the first load for a title bar the login does not use.
import type { ReactNode } from 'react';
import { theme } from 'antd';

export function AccountCard({ className, children }: { className?: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <section
      className={className}
      style={{
        background: token.colorBgContainer,
        color: token.colorText,
        border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        padding: token.paddingLG,
      }}
    >
      {children}
    </section>
  );
}
