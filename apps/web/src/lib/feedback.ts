// Lets code outside React (the HTTP client, route loaders) use antd's message, notification
// and modal with the app's theme and locale: a component inside the providers registers them
// here. The console frame registers its antd <App>'s; before the console (the login page and the
// other account screens), app/feedback-host.tsx is loaded and registers its own only when a call
// comes, so the first load carries none of the three.
import type { App } from 'antd';

export type Feedback = Pick<ReturnType<typeof App.useApp>, 'message' | 'notification' | 'modal'>;

// The registered sources, the newest in use.
const sources: Feedback[] = [];
// Calls made before any source is registered (a loader on the first page load) wait here.
const pending: ((f: Feedback) => void)[] = [];
const wantedListeners = new Set<() => void>();

/** Registers a source of feedback (the newest is used); returns its removal. */
export function registerFeedback(feedback: Feedback): () => void {
  sources.push(feedback);
  for (const call of pending.splice(0)) call(feedback);
  return () => {
    const at = sources.lastIndexOf(feedback);
    if (at >= 0) sources.splice(at, 1);
  };
}

export function withFeedback(call: (f: Feedback) => void): void {
  const current = sources[sources.length - 1];
  if (current) {
    call(current);
    return;
  }
  pending.push(call);
  for (const listener of wantedListeners) listener();
}

/** Whether a call waits for a source: the providers then load one. */
export function feedbackWanted(): boolean {
  return pending.length > 0;
}

export function onFeedbackWanted(listener: () => void): () => void {
  wantedListeners.add(listener);
  return () => wantedListeners.delete(listener);
}
