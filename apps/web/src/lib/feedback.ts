// Lets code outside React (the HTTP client, route loaders) use antd's message, notification
// and modal with the app's theme and locale: a component inside antd <App> registers them here.
import type { App } from 'antd';

export type Feedback = Pick<ReturnType<typeof App.useApp>, 'message' | 'notification' | 'modal'>;

let current: Feedback | null = null;
// Calls made before the bridge mounts (a loader on the first page load) wait here.
const pending: ((f: Feedback) => void)[] = [];

export function setFeedback(feedback: Feedback | null): void {
  current = feedback;
  if (!feedback) return;
  for (const call of pending.splice(0)) call(feedback);
}

export function withFeedback(call: (f: Feedback) => void): void {
  if (current) call(current);
  else pending.push(call);
}
