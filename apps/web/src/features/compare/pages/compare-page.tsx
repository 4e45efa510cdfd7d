// compare/index: operational data comparison. Pick warehouses, vehicles or routes (two to six),
// a metric the kind allows and two periods (presets: this week vs last week, this month vs last
// month); the targets' values of period A and B as bars side by side and as a table with the
// change, exported as Excel or CSV. The choice lives in the address, so it can be shared.
import { useCallback, useMemo } from 'react';
import { Alert, Button, Card, DatePicker, Empty, Segmented, Select, Skeleton, Space, Table, Typography } from 'antd';
import { FileExcelOutlined, FileTextOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import dayjs from 'dayjs';
import { DATE_FORMAT } from '@iotc/shared/constants';
import { COMPARE_KINDS, COMPARE_PERMISSION, MAX_COMPARE_DAYS, MAX_COMPARE_TARGETS, METRICS_BY_KIND, type CompareKind, type CompareMetric, type CompareRow } from '@iotc/shared/compare';
import { ApiError } from '../../../api/client.ts';
import { EChart } from '../../../components/chart/echart.tsx';
import { Forbidden } from '../../../components/forbidden.tsx';
import { apiErrorText } from '../../../lib/api-error.ts';
import { useLang } from '../../../lib/language.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useExport } from '../../../lib/use-export.ts';
import { exportCompare, useCompare, useTargets } from '../api/compare.ts';
import { compareChartOption, compareQuery, formatChange, formatValue, parseState, PRESETS, presetSpans, writeState, type CompareState, type Span } from '../components/compare-model.ts';

export default function ComparePage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const can = usePermission();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseState(params), [params]);
  const query = useMemo(() => compareQuery(state), [state]);
  const kinds = COMPARE_KINDS.filter((k) => can(COMPARE_PERMISSION[k]));
  const allowed = kinds.includes(state.kind);
  const targets = useTargets(state.kind, allowed);
  const answer = useCompare(allowed ? query : null);
  const set = useCallback((change: Partial<CompareState>) => setParams((prev) => writeState(prev, { ...parseState(prev), ...change })), [setParams]);
  const { exporting, download } = useExport(
    (format) => exportCompare(query!, format),
    (name) => t('compare.exported', { name }),
  );

  const data = answer.isError ? undefined : answer.data;
  const unit = t(`compare.unit.${state.metric}`);
  const option = useMemo(
    () => (data ? compareChartOption(data.rows, { a: t('compare.periodA'), b: t('compare.periodB'), unit }) : null),
    [data, t, unit],
  );

  if (kinds.length === 0) return <Forbidden />;

  const rangePicker = (key: 'a' | 'b', value: Span) => (
    <Space size={6}>
      <span>{t(key === 'a' ? 'compare.periodA' : 'compare.periodB')}</span>
      <DatePicker.RangePicker
        value={[dayjs(value.from), dayjs(value.to)]}
        allowClear={false}
        format={DATE_FORMAT}
        disabledDate={(day, info) => !!info.from && Math.abs(day.diff(info.from, 'day')) >= MAX_COMPARE_DAYS}
        onChange={(range) => {
          if (range?.[0] && range[1]) set({ [key]: { from: range[0].format(DATE_FORMAT), to: range[1].format(DATE_FORMAT) } });
        }}
        data-testid={`cmp-period-${key}`}
      />
    </Space>
  );

  const toolbar = (
    <Space direction="vertical" size={12} style={{ width: '100%', marginBottom: 16 }}>
      <Space wrap size={[16, 8]}>
        <Segmented<CompareKind>
          value={state.kind}
          onChange={(kind) => set({ kind, ids: [], metric: METRICS_BY_KIND[kind].includes(state.metric) ? state.metric : METRICS_BY_KIND[kind][0]! })}
          options={kinds.map((k) => ({ value: k, label: <span data-testid={`cmp-kind-${k}`}>{t(`compare.kind.${k}`)}</span> }))}
        />
        <Select
          mode="multiple"
          value={state.ids}
          onChange={(ids: string[]) => set({ ids })}
          options={targets.data ?? []}
          loading={targets.isLoading}
          maxCount={MAX_COMPARE_TARGETS}
          optionFilterProp="label"
          placeholder={t('compare.targetsPlaceholder', { max: MAX_COMPARE_TARGETS })}
          aria-label={t('compare.targetsPlaceholder', { max: MAX_COMPARE_TARGETS })}
          style={{ minWidth: 360, maxWidth: 640 }}
          data-testid="cmp-targets"
        />
        <Space size={6}>
          <span>{t('compare.metricLabel')}</span>
          <Select<CompareMetric>
            value={state.metric}
            onChange={(metric) => set({ metric })}
            options={METRICS_BY_KIND[state.kind].map((m) => ({ value: m, label: t(`compare.metric.${m}`) }))}
            style={{ width: 180 }}
            aria-label={t('compare.metricLabel')}
            data-testid="cmp-metric"
          />
        </Space>
      </Space>
      <Space wrap size={[16, 8]}>
        {rangePicker('a', state.a)}
        {rangePicker('b', state.b)}
        <Space size={6}>
          {PRESETS.map((p) => (
            <Button key={p} size="small" onClick={() => set(presetSpans(p))} data-testid={`cmp-preset-${p}`}>
              {t(`compare.preset.${p}`)}
            </Button>
          ))}
        </Space>
        <Typography.Text type="secondary">{t('compare.rangeHint', { days: MAX_COMPARE_DAYS })}</Typography.Text>
      </Space>
    </Space>
  );

  const exports = (
    <Space>
      <Button icon={<FileExcelOutlined />} disabled={!query || exporting !== null} loading={exporting === 'xlsx'} onClick={() => void download('xlsx')} data-testid="cmp-export-xlsx">
        {t('compare.exportXlsx')}
      </Button>
      <Button icon={<FileTextOutlined />} disabled={!query || exporting !== null} loading={exporting === 'csv'} onClick={() => void download('csv')} data-testid="cmp-export-csv">
        {t('compare.exportCsv')}
      </Button>
    </Space>
  );

  let content;
  if (!allowed) content = <Forbidden />;
  else if (!query) content = <Empty description={t('compare.pickTargets', { min: 2, max: MAX_COMPARE_TARGETS })} data-testid="cmp-pick" />;
  else if (answer.isError)
    content = (
      <Alert
        type="error"
        showIcon
        title={t('compare.loadFailed')}
        description={<span data-testid="cmp-error">{answer.error instanceof ApiError && answer.error.errormsg ? answer.error.errormsg : apiErrorText(answer.error, lang)}</span>}
      />
    );
  else if (!data) content = <Skeleton active paragraph={{ rows: 8 }} data-testid="cmp-loading" />;
  else
    content = (
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <Card size="small" title={`${t(`compare.metric.${data.metric}`)} (${unit})`}>
          {option ? <EChart option={option} height={320} data-testid="cmp-chart" /> : null}
        </Card>
        <Table<CompareRow>
          rowKey="id"
          size="small"
          pagination={false}
          loading={answer.isFetching}
          dataSource={data.rows}
          data-testid="cmp-table"
          columns={[
            { key: 'name', title: t(`compare.kind.${state.kind}`), render: (_, r) => <span data-testid="cmp-cell-name">{r.name}</span> },
            { key: 'a', title: `${t('compare.periodA')} (${state.a.from} ~ ${state.a.to})`, align: 'right', render: (_, r) => <span data-testid="cmp-cell-a">{formatValue(r.a)}</span> },
            { key: 'b', title: `${t('compare.periodB')} (${state.b.from} ~ ${state.b.to})`, align: 'right', render: (_, r) => <span data-testid="cmp-cell-b">{formatValue(r.b)}</span> },
            {
              key: 'change',
              title: t('compare.change'),
              align: 'right',
              render: (_, r) => (
                <Typography.Text type={r.change === null || r.change === 0 ? undefined : r.change > 0 ? 'danger' : 'success'} data-testid="cmp-cell-change">
                  {formatChange(r.change)}
                </Typography.Text>
              ),
            },
          ]}
        />
      </Space>
    );

  return (
    <Card title={<span data-testid="screen-title">{t('compare.title')}</span>} extra={exports} data-testid="compare-page">
      {toolbar}
      {content}
    </Card>
  );
}
