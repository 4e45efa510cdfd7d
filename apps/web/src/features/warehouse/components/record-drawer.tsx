// The details of one record: place with its province and address, goods, the hand-over reading
// (or that none was found) against the room's range, the review and its electronic signatures.
import { Descriptions, Drawer, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { provinceName } from '@iotc/shared/region';
import type { RecordRow } from '@iotc/shared/warehouse';
import { SignatureList } from '../../../components/signature-list.tsx';
import { useLang } from '../../../lib/language.ts';
import { AUDIT_COLORS, formatTime, outOfRange, quantityText } from './record-model.ts';

const range = (min: number | null, max: number | null, unit: string) => (min === null && max === null ? '-' : `${min ?? '…'} ~ ${max ?? '…'} ${unit}`);

export function RecordDrawer({ row, onClose }: { row: RecordRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const lang = useLang();
  const reading = (value: number | null, min: number | null, max: number | null, unit: string) =>
    value === null ? (
      '-'
    ) : (
      <span className={outOfRange(value, min, max) ? 'wh-out-of-range' : undefined} data-out-of-range={outOfRange(value, min, max) || undefined}>
        {`${value} ${unit}`}
        {outOfRange(value, min, max) ? <Tag color="error" className="wh-inline-tag">{t('warehouse.detail.outOfRange')}</Tag> : null}
      </span>
    );
  return (
    <Drawer open={!!row} onClose={onClose} width={560} title={t('warehouse.detail.title')} destroyOnHidden data-testid="wh-detail">
      {row ? (
        <Descriptions column={1} size="small" bordered>
          <Descriptions.Item label={t('warehouse.col.time')}>{formatTime(row.time)}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.direction')}>{t(`warehouse.direction.${row.direction}`)}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.warehouse')}>{`${row.warehouseName} (${row.warehouseCode})`}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.room')}>{row.roomName ? `${row.roomName} (${row.roomCode})` : t('warehouse.detail.atWarehouse')}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.detail.region')}>{[provinceName(row.provinceCode ?? row.province, lang), row.city].filter(Boolean).join(' / ') || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.detail.address')}>{[row.address, row.zip].filter(Boolean).join(' ') || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.goods')}>{row.goodsName}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.batch')}>{row.batchNo || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.quantity')}>{quantityText(row.quantity, row.unit)}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.handler')}>{row.handler}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.temperature')}>
            <span data-testid="wh-detail-temperature">
              {row.noReading ? t('warehouse.detail.noReading') : row.roomId === null && row.temperature === null ? t('warehouse.detail.notRead') : reading(row.temperature, row.tempMin, row.tempMax, '°C')}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('warehouse.detail.humidity')}>{reading(row.humidity, row.humidityMin, row.humidityMax, '%')}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.detail.reading')}>{row.readingTime ? `${formatTime(row.readingTime)} · ${row.readingDeviceId ?? ''}` : '-'}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.detail.range')}>{range(row.tempMin, row.tempMax, '°C')}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.audit')}>
            <Tag color={AUDIT_COLORS[row.auditStatus]} data-testid="wh-detail-audit">
              {t(`warehouse.audit.${row.auditStatus}`)}
            </Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.reviewer')}>{row.reviewer ? `${row.reviewer} · ${formatTime(row.reviewedAt)}` : '-'}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.detail.auditReason')}>{row.auditReason || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.col.createdBy')}>{`${row.createdBy} · ${formatTime(row.createdAt)}`}</Descriptions.Item>
          <Descriptions.Item label={t('warehouse.form.remark')}>{row.remark || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('signature.title')}>
            <SignatureList recordType="warehouse_record" recordId={row.id} />
          </Descriptions.Item>
        </Descriptions>
      ) : null}
    </Drawer>
  );
}
