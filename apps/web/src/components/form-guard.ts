// Forms that keep what was typed (issue 22 item 6): a drawer or dialog with changes asks before it
// closes (Esc, the mask, the close button, Cancel), and Enter in a date or select picker works the
// picker instead of submitting the form with the picker's value dropped; typed dates are read in
// every format people write them.
import { useCallback, type KeyboardEvent } from 'react';
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
 * `close` guarded: when the form has changes since it was filled, ask first (in the user's
 * language) and close only when the user agrees to lose them.
 */
export function useGuardedClose(form: FormInstance, close: () => void): () => void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  return useCallback(() => {
    if (!form.isFieldsTouched()) {
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
