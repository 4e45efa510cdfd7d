// Choosing several assets: a small kind select, then a search of that kind's assets (api/pickers.ts:
// code or name, the first 20, labelled "code · name"); picks of several kinds add up, and keep
// their names when the kind changes (the search of the new kind no longer holds them). The kinds
// offered and their names are the screen's; with one kind there is no kind select.
import { useCallback, useMemo, useState, type CSSProperties } from 'react';
import { Space } from 'antd';
import type { AssetKind } from '@iotc/shared/asset';
import { AssetKindSelect, useKindSearch } from './asset-picker.tsx';
import { MultiRemoteSelect } from './multi-remote-select.tsx';
import type { RemoteOption } from './remote-select.tsx';

export interface MultiAssetPickerProps<K extends AssetKind> {
  kinds: readonly K[];
  /** A kind's name in the screen's words. */
  kindName: (kind: K) => string;
  /** The kind select's name for assistive technology. */
  kindLabel: string;
  kindTestId: string;
  kindWidth?: number;
  kindClassName?: string;
  value?: string[];
  onChange?: (ids: string[]) => void;
  /** Names of values known before any search (a stored selection, the report shown). */
  names?: Record<string, string>;
  /** The search of a kind, when the screen labels its options otherwise (default: the shared asset search). */
  search?: (kind: K, text: string, signal: AbortSignal) => Promise<RemoteOption[]>;
  placeholder?: string;
  maxCount?: number;
  allowClear?: boolean;
  id?: string;
  'data-testid'?: string;
  className?: string;
  /** The group's style; without one it takes the row (`block`). */
  style?: CSSProperties;
}

export function MultiAssetPicker<K extends AssetKind>(props: MultiAssetPickerProps<K>) {
  const { kinds, kindName, kindLabel, kindTestId, kindWidth = 140, kindClassName, value, onChange, names, search, placeholder, maxCount, allowClear, id, className, style } = props;
  const [picked, setPicked] = useState<K | undefined>(kinds[0]);
  // The kinds may change under it (another report kind): a kind no longer offered gives way to the first.
  const kind = picked !== undefined && kinds.includes(picked) ? picked : kinds[0]!;
  // Names of picks made under another kind, which the remounted search no longer holds.
  const [seen, setSeen] = useState<Record<string, string>>({});
  const remember = useCallback((options: RemoteOption[]) => setSeen((prev) => ({ ...prev, ...Object.fromEntries(options.map((o) => [o.value, o.label])) })), []);
  const known = useMemo(() => ({ ...names, ...seen }), [names, seen]);
  const fetcher = useKindSearch(kind, search);
  return (
    <Space.Compact className={className} block={!style} style={style}>
      {kinds.length > 1 ? (
        <AssetKindSelect kinds={kinds} kind={kind} onChange={setPicked} kindName={kindName} label={kindLabel} testId={kindTestId} width={kindWidth} className={kindClassName} />
      ) : null}
      {/* A new kind is a new search: the options of the previous kind must not linger. */}
      <MultiRemoteSelect
        key={kind}
        id={id}
        fetcher={fetcher}
        value={value}
        onChange={onChange}
        names={known}
        onPicked={remember}
        placeholder={placeholder}
        maxCount={maxCount}
        allowClear={allowClear}
        style={{ flex: 1, minWidth: 0 }}
        data-testid={props['data-testid']}
      />
    </Space.Compact>
  );
}
