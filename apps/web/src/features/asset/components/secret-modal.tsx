// Shows a device's secret exactly once (a new device or a reset), with how a device signs in.
import { useTranslation } from 'react-i18next';
import { ShowOnceModal } from '../../../components/show-once-modal.tsx';

export interface DeviceSecret {
  deviceId: string;
  secret: string;
  /** A reset (the old secret stopped working) rather than a new device. */
  reset?: boolean;
}

export interface SecretModalProps {
  data: DeviceSecret | null;
  open: boolean;
  onClose: () => void;
  afterClose?: () => void;
}

export function SecretModal({ data, open, onClose, afterClose }: SecretModalProps) {
  const { t } = useTranslation();
  return (
    <ShowOnceModal
      secret={data?.secret ?? null}
      open={open}
      onClose={onClose}
      afterClose={afterClose}
      testId="device-secret"
      className="device-secret-modal"
      doneOnly
      texts={{
        title: data?.reset ? t('asset.secret.resetTitle') : t('asset.secret.title'),
        intro: t('asset.secret.for', { deviceId: data?.deviceId ?? '' }),
        copy: t('asset.secret.copy'),
        copied: t('asset.secret.copied'),
        copyFailed: t('asset.secret.copyFailed'),
        done: t('asset.secret.done'),
        once: t('asset.secret.once'),
        hint: t('asset.secret.hint'),
      }}
    >
      <p className="asset-secret-usage">{t('asset.secret.usage')}</p>
    </ShowOnceModal>
  );
}
