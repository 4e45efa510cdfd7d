// Seconds left until a moment (the next code may be asked for), re-rendering while it counts down.
import { useEffect, useReducer } from 'react';

/** Re-render often enough that the shown second never lags the clock by a whole second. */
const TICK_MS = 250;

export function useSecondsLeft(until: number | null): number {
  const [, tick] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (until === null) return;
    const timer = setInterval(() => {
      tick();
      if (Date.now() >= until) clearInterval(timer);
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [until]);
  return until === null ? 0 : Math.max(0, Math.ceil((until - Date.now()) / 1000));
}
