// The report filters' subject picker: several devices, or several assets searched one kind at a
// time (components/multi-asset-picker.tsx: a small kind select beside the search; picks of several
// kinds add up). Nothing picked means every device or asset of the organisation.
import { useTranslation } from 'react-i18next';
import type { AssetKind } from '@iotc/shared/asset';
import { MAX_REPORT_SUBJECTS } from '@iotc/shared/ops-report';
import { DevicesPicker } from '../../../components/device-picker.tsx';
import { MultiAssetPicker } from '../../../components/multi-asset-picker.tsx';

export interface SubjectSelectProps {
  /** Devices, or assets of these kinds. */
  kinds?: readonly AssetKind[];
  value: string[];
  onChange: (ids: string[]) => void;
  /** Names already known (from the report shown), so ids from the address read as names. */
  known: Record<string, string>;
  placeholder: string;
  width?: number;
}

export function SubjectSelect({ kinds, value, onChange, known, placeholder, width = 440 }: SubjectSelectProps) {
  const { t } = useTranslation();
  if (!kinds) return <DevicesPicker value={value} onChange={onChange} names={known} placeholder={placeholder} maxCount={MAX_REPORT_SUBJECTS} style={{ width }} data-testid="ops-subjects" />;
  return (
    <MultiAssetPicker
      kinds={kinds}
      kindName={(k) => t(`opsReport.kind.${k}`)}
      kindLabel={t('opsReport.assetKind')}
      kindTestId="ops-asset-kind"
      kindWidth={120}
      value={value}
      onChange={onChange}
      names={known}
      placeholder={placeholder}
      maxCount={MAX_REPORT_SUBJECTS}
      style={{ width }}
      data-testid="ops-subjects"
    />
  );
}
