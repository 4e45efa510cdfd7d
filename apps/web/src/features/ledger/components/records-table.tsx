// The checked records of a scope: time, kind, subject, details, leaf index and the result tag
// (Verified in green, Does not match in red with the reason, Pending in grey, Removed in amber
// with the retention policy and its date), paginated, with an "only problems" filter. Read-only, shared by the verify screen and the public page.
import { useMemo, useState, type HTMLAttributes } from 'react';
import { Empty, Space, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { CheckCircleOutlined, ClockCircleOutlined, CloseCircleOutlined, DeleteOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { useLabel } from '../../../lib/label.ts';
import type { CheckedRecord } from '../lib/verify.ts';
import { usePagination } from '../../../components/data-table/pagination.ts';

const at = (iso: string) => dayjs(iso).format(DATETIME_FORMAT);

function timeOf(r: CheckedRecord): string {
  const rec = r.record;
  return rec.kind === 'sensor.minute' ? rec.minute : rec.kind === 'retention.removal' ? rec.removedAt : rec.time;
}

function temperatures(r: CheckedRecord): number[] {
  const out: number[] = [];
  for (const reading of r.item.readings ?? []) {
    const sensors = reading.sensors;
    if (sensors && typeof sensors === 'object' && !Array.isArray(sensors)) {
      const temp = (sensors as Record<string, unknown>).temperature;
      if (typeof temp === 'number') out.push(temp);
    }
  }
  return out;
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : typeof v === 'number' ? String(v) : null);

export function ResultTag({ row }: { row: CheckedRecord }) {
  const { t } = useTranslation();
  const label = useLabel();
  if (row.result === 'verified') {
    return (
      <Tag color="success" icon={<CheckCircleOutlined />} data-testid="ledger-result" data-result="verified">
        {t('ledger.result.verified')}
      </Tag>
    );
  }
  if (row.result === 'removed' && row.removal) {
    // Not a problem: the readings went under a retention rule that the ledger logged (and this check verified).
    return (
      <span data-testid="ledger-result" data-result="removed">
        <Tag color="warning" icon={<DeleteOutlined />}>
          {t('ledger.result.removed')}
        </Tag>
        <Typography.Text type="secondary" className="ledger-reason" data-testid="ledger-reason">
          {t('ledger.reason.removed', { policy: row.removal.policy, date: at(row.removal.removedAt) })}
        </Typography.Text>
      </span>
    );
  }
  if (row.result === 'pending') {
    return (
      <span data-testid="ledger-result" data-result="pending">
        <Tag icon={<ClockCircleOutlined />}>{t('ledger.result.pending')}</Tag>
        <Typography.Text type="secondary" className="ledger-reason">
          {t('ledger.reason.pending')}
        </Typography.Text>
      </span>
    );
  }
  return (
    <span data-testid="ledger-result" data-result={row.result}>
      <Tag color="error" icon={<CloseCircleOutlined />}>
        {t('ledger.result.mismatch')}
      </Tag>
      <Typography.Text type="danger" className="ledger-reason" data-testid="ledger-reason">
        {label(`ledger.reason.${row.result}`)}
      </Typography.Text>
    </span>
  );
}

export function RecordsTable({ records }: { records: readonly CheckedRecord[] }) {
  const { t } = useTranslation();
  const pagination = usePagination('main');
  const label = useLabel();
  const [onlyProblems, setOnlyProblems] = useState(false);
  const shown = useMemo(() => (onlyProblems ? records.filter((r) => r.result !== 'verified' && r.result !== 'pending' && r.result !== 'removed') : records), [records, onlyProblems]);

  const columns = useMemo<ColumnsType<CheckedRecord>>(() => {
    const alarmType = (type: unknown) => {
      const key = `alarm.type.${String(type)}`;
      const l = label(key);
      return l === key ? String(type ?? '') : l;
    };
    return [
      { key: 'time', title: t('ledger.col.time'), width: 170, render: (_, r) => <span data-testid="ledger-time">{at(timeOf(r))}</span> },
      { key: 'kind', title: t('ledger.col.kind'), width: 140, render: (_, r) => label(`ledger.kind.${r.record.kind}`) },
      {
        key: 'subject',
        title: t('ledger.col.subject'),
        render: (_, r) => {
          const rec = r.record;
          if (rec.kind === 'sensor.minute' || rec.kind === 'retention.removal') return rec.deviceId;
          if (rec.kind === 'alarm') return `${rec.deviceId} · ${alarmType(rec.fields.type)}`;
          const f = rec.fields;
          return text(f.code) ?? ([text(f.warehouseName), text(f.roomName)].filter(Boolean).join(' / ') || rec.subjectId);
        },
      },
      {
        key: 'details',
        title: t('ledger.col.details'),
        render: (_, r) => {
          const rec = r.record;
          if (rec.kind === 'sensor.minute') {
            const temps = temperatures(r);
            const parts = [t('ledger.details.readings', { n: rec.count })];
            if (temps.length) parts.push(t('ledger.details.temperature', { min: Math.min(...temps), max: Math.max(...temps) }));
            return parts.join(' · ');
          }
          if (rec.kind === 'retention.removal') {
            return t('ledger.details.removal', { n: rec.readings, from: at(rec.from), to: at(rec.to), policy: rec.policy });
          }
          if (rec.kind === 'alarm') {
            const value = text(rec.fields.threshold);
            return [label(`ledger.event.${rec.event}`), value === null ? null : `${alarmType(rec.fields.type)} ${value}`].filter(Boolean).join(' · ');
          }
          const f = rec.fields;
          const goods = [text(f.goodsName), text(f.batchNo), f.quantity !== undefined && f.quantity !== null ? `${text(f.quantity)} ${text(f.unit) ?? ''}`.trim() : null].filter(Boolean).join(' / ');
          return [label(`ledger.event.${rec.event}`), goods || null, t('ledger.details.by', { actor: rec.actor })].filter(Boolean).join(' · ');
        },
      },
      { key: 'index', title: t('ledger.col.index'), width: 100, align: 'right', render: (_, r) => r.item.index },
      { key: 'result', title: t('ledger.col.result'), width: 280, render: (_, r) => <ResultTag row={r} /> },
    ];
  }, [t, label]);

  return (
    <Table<CheckedRecord>
      className="ledger-records"
      size="small"
      rowKey={(r) => r.item.index}
      columns={columns}
      dataSource={shown as CheckedRecord[]}
      title={() => (
        <Space>
          <Switch size="small" checked={onlyProblems} onChange={setOnlyProblems} data-testid="ledger-only-problems" />
          <span>{t('ledger.onlyProblems')}</span>
        </Space>
      )}
      rowClassName={(r) => (r.result === 'verified' || r.result === 'pending' || r.result === 'removed' ? '' : 'ledger-row-problem')}
      onRow={(r) => ({ 'data-ref': r.item.ref, 'data-result': r.result }) as HTMLAttributes<HTMLElement>}
      pagination={pagination}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={onlyProblems ? t('ledger.noProblems') : t('common.noData')} /> }}
      data-testid="ledger-records"
    />
  );
}
