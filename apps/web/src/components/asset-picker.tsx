// Choosing one asset: its kind first (a small select), then a server-side search of that kind's
// assets by code or name (api/pickers.ts: the first 20, labelled "code · name"). The kinds
// offered and their names are the screen's; a new kind is a new search, and the owner clears the
// value when the kind changes (an asset of one kind is none of another).
import { useCallback, type CSSProperties } from 'react';
import { Select, Space } from 'antd';
import type { AssetKind } from '@iotc/shared/asset';
import { searchAssets } from '../api/pickers.ts';
import { RemoteSelect, type RemoteFetcher, type RemoteOption } from './remote-select.tsx';

export interface AssetPickerProps<K extends AssetKind> {
  kinds: readonly K[];
  kind: K;
  onKindChange: (kind: K) => void;
  /** A kind's name in the screen's words. */
  kindName: (kind: K) => string;
  /** The kind select's name for assistive technology. */
  kindLabel: string;
  kindTestId: string;
  kindWidth?: number;
  kindClassName?: string;
  value?: string;
  onChange: (id: string | undefined, option?: RemoteOption) => void;
  /** The search of a kind, when the screen keeps more than the options (default: the shared asset search). */
  search?: (kind: K, text: string, signal: AbortSignal) => Promise<RemoteOption[]>;
  initialOptions?: RemoteOption[];
  placeholder?: string;
  id?: string;
  'data-testid'?: string;
  className?: string;
  /** The group's style; without one it takes the row (`block`). */
  style?: CSSProperties;
}

/** The kind half of an asset picker: the screen's kinds by name, kept at its width in a compact group. */
export function AssetKindSelect<K extends AssetKind>({
  kinds,
  kind,
  onChange,
  kindName,
  label,
  testId,
  width = 140,
  className,
}: {
  kinds: readonly K[];
  kind: K;
  onChange: (kind: K) => void;
  kindName: (kind: K) => string;
  label: string;
  testId: string;
  width?: number;
  className?: string;
}) {
  return (
    <Select<K>
      aria-label={label}
      data-testid={testId}
      className={className}
      // Inline: in a compact group antd's own item styles can outrank a class (the policy drawer's kind took the whole row).
      style={{ width, flex: 'none' }}
      value={kind}
      options={kinds.map((k) => ({ value: k, label: kindName(k) }))}
      onChange={onChange}
    />
  );
}

/** The search of the chosen kind: the screen's own, else the shared asset search. */
export function useKindSearch<K extends AssetKind>(kind: K, search?: (kind: K, text: string, signal: AbortSignal) => Promise<RemoteOption[]>): RemoteFetcher {
  return useCallback<RemoteFetcher>((text, signal) => (search ? search(kind, text, signal) : searchAssets(kind, text, signal)), [kind, search]);
}

export function AssetPicker<K extends AssetKind>(props: AssetPickerProps<K>) {
  const { kinds, kind, onKindChange, kindName, kindLabel, kindTestId, kindWidth = 140, kindClassName, value, onChange, search, initialOptions, placeholder, id, className, style } = props;
  const fetcher = useKindSearch(kind, search);
  return (
    <Space.Compact className={className} block={!style} style={style}>
      <AssetKindSelect kinds={kinds} kind={kind} onChange={onKindChange} kindName={kindName} label={kindLabel} testId={kindTestId} width={kindWidth} className={kindClassName} />
      {/* A new kind is a new search: the options of the previous kind must not linger. */}
      <RemoteSelect
        key={kind}
        id={id}
        fetcher={fetcher}
        value={value}
        onChange={onChange}
        initialOptions={initialOptions}
        placeholder={placeholder}
        data-testid={props['data-testid']}
        style={{ flex: 1, minWidth: 0 }}
      />
    </Space.Compact>
  );
}
