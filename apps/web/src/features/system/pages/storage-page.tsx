// system/storage (issue 24, item 5): the platform administrator's storage figures. At the top the
// platform's totals (readings as rows and in packs, bytes, bytes per reading, growth per day) and
// the days the free disk space lasts at that growth ("unknown" on PostgreSQL); below, a page of
// organisations, the largest first, with their share. The figures are the storage job's latest
// snapshot (hourly), so the refresh button reads them again rather than counting afresh.
import { useMemo } from 'react';
import { Alert, Button, Card, Col, Row, Statistic, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TableDescriptor } from '../../../components/data-table/types.ts';
import { useLang } from '../../../lib/language.ts';
import { useListParams } from '../../../lib/list-query.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useStorageFigures } from '../api/storage-figures.ts';
import { formatBytes, formatCount, formatDays, storageRowView, type StorageRowView } from '../components/storage-model.ts';
import '../components/system.css';

const DESCRIPTOR: TableDescriptor<StorageRowView> = {
  id: 'storage',
  rowKey: 'orgId',
  columns: [
    { key: 'storage.org', value: 'orgName', sortable: true, testId: 'storage-org' },
    { key: 'storage.rowReadings', value: 'rowReadings', sortable: true, width: 140, testId: 'storage-row-readings' },
    { key: 'storage.packedReadings', value: 'packedReadings', sortable: true, width: 140, testId: 'storage-packed-readings' },
    { key: 'storage.packs', value: 'packs', sortable: true, width: 100, testId: 'storage-packs' },
    { key: 'storage.bytes', value: 'bytes', width: 120, nowrap: true, testId: 'storage-bytes' },
    { key: 'storage.rowBytes', value: 'rowBytes', sortable: true, width: 130, hidden: true },
    { key: 'storage.packBytes', value: 'packBytes', sortable: true, width: 130, hidden: true },
    { key: 'storage.bytesPerReading', value: 'bytesPerReading', sortable: true, width: 140, nowrap: true, testId: 'storage-bytes-per-reading' },
    { key: 'storage.growthPerDay', value: 'growthPerDay', sortable: true, width: 150, nowrap: true, testId: 'storage-growth' },
    { key: 'storage.share', value: 'share', sortable: true, width: 100, testId: 'storage-share' },
    { key: 'storage.day', value: 'day', width: 120, hidden: true },
  ],
};

export default function StoragePage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const list = useListParams('storage');
  const query = useStorageFigures(list);
  const data = query.data;
  const rows = useMemo(() => (data?.rows ?? []).map((r) => storageRowView(r, lang)), [data, lang]);
  const p = data?.platform;
  const loading = !data && query.isFetching;
  const days = data ? formatDays(data.daysLeft, lang) : null;

  const cards = [
    { key: 'rowReadings', title: t('storage.card.rowReadings'), value: p ? formatCount(p.rowReadings, lang) : '' },
    { key: 'packedReadings', title: t('storage.card.packedReadings'), value: p ? formatCount(p.packedReadings, lang) : '' },
    { key: 'packs', title: t('storage.card.packs'), value: p ? formatCount(p.packs, lang) : '' },
    { key: 'bytes', title: t('storage.card.bytes'), value: p ? formatBytes(p.rowBytes + p.packBytes, lang) : '' },
    { key: 'bytesPerReading', title: t('storage.card.bytesPerReading'), value: p?.bytesPerReading != null ? formatBytes(p.bytesPerReading, lang) : '-' },
    { key: 'growth', title: t('storage.card.growth'), value: p?.growthPerDay != null ? formatBytes(p.growthPerDay, lang, { perDay: true }) : '-' },
    {
      key: 'daysLeft',
      title: t('storage.card.daysLeft'),
      value: days ?? t('storage.unknown'),
      hint: data?.freeBytes != null ? t('storage.freeSpace', { free: formatBytes(data.freeBytes, lang) }) : t('storage.freeUnknown'),
    },
  ];

  return (
    <Card
      title={<span data-testid="screen-title">{t('storage.title')}</span>}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} loading={query.isFetching} data-testid="storage-refresh">
          {t('storage.refresh')}
        </Button>
      }
      data-testid="storage-page"
      className="storage-page"
    >
      <Alert type="info" showIcon title={t('storage.hint')} style={{ marginBottom: 16 }} data-testid="storage-hint" />
      <Row gutter={[12, 12]} className="storage-cards" data-testid="storage-cards">
        {cards.map((c) => (
          <Col key={c.key} flex="1 1 120px">
            <Card size="small" style={{ height: '100%' }} data-testid={`storage-card-${c.key}`}>
              <Statistic title={c.title} value={c.value} loading={loading} />
              {c.hint ? (
                <Typography.Text type="secondary" className="storage-card-hint" data-testid={`storage-card-${c.key}-hint`}>
                  {c.hint}
                </Typography.Text>
              ) : null}
            </Card>
          </Col>
        ))}
      </Row>
      {data?.takenAt ? (
        <Typography.Paragraph type="secondary" className="storage-taken" data-testid="storage-taken">
          {t('storage.takenAt', { time: dayjs(data.takenAt).format(DATETIME_FORMAT) })}
        </Typography.Paragraph>
      ) : null}
      <DataTable
        descriptor={DESCRIPTOR}
        rows={rows}
        total={data?.total ?? 0}
        page={list.page}
        size={list.size}
        sort={list.sort}
        onChange={list.setTable}
        loading={query.isFetching}
        error={query.error}
        onRetry={() => void query.refetch()}
        emptyText={t('storage.empty')}
      />
    </Card>
  );
}
