// One batch: its profile, the budget gauges (minutes above and below the range used of the
// lifetime allowance, and left), the absolute limits, the budget alarms raised, and the periods
// the budget is made of (each task and storage stay with its minutes out of range).
import { Alert, Descriptions, Drawer, Empty, Progress, Space, Spin, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { Budget, BudgetPeriod } from '@iotc/shared/product';
import { useBatch } from '../api/batches.ts';
import { barPercent, minutesText, STATE_COLORS, STATE_STROKE } from './budget-model.ts';

type AlarmKeyName = 'above_alert' | 'above_exhausted' | 'below_alert' | 'below_exhausted' | 'absoluteMax' | 'absoluteMin';

const time = (iso: string | null) => (iso ? dayjs(iso).format(DATETIME_FORMAT) : '-');

function Gauge({ kind, use }: { kind: 'above' | 'below'; use: Budget['above'] }) {
  const { t } = useTranslation();
  return (
    <div data-testid={`batch-gauge-${kind}`} style={{ textAlign: 'center', minWidth: 200 }}>
      <Progress type="dashboard" percent={barPercent(use)} strokeColor={STATE_STROKE[use.state]} format={() => `${minutesText(use.usedMin)} / ${use.budgetMin}`} />
      <div>
        <Typography.Text strong>{t(`product.batch.${kind}`)}</Typography.Text> <Tag color={STATE_COLORS[use.state]}>{t(`product.state.${use.state}`)}</Tag>
      </div>
      <div data-testid={`batch-used-${kind}`}>{t('product.batch.usedLeft', { used: minutesText(use.usedMin), left: minutesText(use.leftMin) })}</div>
    </div>
  );
}

/** The periods' columns: fixed widths that fit the drawer (about 820 px); the table scrolls within it when narrower. */
const PERIODS_WIDTH = 820;

export function BatchDrawer({ id, batchNo, onClose }: { id: string | null; /** Known from the list: the title shows before the detail loads. */ batchNo?: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const query = useBatch(id);
  const b = query.data;
  const title = b?.batchNo ?? batchNo ?? null;
  const ellipsis = { showTitle: true };
  const columns = [
    { title: t('product.period.kind'), dataIndex: 'kind', width: 70, render: (k: BudgetPeriod['kind']) => t(`product.period.${k}`) },
    { title: t('product.period.label'), dataIndex: 'label', width: 150, ellipsis },
    {
      title: t('product.period.time'),
      key: 'time',
      width: 170,
      render: (_: unknown, p: BudgetPeriod) => (
        <>
          <div>{time(p.from)}</div>
          <div>{p.to ? time(p.to) : t('product.period.ongoing')}</div>
        </>
      ),
    },
    { title: t('product.period.devices'), dataIndex: 'devices', width: 140, ellipsis, render: (d: string[]) => d.join(', ') || '-' },
    { title: t('product.batch.above'), dataIndex: 'aboveMin', width: 95, align: 'right' as const, render: (m: number) => `${minutesText(m)} ${t('product.minutes')}` },
    { title: t('product.batch.below'), dataIndex: 'belowMin', width: 95, align: 'right' as const, render: (m: number) => `${minutesText(m)} ${t('product.minutes')}` },
    { title: t('product.period.maxC'), dataIndex: 'maxC', width: 90, align: 'right' as const, render: (v: number | null) => (v === null ? '-' : `${v} °C`) },
  ];
  return (
    <Drawer
      open={!!id}
      onClose={onClose}
      size={900}
      title={
        <span data-testid="batch-detail-title">
          {title ? t('product.batch.detailTitle', { batchNo: title }) : t('product.batch.detail')}
        </span>
      }
      destroyOnHidden
      data-testid="batch-detail"
    >
      {query.isLoading ? <Spin /> : null}
      {b ? (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions column={2} size="small" bordered>
            <Descriptions.Item label={t('product.batch.batchNo')}>{b.batchNo}</Descriptions.Item>
            <Descriptions.Item label={t('product.batch.goods')}>{b.goodsName || '-'}</Descriptions.Item>
            <Descriptions.Item label={t('product.batch.profile')}>{b.profile ? `${b.profile.name} (${b.profile.lowC} ~ ${b.profile.highC} °C)` : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('product.org')}>{b.orgName}</Descriptions.Item>
          </Descriptions>
          {b.budget ? (
            <>
              <Space size="large" wrap style={{ justifyContent: 'center', width: '100%' }}>
                <Gauge kind="above" use={b.budget.above} />
                <Gauge kind="below" use={b.budget.below} />
              </Space>
              <Descriptions column={1} size="small" bordered>
                <Descriptions.Item label={t('product.profile.absoluteMax')}>
                  <span data-testid="batch-abs-max">
                    {`${b.budget.absoluteMax.limit} °C · ${t('product.batch.highest')} ${b.budget.absoluteMax.extreme ? `${b.budget.absoluteMax.extreme.value} °C (${time(b.budget.absoluteMax.extreme.at)})` : '-'} `}
                    <Tag color={b.budget.absoluteMax.crossed ? 'error' : 'success'}>{t(b.budget.absoluteMax.crossed ? 'product.batch.crossed' : 'product.batch.notCrossed')}</Tag>
                  </span>
                </Descriptions.Item>
                {b.budget.absoluteMin.limit !== null ? (
                  <Descriptions.Item label={t('product.profile.absoluteMin')}>
                    {`${b.budget.absoluteMin.limit} °C · ${t('product.batch.lowest')} ${b.budget.absoluteMin.extreme ? `${b.budget.absoluteMin.extreme.value} °C` : '-'} `}
                    <Tag color={b.budget.absoluteMin.crossed ? 'error' : 'success'}>{t(b.budget.absoluteMin.crossed ? 'product.batch.crossed' : 'product.batch.notCrossed')}</Tag>
                  </Descriptions.Item>
                ) : null}
                <Descriptions.Item label={t('product.batch.alarms')}>
                  {Object.keys(b.raised).length === 0
                    ? t('product.batch.noAlarms')
                    : Object.entries(b.raised).map(([k, at]) => (
                        <Tag key={k} color="volcano">{`${t(`product.alarmKey.${k.replace(':', '_') as AlarmKeyName}`)} · ${time(at)}`}</Tag>
                      ))}
                </Descriptions.Item>
              </Descriptions>
            </>
          ) : (
            <Alert type="info" showIcon title={t('product.batch.noProfile')} />
          )}
          <div>
            <Typography.Title level={5}>{t('product.batch.periods')}</Typography.Title>
            <Typography.Paragraph type="secondary">{t('product.batch.rule')}</Typography.Paragraph>
            <Table<BudgetPeriod>
              rowKey="ref"
              size="small"
              columns={columns}
              dataSource={b.periods}
              pagination={false}
              tableLayout="fixed"
              scroll={{ x: PERIODS_WIDTH }}
              locale={{ emptyText: <Empty description={t('product.batch.noPeriods')} /> }}
              data-testid="batch-periods"
            />
          </div>
        </Space>
      ) : null}
    </Drawer>
  );
}
