// Everything a screen relies on: query cache, antd locale and theme following the user's choice,
// and the root element with antd <App>'s text style. antd's <App> itself (message, notification,
// modal) is the console's (feedback-app.tsx), and the tab's one live connection the console
// frame's (console-layout.tsx): the login page's first load does without both. A message the
// HTTP client or a loader shows before the console loads feedback-host.tsx for it.
import { useEffect, useState, type ReactNode } from 'react';
import { ConfigProvider, theme as antdThemeApi } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from '../lib/query-client.ts';
import { useLang } from '../lib/language.ts';
import { THEME_PRIMARY, useThemeName } from '../lib/theme.ts';
import { feedbackWanted, onFeedbackWanted } from '../lib/feedback.ts';
import { useReducedMotion } from '../lib/motion.ts';
import { antdTheme } from './theme.ts';
import { antdLocale } from './i18n.ts';
import { lazyPart } from '../components/lazy-part.tsx';

const FeedbackHost = lazyPart(() => import('./feedback-host.tsx').then((m) => m.default));

/** antd <App>'s root style (text colour, size, line height and font of the theme). */
function AppRoot({ children }: { children: ReactNode }) {
  const { token } = antdThemeApi.useToken();
  const [wanted, setWanted] = useState(feedbackWanted);
  useEffect(() => onFeedbackWanted(() => setWanted(true)), []);
  return (
    <div
      className="app-root"
      style={{ color: token.colorText, fontSize: token.fontSize, lineHeight: token.lineHeight, fontFamily: token.fontFamily }}
    >
      {children}
      <FeedbackHost when={wanted} />
    </div>
  );
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
      {/* No space pushed between two Chinese characters of a button: texts stay as written. */}
      <ConfigProvider locale={antdLocale(lang)} theme={{ ...themeConfig, token: { ...themeConfig.token, motion: !reducedMotion } }} button={{ autoInsertSpace: false }}>
        <AppRoot>{children}</AppRoot>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
