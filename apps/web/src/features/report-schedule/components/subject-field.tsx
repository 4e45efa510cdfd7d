// The subjects of a scheduled report, by its kind: one asset for the temperature record (cold
// room, refrigerator, warehouse, vehicle or container), several assets for alarms and mileage,
// several devices for the online rate; none picked means all of them. Assets are searched one
// kind at a time with a small kind select beside the search.
import { useCallback, useMemo, useState } from 'react';
import { Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AssetKind } from '@iotc/shared/asset';
import { MAX_REPORT_SUBJECTS, type ScheduleKind } from '@iotc/shared/ops-report';
import { searchAssets, searchDevices } from '../../../api/pickers.ts';
import { MultiRemoteSelect } from '../../../components/multi-remote-select.tsx';
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
      <MultiRemoteSelect
        id={id}
        fetcher={searchDevices}
        value={value}
        onChange={onChange}
        names={known}
        onPicked={remember}
        maxCount={MAX_REPORT_SUBJECTS}
        placeholder={t('reportSchedule.form.allDevices')}
        data-testid="rs-subjects"
      />
    );

  const kindSelect = (
    <Select<AssetKind>
      aria-label={t('reportSchedule.form.assetKind')}
      data-testid="rs-asset-kind"
      value={assetKind}
      style={{ width: 130 }}
      options={kinds.map((k) => ({ value: k, label: t(`reportSchedule.assetKind.${k}`) }))}
      onChange={setPicked}
    />
  );
  const first = value[0];
  return (
    <Space.Compact block>
      {kindSelect}
      {/* A new kind is a new search: the options of the previous kind must not linger. */}
      {rule.mode === 'one-asset' ? (
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
      ) : (
        <MultiRemoteSelect
          key={assetKind}
          id={id}
          fetcher={assets}
          value={value}
          onChange={onChange}
          names={known}
          onPicked={remember}
          maxCount={MAX_REPORT_SUBJECTS}
          placeholder={t('reportSchedule.form.allAssets')}
          style={{ flex: 1, minWidth: 0 }}
          data-testid="rs-subjects"
        />
      )}
    </Space.Compact>
  );
}
