// Everything a screen relies on: query cache, the tab's one live connection, antd locale and
// theme following the user's choice, and antd <App> whose message/notification/modal the HTTP
// client borrows.
import { useEffect, type ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client.ts';
import { useLang } from '../lib/language.ts';
import { THEME_PRIMARY, useThemeName } from '../lib/theme.ts';
import { setFeedback } from '../lib/feedback.ts';
import { useReducedMotion } from '../lib/motion.ts';
import { LiveProvider } from '../lib/live-provider.tsx';
import { antdTheme } from './theme.ts';
import { antdLocale } from './i18n.ts';

function FeedbackBridge() {
  const { message, notification, modal } = AntApp.useApp();
  useEffect(() => {
    setFeedback({ message, notification, modal });
    return () => setFeedback(null);
  }, [message, notification, modal]);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  const lang = useLang();
  const theme = useThemeName();
  const reducedMotion = useReducedMotion();
  const themeConfig = antdTheme(theme);

  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    // The progress bar lives outside antd and reads the primary colour from here.
    root.style.setProperty('--iotc-primary', THEME_PRIMARY[theme]);
  }, [theme]);

  return (
    <QueryClientProvider client={queryClient}>
      <LiveProvider>
        {/* No space pushed between two Chinese characters of a button: texts stay as written. */}
        <ConfigProvider locale={antdLocale(lang)} theme={{ ...themeConfig, token: { ...themeConfig.token, motion: !reducedMotion } }} button={{ autoInsertSpace: false }}>
          <AntApp className="app-root">
            <FeedbackBridge />
            {children}
          </AntApp>
        </ConfigProvider>
      </LiveProvider>
    </QueryClientProvider>
  );
}
