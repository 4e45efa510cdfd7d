// The filter bar's date-time range field: antd's RangePicker (31 KB gzip with its panels), in a
// module of its own so that a screen whose filters have no date (real-time monitoring) never
// fetches it; the filter bar loads it when an item is a range (filter-bar.tsx).
import type { CSSProperties } from 'react';
import { DatePicker } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';

export type RangeValue = [Dayjs | null, Dayjs | null] | null;

export interface FilterRangeProps {
  id: string;
  testId: string;
  style: CSSProperties;
  allowClear: boolean;
  disabledDate?: (current: Dayjs) => boolean;
  value: RangeValue;
  onChange: (range: RangeValue) => void;
}

export default function FilterRange({ id, testId, style, allowClear, disabledDate, value, onChange }: FilterRangeProps) {
  const { t } = useTranslation();
  // The picker would copy a data-testid onto both of its inputs; the hook sits on a wrapper.
  return (
    <span data-testid={testId} className="iotc-filter-range">
      <DatePicker.RangePicker
        id={{ start: id }}
        style={style}
        showTime
        format={DATETIME_FORMAT}
        allowClear={allowClear}
        disabledDate={disabledDate}
        placeholder={[t('filter.startDate'), t('filter.endDate')]}
        separator={<span className="iotc-filter-separator">{t('filter.to')}</span>}
        value={value}
        onChange={(range) => onChange(range as RangeValue)}
      />
    </span>
  );
}
