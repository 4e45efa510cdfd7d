// What a policy applies to, per scope: devices found by a server search (components/device-picker);
// assets found by a server search of one kind at a time (components/multi-asset-picker: a small
// kind select beside it; picks of several kinds add up), each named with its kind; or asset kinds
// from a fixed list. The names of what a stored policy already names are looked up once, since
// the policy holds only ids.
import { useCallback } from 'react';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PolicyScope } from '@iotc/shared/alarm';
import { ASSET_KINDS, type AssetKind } from '@iotc/shared/asset';
import { searchAssets } from '../../../api/pickers.ts';
import { DevicesPicker } from '../../../components/device-picker.tsx';
import { MultiAssetPicker } from '../../../components/multi-asset-picker.tsx';
import { useTargetNames } from '../api/policy-targets.ts';
import { KIND_LABELS } from './policy-form-model.ts';

type Names = Record<string, string>;

/** The search's width in the drawer: the rest of the row. */
const SEARCH_STYLE = { flex: 1, minWidth: 0, width: '100%' };

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
  const stored = useTargetNames(scope === 'assets' ? 'assets' : 'devices', scope === 'devices' || scope === 'assets' ? storedIds : []);
  // Assets are named with their kind ("Vehicle · V-007 · Truck 7"): a policy may name several kinds.
  const assets = useCallback(async (kind: AssetKind, search: string, signal: AbortSignal) => (await searchAssets(kind, search, signal)).map((o) => ({ value: o.value, label: `${kindName(kind)} · ${o.label}` })), [kindName]);

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
  const change = (ids: string[]) => onChange?.(ids);

  if (scope === 'devices')
    return <DevicesPicker id={id} value={value} onChange={change} names={names} placeholder={t('alarmConfig.scope.search')} allowClear={false} style={SEARCH_STYLE} data-testid="policy-targets" />;

  return (
    <MultiAssetPicker
      kinds={ASSET_KINDS}
      kindName={kindName}
      kindLabel={t('alarmConfig.scope.assetKind')}
      kindTestId="policy-asset-kind"
      kindClassName="alarm-asset-kind"
      className="alarm-asset-picker"
      search={assets}
      id={id}
      value={value}
      onChange={change}
      names={names}
      placeholder={t('alarmConfig.scope.search')}
      allowClear={false}
      data-testid="policy-targets"
    />
  );
}
