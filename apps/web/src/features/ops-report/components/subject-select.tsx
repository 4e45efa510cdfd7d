// The report filters' subject picker: several devices, or several assets searched one kind at a
// time (a small kind select beside the search; picks of several kinds add up). Nothing picked
// means every device or asset of the organisation.
import { useCallback, useMemo, useState } from 'react';
import { Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AssetKind } from '@iotc/shared/asset';
import { MAX_REPORT_SUBJECTS } from '@iotc/shared/ops-report';
import { searchAssets, searchDevices } from '../../../api/pickers.ts';
import { MultiRemoteSelect } from '../../../components/multi-remote-select.tsx';
import type { RemoteFetcher, RemoteOption } from '../../../components/remote-select.tsx';

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
  const [kind, setKind] = useState<AssetKind>(kinds?.[0] ?? 'vehicle');
  // Names of picks made under another kind, which the remounted search no longer holds.
  const [seen, setSeen] = useState<Record<string, string>>({});
  const remember = useCallback((options: RemoteOption[]) => setSeen((prev) => ({ ...prev, ...Object.fromEntries(options.map((o) => [o.value, o.label])) })), []);
  const names = useMemo(() => ({ ...known, ...seen }), [known, seen]);
  const assets = useCallback<RemoteFetcher>((search, signal) => searchAssets(kind, search, signal), [kind]);
  const select = (fetcher: RemoteFetcher, key?: string) => (
    <MultiRemoteSelect
      key={key}
      fetcher={fetcher}
      value={value}
      onChange={onChange}
      names={names}
      onPicked={remember}
      placeholder={placeholder}
      maxCount={MAX_REPORT_SUBJECTS}
      style={{ flex: 1, minWidth: 0 }}
      data-testid="ops-subjects"
    />
  );
  return (
    <Space.Compact style={{ width }}>
      {kinds && kinds.length > 1 ? (
        <Select<AssetKind>
          aria-label={t('opsReport.assetKind')}
          data-testid="ops-asset-kind"
          value={kind}
          style={{ width: 120 }}
          options={kinds.map((k) => ({ value: k, label: t(`opsReport.kind.${k}`) }))}
          onChange={setKind}
        />
      ) : null}
      {/* A new kind is a new search: the options of the previous kind must not linger. */}
      {kinds ? select(assets, kind) : select(searchDevices)}
    </Space.Compact>
  );
}
