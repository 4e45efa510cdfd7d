// antd's <App> for the console frame and the pages outside the account screens: the context of
// App.useApp() (message, notification, modal with theme and locale) for their components, and
// the same three for code outside React (lib/feedback.ts). It loads with those screens
// (app/router.tsx `consoleScreen`), not with the login page.
import { useEffect, type ReactNode } from 'react';
import { App as AntApp } from 'antd';
import { registerFeedback } from '../lib/feedback.ts';

function FeedbackBridge() {
  const { message, notification, modal } = AntApp.useApp();
  useEffect(() => registerFeedback({ message, notification, modal }), [message, notification, modal]);
  return null;
}

export function FeedbackApp({ children }: { children: ReactNode }) {
  return (
    <AntApp component={false}>
      <FeedbackBridge />
      {children}
    </AntApp>
  );
}
