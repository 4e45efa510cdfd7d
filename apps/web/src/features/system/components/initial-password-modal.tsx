// Shows a new user's (or a reset) initial password exactly once: the user must change it at the
// first sign-in.
import { useTranslation } from 'react-i18next';
import type { InitialPasswordData } from '@iotc/shared/platform';
import { ShowOnceModal } from '../../../components/show-once-modal.tsx';

export interface InitialPasswordModalProps {
  data: InitialPasswordData | null;
  open: boolean;
  onClose: () => void;
  afterClose?: () => void;
}

export function InitialPasswordModal({ data, open, onClose, afterClose }: InitialPasswordModalProps) {
  const { t } = useTranslation();
  return (
    <ShowOnceModal
      secret={data?.initialPassword ?? null}
      open={open}
      onClose={onClose}
      afterClose={afterClose}
      testId="initial-password"
      className="initial-password-modal"
      texts={{
        title: t('system.users.initialPasswordTitle'),
        intro: t('system.users.initialPasswordFor', { account: data?.account ?? '' }),
        copy: t('system.users.copy'),
        copied: t('system.users.passwordCopied'),
        copyFailed: t('system.users.copyFailed'),
        done: t('system.users.initialPasswordDone'),
        once: t('system.users.initialPasswordOnce'),
        hint: t('system.users.initialPasswordHint'),
      }}
    />
  );
}
