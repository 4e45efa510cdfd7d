// The user's "reduce motion" setting of the operating system (prefers-reduced-motion): when on,
// Ant Design's motion is switched off (menus, dialogs and drawers appear at once, where they end).
import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-reduced-motion: reduce)';

function media(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(QUERY) : null;
}

function subscribe(onChange: () => void): () => void {
  const m = media();
  m?.addEventListener('change', onChange);
  return () => m?.removeEventListener('change', onChange);
}

export function prefersReducedMotion(): boolean {
  return media()?.matches ?? false;
}

/** true while the system asks for reduced motion; follows a change of the setting. */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
}
