// Open/close state of a dialog that works on one target (a row, an organisation): the target
// outlives the close so the dialog's content stays put while its closing animation runs.
import { useCallback, useState } from 'react';

export interface Dialog<T> {
  target: T | null;
  open: boolean;
  show: (target: T) => void;
  hide: () => void;
  /** For the dialog's `afterClose`: forgets the target once the dialog is gone. */
  afterClose: () => void;
}

export function useDialog<T>(): Dialog<T> {
  const [target, setTarget] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const show = useCallback((next: T) => {
    setTarget(next);
    setOpen(true);
  }, []);
  const hide = useCallback(() => setOpen(false), []);
  const afterClose = useCallback(() => setTarget(null), []);
  return { target, open, show, hide, afterClose };
}
