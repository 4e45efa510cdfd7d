// Forms that keep what was typed (issue 22 item 6): a drawer or dialog with changes asks before it
// closes (Esc, the mask, the close button, Cancel), and Enter in a date or select picker works the
// picker instead of submitting the form with the picker's value dropped; typed dates are read in
// every format people write them.
import { createElement, useCallback, useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { App, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The formats a typed date-time is read in, `display` first (the one it is shown in): with or
 * without seconds, with '-' or '/' between the date's parts, or ISO's 'T'.
 */
export function typedDateTimeFormats(display: string): string[] {
  const all = [display, 'YYYY-MM-DD HH:mm:ss', 'YYYY-MM-DD HH:mm', 'YYYY/MM/DD HH:mm:ss', 'YYYY/MM/DD HH:mm', 'YYYY-MM-DDTHH:mm:ss', 'YYYY-MM-DDTHH:mm'];
  return [...new Set(all)];
}

/** Whether `el` is a select or date picker whose list is open now (its own Enter and Esc). */
function pickerOpen(el: HTMLElement | null): boolean {
  const picker = el?.closest('.ant-picker, .ant-select');
  if (!picker) return false;
  if (picker.querySelector('[aria-expanded="true"]')) return true;
  return picker.classList.contains('ant-picker-focused') && !!document.querySelector('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
}

/**
 * A drawer's (or form's) onKeyDown: Enter inside a picker (date, select) never submits the form; Esc anywhere
 * in the form (but in an open picker, which it closes) asks `close`, the guarded one. The form
 * answers Esc itself: antd lets only the top-most portal take it, and a closed drawer rendered
 * ahead of time (forceRender) counts as one, so Esc did nothing in some drawers.
 */
export function formKeys(close: () => void): (e: KeyboardEvent<HTMLElement>) => void {
  return (e) => {
    const target = e.target as HTMLElement | null;
    if (e.key === 'Enter' && target?.closest('.ant-picker, .ant-select')) e.preventDefault();
    if (e.key === 'Escape' && !pickerOpen(target)) {
      e.stopPropagation();
      close();
    }
  };
}

/**
 * The form's values as compared: an empty text, null and undefined alike (typed and cleared is no
 * change); an option's React label and anything met twice (a cycle) left out.
 */
function snapshot(form: FormInstance): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(form.getFieldsValue(true), (_key, v: unknown) => {
    if (v === '' || v === null || typeof v === 'function') return undefined;
    if (typeof v === 'object') {
      if (seen.has(v) || '$$typeof' in v) return undefined;
      seen.add(v);
    }
    return v;
  });
}

/**
 * `close` guarded: when the form's values differ from what they were when the user first touched
 * the opened drawer or dialog (a key, a pointer, a focus or an input anywhere, before it acts), ask first in the
 * user's language and close only when the user agrees to lose them; an untouched or unchanged
 * form closes at once. The values are compared, not antd's "touched" flags: filling a form with
 * setFieldsValue marks every field filled as touched, so a drawer just opened asked too.
 */
export function useGuardedClose(form: FormInstance, close: () => void, open: boolean): () => void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const baseline = useRef<string | null>(null);
  useEffect(() => {
    if (!open) return;
    // Each opening starts afresh; the form is filled by then (in effects) or while the user looks.
    baseline.current = null;
    const take = () => {
      baseline.current ??= snapshot(form);
    };
    // Ahead of any handler (capture): a pointer, a key, a field focused or filled in (autofill, a
    // pasted or dropped text) anywhere, before the form's values change.
    const events = ['pointerdown', 'keydown', 'focusin', 'input'] as const;
    for (const type of events) document.addEventListener(type, take, true);
    return () => {
      for (const type of events) document.removeEventListener(type, take, true);
    };
  }, [open, form]);
  return useCallback(() => {
    if (baseline.current === null || baseline.current === snapshot(form)) {
      close();
      return;
    }
    modal.confirm({
      title: t('common.discardTitle'),
      content: t('common.discardContent'),
      okText: t('common.discard'),
      okButtonProps: { danger: true },
      cancelText: t('common.keepEditing'),
      className: 'discard-confirm',
      onOk: close,
    });
  }, [form, close, modal, t]);
}

/**
 * A dialog's modalRender that answers its keys (formKeys): antd gives Esc to the top-most portal
 * only, and a closed dialog rendered ahead of time (forceRender) may be that one.
 */
export function guardedModalRender(keys: (e: KeyboardEvent<HTMLElement>) => void): (node: ReactNode) => ReactNode {
  return (node) => createElement('div', { onKeyDown: keys }, node);
}
