// Choosing an asset of any kind: the kind first, then a server-side search of that kind's
// assets by code or name.
import { useCallback } from 'react';
import { Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { ASSET_KINDS, type AssetKind } from '@iotc/shared/asset';
import { searchAssets } from '../../../api/pickers.ts';
import { RemoteSelect, type RemoteOption } from '../../../components/remote-select.tsx';
import { useLabel } from '../../../lib/label.ts';
import { kindLabel } from './asset-kinds.ts';

export interface AssetPickerProps {
  kind: AssetKind;
  onKindChange: (kind: AssetKind) => void;
  value?: string;
  onChange: (id: string | undefined, option?: RemoteOption) => void;
}

export function AssetPicker({ kind, onKindChange, value, onChange }: AssetPickerProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const fetcher = useCallback((search: string, signal: AbortSignal) => searchAssets(kind, search, signal), [kind]);
  return (
    <Space.Compact className="asset-picker" block>
      <Select<AssetKind>
        aria-label={t('asset.binding.assetKind')}
        data-testid="asset-picker-kind"
        className="asset-picker-kind"
        // Inline: in a compact group antd's own item styles can outrank a class (the policy drawer's kind took the whole row).
        style={{ width: 140, flex: 'none' }}
        value={kind}
        options={ASSET_KINDS.map((k) => ({ value: k, label: label(kindLabel(k)) }))}
        onChange={(k) => {
          onKindChange(k);
          onChange(undefined);
        }}
        classNames={{ popup: { root: 'asset-picker-kind-popup' } }}
      />
      {/* A new kind is a new search: the options of the previous kind must not linger. */}
      <RemoteSelect
        key={kind}
        fetcher={fetcher}
        value={value}
        onChange={onChange}
        placeholder={t('asset.binding.pick')}
        data-testid="asset-picker"
        style={{ flex: 1, minWidth: 0 }}
      />
    </Space.Compact>
  );
}
