// A confirmed action of the management screens: an antd confirm dialog (class `confirm-dialog`)
// whose OK runs the call; a refusal (a 409's reason) is shown in the user's language.
import { App } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { apiErrorText } from './api-error.ts';
import { useLang } from './language.ts';

export interface ConfirmAction {
  title: ReactNode;
  content?: ReactNode;
  okText?: string;
  danger?: boolean;
  /** The call; its failure is reported, never thrown. */
  action: () => Promise<unknown>;
  /** Shown after the call succeeded. */
  success?: string;
  onDone?: () => void;
}

export function useConfirmAction(): (a: ConfirmAction) => void {
  const { modal, message } = App.useApp();
  const { t } = useTranslation();
  const lang = useLang();
  return (a) => {
    modal.confirm({
      title: a.title,
      content: a.content,
      className: 'confirm-dialog',
      okText: a.okText ?? t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: a.danger },
      onOk: async () => {
        try {
          await a.action();
          if (a.success) void message.success(a.success);
          a.onDone?.();
        } catch (error) {
          void message.error({ content: apiErrorText(error, lang), className: 'action-error', duration: 6 });
        }
      },
    });
  };
}
