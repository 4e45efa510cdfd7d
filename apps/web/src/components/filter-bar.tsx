// The filter bar above a list (spec section 2): text, select and date-time range fields
// described as data. It hands the screen API-ready values: text and select values as they are,
// a multiple select's values as one comma-separated list,
// a range `<key>` as `<key>From` / `<key>To` in ISO 8601 UTC (one pair per range field, so a bar
// may hold several ranges). Reset clears the fields and raises the spec's reset flag for 60 ms.
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Input, Select, Space } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { FILTER_RESET_MS, LAST_WEEK_DAYS } from '@iotc/shared/constants';
import type { Dict } from '@iotc/shared/auth';
import { dictsQueryOptions } from '../api/dict-all.ts';
import { useLabel } from '../lib/label.ts';
import { useLang } from '../lib/language.ts';
import type { FilterValues } from '../lib/list-query.ts';
import type { RangeValue } from './filter-range.tsx';
import './filter-bar.css';

// The date-time range field is fetched only by a bar that has one.
const FilterRange = lazy(() => import('./filter-range.tsx'));

export type FilterType = 'input' | 'select' | 'multiselect' | 'datetimerange' | 'datetimerange-noclear' | 'lastweekdate';

export interface FilterOption {
  value: string;
  label: string;
}

export interface FilterItem {
  /** i18n key or text. */
  label: string;
  key: string;
  type: FilterType;
  /** Select options: a dictionary code of the dict API, or a list of objects read through svalue/slabel. */
  source?: string | Record<string, unknown>[];
  /** Field of a source object holding the value (default 'value'). */
  svalue?: string;
  /** Field of a source object holding the label (default 'label'). */
  slabel?: string;
  /** Select options given directly; labels are i18n keys or texts. */
  options?: FilterOption[];
  /** Width of the field in px. */
  width?: number;
  /** Placeholder of a text field (i18n key or text); default 'please enter content'. */
  placeholder?: string;
  /** `data-testid` of the field; default `filter-<key>`. */
  testId?: string;
  /**
   * A select whose options are still on their way (and whose showing may depend on them): it
   * shows, waiting and disabled, so the bar keeps its shape and the list under it stays put.
   */
  loading?: boolean;
}

type FieldValue = string | string[] | RangeValue | undefined;
type FieldValues = Record<string, FieldValue>;

export function isRange(type: FilterType): boolean {
  return type === 'datetimerange' || type === 'datetimerange-noclear' || type === 'lastweekdate';
}

export function rangeNames(key: string): { from: string; to: string } {
  return { from: `${key}From`, to: `${key}To` };
}

/** The spec's 'lastweekdate': only days from LAST_WEEK_DAYS days ago to today can be picked. */
export function lastWeekDisabledDate(current: Dayjs, now: Dayjs = dayjs()): boolean {
  const first = now.subtract(LAST_WEEK_DAYS, 'day').startOf('day');
  const last = now.endOf('day');
  return current.isBefore(first) || current.isAfter(last);
}

/** The fields' values as the API takes them; empty fields are left out. */
export function toFilterValues(items: FilterItem[], fields: FieldValues): FilterValues {
  const out: FilterValues = {};
  for (const item of items) {
    const v = fields[item.key];
    if (isRange(item.type)) {
      const range = asRange(v);
      const names = rangeNames(item.key);
      if (range?.[0]) out[names.from] = range[0].toISOString();
      if (range?.[1]) out[names.to] = range[1].toISOString();
    } else if (item.type === 'multiselect') {
      const picked = Array.isArray(v) ? (v as unknown[]).filter((x): x is string => typeof x === 'string' && x !== '') : [];
      if (picked.length) out[item.key] = picked.join(',');
    } else if (typeof v === 'string' && v.trim() !== '') {
      out[item.key] = item.type === 'input' ? v.trim() : v;
    }
  }
  return out;
}

/** The fields shown for values read back from the address. */
export function toFieldValues(items: FilterItem[], values: FilterValues): FieldValues {
  const out: FieldValues = {};
  for (const item of items) {
    if (isRange(item.type)) {
      const names = rangeNames(item.key);
      const from = values[names.from] ? dayjs(values[names.from]) : null;
      const to = values[names.to] ? dayjs(values[names.to]) : null;
      out[item.key] = from?.isValid() || to?.isValid() ? [from?.isValid() ? from : null, to?.isValid() ? to : null] : null;
    } else if (item.type === 'multiselect') {
      out[item.key] = values[item.key] ? values[item.key]!.split(',').filter(Boolean) : [];
    } else {
      out[item.key] = values[item.key];
    }
  }
  return out;
}

function asRange(v: FieldValue): RangeValue {
  return Array.isArray(v) && v.length === 2 && typeof v[0] !== 'string' && typeof v[1] !== 'string' ? (v as RangeValue) : null;
}

function optionsOf(item: FilterItem, dicts: Dict[] | undefined, label: (k: string) => string): FilterOption[] {
  if (item.options) return item.options.map((o) => ({ value: o.value, label: label(o.label) }));
  if (typeof item.source === 'string') {
    return dicts?.find((d) => d.dictCode === item.source)?.children.map((c) => ({ value: c.dictKey, label: c.dictVal })) ?? [];
  }
  const sv = item.svalue ?? 'value';
  const sl = item.slabel ?? 'label';
  return (item.source ?? []).map((o) => ({ value: String(o[sv]), label: String(o[sl] ?? o[sv]) }));
}

/** A flag that is set for `ms` milliseconds each time it is raised. */
export function useTransientFlag(ms: number): [boolean, () => void] {
  const [on, setOn] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const raise = useCallback(() => {
    clearTimeout(timer.current);
    setOn(true);
    timer.current = setTimeout(() => setOn(false), ms);
  }, [ms]);
  return [on, raise];
}

export interface FilterBarProps {
  items: FilterItem[];
  /** Values in force (from the address); the fields follow them when they change. */
  value?: FilterValues;
  onSearch: (values: FilterValues) => void;
  /** Called after Reset cleared the fields; without it Reset searches with no filters. */
  onReset?: () => void;
  /** Extra buttons after Search and Reset. */
  extra?: ReactNode;
}

const EMPTY: FilterValues = {};

export function FilterBar({ items, value = EMPTY, onSearch, onReset, extra }: FilterBarProps) {
  const { t } = useTranslation();
  const label = useLabel();
  const lang = useLang();
  const [fields, setFields] = useState<FieldValues>(() => toFieldValues(items, value));
  const [resetting, raiseReset] = useTransientFlag(FILTER_RESET_MS);

  // The address is the source of truth: back/forward or a shared link refill the fields.
  const valueKey = JSON.stringify(value);
  const [shownKey, setShownKey] = useState(valueKey);
  if (shownKey !== valueKey) {
    setShownKey(valueKey);
    setFields(toFieldValues(items, value));
  }

  const needsDicts = items.some((i) => typeof i.source === 'string');
  const dicts = useQuery({ ...dictsQueryOptions(lang), enabled: needsDicts }).data;

  const set = (key: string, v: FieldValue) => setFields((f) => ({ ...f, [key]: v }));
  const search = () => onSearch(toFilterValues(items, fields));
  const reset = () => {
    setFields({});
    raiseReset();
    if (onReset) onReset();
    else onSearch({});
  };

  const field = (item: FilterItem) => {
    const id = `filter-${item.key}`;
    const style = { width: item.width ?? (isRange(item.type) ? 380 : 200) };
    const v = fields[item.key];
    switch (item.type) {
      case 'input':
        return (
          <Input
            id={id}
            data-testid={item.testId ?? id}
            style={style}
            allowClear
            placeholder={item.placeholder ? label(item.placeholder) : t('filter.input')}
            value={typeof v === 'string' ? v : ''}
            onChange={(e) => set(item.key, e.target.value)}
            onPressEnter={search}
          />
        );
      case 'select':
        return (
          <Select
            id={id}
            data-testid={item.testId ?? id}
            style={style}
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('filter.select')}
            loading={item.loading}
            disabled={item.loading}
            options={optionsOf(item, dicts, label)}
            value={typeof v === 'string' ? v : undefined}
            onChange={(next: string | undefined) => set(item.key, next)}
            notFoundContent={t('common.noData')}
          />
        );
      case 'multiselect':
        return (
          <Select
            id={id}
            data-testid={item.testId ?? id}
            style={style}
            mode="multiple"
            allowClear
            maxTagCount="responsive"
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('filter.select')}
            options={optionsOf(item, dicts, label)}
            value={Array.isArray(v) ? (v as string[]) : []}
            onChange={(next: string[]) => set(item.key, next)}
            notFoundContent={t('common.noData')}
          />
        );
      default:
        return (
          <Suspense fallback={<span className="iotc-filter-range-pending" style={style} aria-busy="true" />}>
            <FilterRange
              id={id}
              testId={item.testId ?? id}
              style={style}
              allowClear={item.type !== 'datetimerange-noclear'}
              disabledDate={item.type === 'lastweekdate' ? (d) => lastWeekDisabledDate(d) : undefined}
              value={asRange(v)}
              onChange={(range) => set(item.key, range)}
            />
          </Suspense>
        );
    }
  };

  return (
    <div className="iotc-filter-bar" data-testid="filter-bar" data-reset={resetting ? '1' : '0'}>
      {items.map((item) => (
        <div key={item.key} className="iotc-filter-item">
          <label htmlFor={`filter-${item.key}`} className="iotc-filter-label">
            {label(item.label)}
          </label>
          {field(item)}
        </div>
      ))}
      <Space className="iotc-filter-actions">
        <Button type="primary" icon={<SearchOutlined />} data-testid="filter-search" onClick={search}>
          {t('common.search')}
        </Button>
        <Button icon={<ReloadOutlined />} data-testid="filter-reset" onClick={reset}>
          {t('common.reset')}
        </Button>
        {extra}
      </Space>
    </div>
  );
}
