// What a policy applies to, per scope: devices found by a server search; assets found by a
// server search of one kind at a time (a small kind select beside it; picks of several kinds
// add up); or asset kinds from a fixed list. The names of what a stored policy already names
// are looked up once, since the policy holds only ids.
import { useCallback, useState } from 'react';
import { Empty, Select, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PolicyScope } from '@iotc/shared/alarm';
import { ASSET_KINDS, type AssetKind } from '@iotc/shared/asset';
import { searchAssets, searchDevices } from '../../../api/pickers.ts';
import { useRemoteOptions, type RemoteFetcher, type RemoteOption } from '../../../components/remote-select.tsx';
import { useTargetNames } from '../api/policy-targets.ts';
import { KIND_LABELS } from './policy-form-model.ts';

type Names = Record<string, string>;

interface SearchSelectProps {
  id?: string;
  value: string[];
  onChange: (ids: string[], picked: RemoteOption[]) => void;
  fetcher: RemoteFetcher;
  names: Names;
  testId: string;
}

/** A multiple select searching the server as the user types; chosen values keep their names. */
function SearchSelect({ id, value, onChange, fetcher, names, testId }: SearchSelectProps) {
  const { t } = useTranslation();
  const { options, loading, search } = useRemoteOptions(fetcher);
  const found = new Set(options.map((o) => o.value));
  // Chosen values outside the current answer stay visible with the name known for them.
  const shown = [...options, ...value.filter((v) => !found.has(v)).map((v) => ({ value: v, label: names[v] ?? v }))];
  return (
    <Select<string[], RemoteOption>
      id={id}
      mode="multiple"
      data-testid={testId}
      value={value}
      options={shown}
      loading={loading}
      placeholder={t('alarmConfig.scope.search')}
      showSearch={{ filterOption: false, onSearch: search }}
      onOpenChange={(open) => {
        if (open && options.length === 0) search('');
      }}
      onChange={(ids, picked) => onChange(ids, (Array.isArray(picked) ? picked : [picked]).filter((o): o is RemoteOption => !!o && 'value' in o))}
      notFoundContent={loading ? <Spin size="small" /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.noData')} />}
      style={{ flex: 1, minWidth: 0, width: '100%' }}
      maxTagCount="responsive"
    />
  );
}

export interface TargetPickerProps {
  id?: string;
  scope: PolicyScope;
  value?: string[];
  onChange?: (ids: string[]) => void;
  /** The ids the stored policy names (for this scope): their names are looked up. */
  storedIds: string[];
}

export function TargetPicker({ id, scope, value = [], onChange, storedIds }: TargetPickerProps) {
  const { t } = useTranslation();
  const kindName = useCallback((k: AssetKind) => t(KIND_LABELS[k]), [t]);
  const [kind, setKind] = useState<AssetKind>('vehicle');
  const [picked, setPicked] = useState<Names>({});
  const stored = useTargetNames(scope === 'assets' ? 'assets' : 'devices', scope === 'devices' || scope === 'assets' ? storedIds : []);

  const assets = useCallback<RemoteFetcher>(
    async (search, signal) => (await searchAssets(kind, search, signal)).map((o) => ({ value: o.value, label: `${kindName(kind)} · ${o.label}` })),
    [kind, kindName],
  );

  if (scope === 'all') return null;

  if (scope === 'asset_kinds') {
    return (
      <Select<string[]>
        id={id}
        mode="multiple"
        data-testid="policy-targets"
        value={value}
        onChange={(ids) => onChange?.(ids)}
        options={ASSET_KINDS.map((k) => ({ value: k, label: kindName(k) }))}
        placeholder={t('filter.select')}
        style={{ width: '100%' }}
      />
    );
  }

  const names: Names = {};
  for (const [key, n] of Object.entries(stored.data ?? {})) names[key] = n.kind ? `${kindName(n.kind)} · ${n.label}` : n.label;
  Object.assign(names, picked);
  const change = (ids: string[], options: RemoteOption[]) => {
    setPicked((p) => ({ ...p, ...Object.fromEntries(options.map((o) => [o.value, o.label])) }));
    onChange?.(ids);
  };

  if (scope === 'devices') return <SearchSelect id={id} value={value} onChange={change} fetcher={searchDevices} names={names} testId="policy-targets" />;

  return (
    <Space.Compact block className="alarm-asset-picker">
      <Select<AssetKind>
        aria-label={t('alarmConfig.scope.assetKind')}
        data-testid="policy-asset-kind"
        className="alarm-asset-kind"
        // Inline: in a compact group antd's own item styles outrank a class, and the kind took the whole row.
        style={{ width: 140, flex: 'none' }}
        value={kind}
        options={ASSET_KINDS.map((k) => ({ value: k, label: kindName(k) }))}
        onChange={setKind}
      />
      {/* A new kind is a new search: the options of the previous kind must not linger. */}
      <SearchSelect key={kind} id={id} value={value} onChange={change} fetcher={assets} names={names} testId="policy-targets" />
    </Space.Compact>
  );
}
