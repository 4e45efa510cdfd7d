// The subjects of a scheduled report, by its kind: one asset for the temperature record (cold
// room, refrigerator, warehouse, vehicle or container), several assets for alarms and mileage
// (components/multi-asset-picker.tsx), several devices for the online rate; none picked means all
// of them. Assets are searched one kind at a time with a small kind select beside the search.
import { useCallback, useMemo, useState } from 'react';
import { Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AssetKind } from '@iotc/shared/asset';
import { MAX_REPORT_SUBJECTS, type ScheduleKind } from '@iotc/shared/ops-report';
import { searchAssets } from '../../../api/pickers.ts';
import { DevicesPicker } from '../../../components/device-picker.tsx';
import { MultiAssetPicker } from '../../../components/multi-asset-picker.tsx';
import { RemoteSelect, type RemoteFetcher, type RemoteOption } from '../../../components/remote-select.tsx';
import { SUBJECTS_OF_KIND } from './schedule-model.ts';

export interface SubjectFieldProps {
  kind: ScheduleKind;
  id?: string;
  value?: string[];
  onChange?: (ids: string[]) => void;
  /** Names of the subjects the stored schedule holds. */
  names: Record<string, string>;
}

export function SubjectField({ kind, id, value = [], onChange, names }: SubjectFieldProps) {
  const { t } = useTranslation();
  const rule = SUBJECTS_OF_KIND[kind];
  const kinds = rule.mode === 'devices' ? [] : rule.kinds;
  const [picked, setPicked] = useState<AssetKind>(kinds[0] ?? 'vehicle');
  const assetKind = kinds.includes(picked) ? picked : (kinds[0] ?? 'vehicle');
  const [seen, setSeen] = useState<Record<string, string>>({});
  const remember = useCallback((options: RemoteOption[]) => setSeen((prev) => ({ ...prev, ...Object.fromEntries(options.map((o) => [o.value, o.label])) })), []);
  const known = useMemo(() => ({ ...names, ...seen }), [names, seen]);
  const assets = useCallback<RemoteFetcher>((search, signal) => searchAssets(assetKind, search, signal), [assetKind]);

  if (rule.mode === 'devices')
    return (
      <DevicesPicker
        id={id}
        value={value}
        onChange={onChange}
        names={known}
        maxCount={MAX_REPORT_SUBJECTS}
        placeholder={t('reportSchedule.form.allDevices')}
        data-testid="rs-subjects"
      />
    );

  if (rule.mode === 'assets')
    return (
      <MultiAssetPicker
        kinds={kinds}
        kindName={(k) => t(`reportSchedule.assetKind.${k}`)}
        kindLabel={t('reportSchedule.form.assetKind')}
        kindTestId="rs-asset-kind"
        kindWidth={130}
        id={id}
        value={value}
        onChange={onChange}
        names={known}
        maxCount={MAX_REPORT_SUBJECTS}
        placeholder={t('reportSchedule.form.allAssets')}
        data-testid="rs-subjects"
      />
    );

  const first = value[0];
  return (
    <Space.Compact block>
      <Select<AssetKind>
        aria-label={t('reportSchedule.form.assetKind')}
        data-testid="rs-asset-kind"
        value={assetKind}
        style={{ width: 130 }}
        options={kinds.map((k) => ({ value: k, label: t(`reportSchedule.assetKind.${k}`) }))}
        onChange={setPicked}
      />
      {/* A new kind is a new search: the options of the previous kind must not linger. */}
      <RemoteSelect
        key={`${assetKind}-${first && known[first] ? 'named' : 'bare'}`}
        id={id}
        fetcher={assets}
        value={first}
        onChange={(v, option) => {
          if (option) remember([option]);
          onChange?.(v ? [v] : []);
        }}
        initialOptions={first ? [{ value: first, label: known[first] ?? first }] : []}
        placeholder={t('reportSchedule.form.pickAsset')}
        style={{ flex: 1, minWidth: 0 }}
        data-testid="rs-subject"
      />
    </Space.Compact>
  );
}
