// The tab's one live connection (lib/live.ts LiveTab) for the screens below it: their
// useLiveStates and useLiveAlarms share it instead of opening a WebSocket each.
import { useState, type ReactNode } from 'react';
import { LiveContext, LiveTab } from './live.ts';

export function LiveProvider({ children }: { children: ReactNode }) {
  const [tab] = useState(() => new LiveTab());
  return <LiveContext.Provider value={tab}>{children}</LiveContext.Provider>;
}
