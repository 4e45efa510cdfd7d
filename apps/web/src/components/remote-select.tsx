// A select whose options come from the server as the user types (spec section 2, remote-search
// select): searches wait 300 ms of quiet, a new search aborts the one in flight, and an answer
// that arrives after a newer search started is dropped, so the list always matches the input.
import { useCallback, useEffect, useRef, useState, type CSSProperties } from 'react';
import { Empty, Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export interface RemoteOption {
  value: string;
  label: string;
}

export type RemoteFetcher = (search: string, signal: AbortSignal) => Promise<RemoteOption[]>;

export const REMOTE_SEARCH_DEBOUNCE_MS = 300;

export interface RemoteSelectProps {
  fetcher: RemoteFetcher;
  value?: string;
  onChange?: (value: string | undefined, option?: RemoteOption) => void;
  placeholder?: string;
  allowClear?: boolean;
  disabled?: boolean;
  style?: CSSProperties;
  id?: string;
  'data-testid'?: string;
  /** The control's name for assistive technology; without a label element pointing at `id`, the placeholder names it. */
  'aria-label'?: string;
  /** Options known before any search (e.g. the label of the current value). */
  initialOptions?: RemoteOption[];
}

/**
 * The search state of a remote select: `search(text)` debounces, aborts the previous request
 * and keeps only the newest answer.
 */
export function useRemoteOptions(fetcher: RemoteFetcher, initial: RemoteOption[] = [], delay = REMOTE_SEARCH_DEBOUNCE_MS) {
  const [options, setOptions] = useState<RemoteOption[]>(initial);
  const [loading, setLoading] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<AbortController | undefined>(undefined);
  const fetcherRef = useRef(fetcher);
  useEffect(() => {
    fetcherRef.current = fetcher;
  }, [fetcher]);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
    },
    [],
  );

  const search = useCallback(
    (text: string) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        inFlight.current?.abort();
        const controller = new AbortController();
        inFlight.current = controller;
        setLoading(true);
        fetcherRef.current(text, controller.signal).then(
          (found) => {
            if (inFlight.current !== controller) return;
            setOptions(found);
            setLoading(false);
          },
          () => {
            // An aborted request was replaced by a newer one; a failed one was reported by the client.
            if (inFlight.current !== controller) return;
            setOptions([]);
            setLoading(false);
          },
        );
      }, delay);
    },
    [delay],
  );

  return { options, loading, search };
}

export function RemoteSelect({ fetcher, value, onChange, placeholder, allowClear = true, disabled, style, id, initialOptions, ...rest }: RemoteSelectProps) {
  const { t } = useTranslation();
  const { options, loading, search } = useRemoteOptions(fetcher, initialOptions);
  return (
    <Select<string, RemoteOption>
      id={id}
      data-testid={rest['data-testid']}
      aria-label={rest['aria-label'] ?? (id ? undefined : placeholder)}
      style={style}
      value={value}
      disabled={disabled}
      allowClear={allowClear}
      placeholder={placeholder ?? t('filter.select')}
      // The server filters; the options shown are its answer as it stands.
      showSearch={{ filterOption: false, onSearch: search }}
      options={options}
      loading={loading}
      onOpenChange={(open) => {
        if (open && options.length === 0) search('');
      }}
      onChange={(next, option) => onChange?.(next, Array.isArray(option) ? option[0] : option)}
      notFoundContent={loading ? <Spin size="small" /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.noData')} />}
    />
  );
}
