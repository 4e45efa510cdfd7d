// A select of several values whose options come from the server as the user types (the remote
// select's search: debounced, the one in flight aborted, late answers dropped). Picked values
// keep their names whatever the current search shows: the names in `names`, else those seen in
// earlier answers, else the id.
import { useMemo, useState, type CSSProperties } from 'react';
import { Empty, Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRemoteOptions, type RemoteFetcher, type RemoteOption } from './remote-select.tsx';

export interface MultiRemoteSelectProps {
  fetcher: RemoteFetcher;
  value?: string[];
  onChange?: (ids: string[]) => void;
  /** Names of values known before any search (a stored selection). */
  names?: Record<string, string>;
  /** Told the options of the answer a pick was made from (a parent that remounts this keeps their names). */
  onPicked?: (options: RemoteOption[]) => void;
  placeholder?: string;
  maxCount?: number;
  /** A button that empties the selection (default: shown). */
  allowClear?: boolean;
  id?: string;
  style?: CSSProperties;
  'data-testid'?: string;
  /** The control's name for assistive technology; without a label element pointing at `id`, the placeholder names it. */
  'aria-label'?: string;
}

export function MultiRemoteSelect({ fetcher, value, onChange, names, onPicked, placeholder, maxCount, allowClear = true, id, style, ...rest }: MultiRemoteSelectProps) {
  const { t } = useTranslation();
  const { options, loading, search } = useRemoteOptions(fetcher);
  const [seen, setSeen] = useState<Record<string, string>>({});
  const picked = useMemo(() => value ?? [], [value]);
  const shown = useMemo(() => {
    const found = new Set(options.map((o) => o.value));
    const kept = picked.filter((v) => !found.has(v)).map((v) => ({ value: v, label: seen[v] ?? names?.[v] ?? v }));
    return [...kept, ...options];
  }, [options, picked, names, seen]);
  return (
    <Select<string[], RemoteOption>
      id={id}
      mode="multiple"
      data-testid={rest['data-testid']}
      aria-label={rest['aria-label'] ?? (id ? undefined : placeholder)}
      value={picked}
      options={shown}
      loading={loading}
      allowClear={allowClear}
      maxCount={maxCount}
      maxTagCount="responsive"
      placeholder={placeholder ?? t('filter.select')}
      showSearch={{ filterOption: false, onSearch: search }}
      onOpenChange={(open) => {
        if (open && options.length === 0) search('');
      }}
      onChange={(ids) => {
        setSeen((prev) => ({ ...prev, ...Object.fromEntries(options.map((o) => [o.value, o.label])) }));
        onPicked?.(options);
        onChange?.(ids);
      }}
      notFoundContent={loading ? <Spin size="small" /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.noData')} />}
      style={style}
    />
  );
}
