// The breadcrumb bar's optional right-hand text: the layout provides the slot, a screen fills it.
import { createContext, useContext, useEffect } from 'react';

export const BreadcrumbExtraContext = createContext<(text: string | null) => void>(() => {});

/** Shows `text` at the right of the breadcrumb bar while the calling screen is mounted. */
export function useBreadcrumbExtra(text: string | null | undefined): void {
  const set = useContext(BreadcrumbExtraContext);
  useEffect(() => {
    set(text ?? null);
    return () => set(null);
  }, [set, text]);
}
