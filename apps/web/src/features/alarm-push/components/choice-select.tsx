// A multiple select of things the server lists (policies, users, roles): a first page offered as
// it opens, a server search as the user types (when the list may be longer than that page), and
// the chosen values kept visible with the best name known for them. Disabled, it still shows
// what the rule holds, with a hint below saying why it cannot offer more.
import { useState, type ReactNode } from 'react';
import { Empty, Select, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRemoteOptions, type RemoteFetcher, type RemoteOption } from '../../../components/remote-select.tsx';

export interface ChoiceSelectProps {
  id?: string;
  value?: string[];
  onChange?: (ids: string[]) => void;
  /** What is offered before anything is typed. */
  base: RemoteOption[];
  /** The server search as the user types; without it the base list is filtered here. */
  search?: RemoteFetcher;
  /** Names of chosen values that are not among the options. */
  names?: Record<string, string>;
  /** The label of a chosen value whose name is unknown. */
  unknownLabel: (id: string) => string;
  loading?: boolean;
  disabled?: boolean;
  /** Shown below the select (why it is disabled, what an empty choice means). */
  hint?: ReactNode;
  placeholder?: string;
  testId: string;
}

const NO_SEARCH: RemoteFetcher = () => Promise.resolve([]);

export function ChoiceSelect({ id, value = [], onChange, base, search, names = {}, unknownLabel, loading, disabled, hint, placeholder, testId }: ChoiceSelectProps) {
  const { t } = useTranslation();
  const remote = useRemoteOptions(search ?? NO_SEARCH);
  const [typed, setTyped] = useState('');
  const [picked, setPicked] = useState<Record<string, string>>({});
  const offered = search && typed.trim() ? remote.options : base;
  const known = new Set(offered.map((o) => o.value));
  const label = (v: string) => picked[v] ?? names[v] ?? base.find((o) => o.value === v)?.label ?? unknownLabel(v);
  // Chosen values outside what is offered stay visible with the name known for them.
  const options = [...offered, ...value.filter((v) => !known.has(v)).map((v) => ({ value: v, label: label(v) }))];
  const busy = loading || (!!typed.trim() && remote.loading);
  return (
    <div className="push-choice">
      <Select<string[], RemoteOption>
        id={id}
        mode="multiple"
        data-testid={testId}
        value={value}
        options={options}
        disabled={disabled}
        loading={busy}
        allowClear
        placeholder={placeholder ?? t('filter.select')}
        showSearch={
          search
            ? {
                filterOption: false,
                onSearch: (text) => {
                  setTyped(text);
                  if (text.trim()) remote.search(text);
                },
              }
            : { optionFilterProp: 'label' }
        }
        onBlur={() => setTyped('')}
        onChange={(ids, chosen) => {
          const list = (Array.isArray(chosen) ? chosen : [chosen]).filter((o): o is RemoteOption => !!o && 'value' in o);
          setPicked((p) => ({ ...p, ...Object.fromEntries(list.map((o) => [o.value, o.label])) }));
          onChange?.(ids);
        }}
        notFoundContent={busy ? <Spin size="small" /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.noData')} />}
        style={{ width: '100%' }}
      />
      {hint ? (
        <div className="push-hint" data-testid={`${testId}-hint`}>
          {hint}
        </div>
      ) : null}
    </div>
  );
}
