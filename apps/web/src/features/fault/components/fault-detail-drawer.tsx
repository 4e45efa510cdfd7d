// The details of one fault in a drawer: its facts (device, asset, kind, status, when it was
// first and last seen, how often, what was seen, who resolved it), its repair records as a
// timeline, and for users who may handle faults a form recording a repair while it is not
// resolved.
import { Alert, Button, Descriptions, Drawer, Empty, Skeleton, Tag, Timeline, Typography } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { useTranslation } from 'react-i18next';
import type { FaultDetail, RepairRow } from '@iotc/shared/fault';
import { useFault } from '../api/fault-detail.ts';
import { assetText, formatTime, RESULT_COLORS, seenText } from './fault-model.ts';
import { KindTag, StatusTag } from './fault-tags.tsx';
import { RepairForm } from './repair-form.tsx';

export const DETAIL_WIDTH = 540;

function Facts({ fault }: { fault: FaultDetail }) {
  const { t } = useTranslation();
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      styles={{ label: { width: 130 } }}
      data-testid="fault-detail-fields"
      items={[
        { key: 'device', label: t('alarm.col.deviceName'), children: `${fault.device.name} (${fault.device.deviceId})` },
        { key: 'asset', label: t('alarm.col.asset'), children: assetText(fault.asset) || '-' },
        { key: 'org', label: t('alarm.col.org'), children: fault.orgName },
        { key: 'kind', label: t('fault.col.kind'), children: <KindTag kind={fault.kind} /> },
        { key: 'status', label: t('fault.col.status'), children: <StatusTag status={fault.status} /> },
        { key: 'seen', label: t('fault.col.seen'), children: <span data-testid="fault-detail-seen">{seenText(fault, t)}</span> },
        { key: 'firstAt', label: t('fault.col.firstAt'), children: formatTime(fault.firstAt) },
        { key: 'lastAt', label: t('fault.col.lastAt'), children: formatTime(fault.lastAt) },
        { key: 'count', label: t('fault.col.count'), children: fault.count },
        ...(fault.resolvedAt
          ? [{ key: 'resolved', label: t('fault.col.resolved'), children: t('fault.detail.resolvedBy', { by: fault.resolvedBy ?? '-', at: formatTime(fault.resolvedAt) }) }]
          : []),
      ]}
    />
  );
}

function RepairLine({ repair }: { repair: RepairRow }) {
  const { t } = useTranslation();
  return (
    <div className="fault-repair-line" data-testid="fault-repair" data-result={repair.result}>
      <div className="fault-repair-head">
        <Typography.Text strong className="fault-pre">
          {repair.action}
        </Typography.Text>
        <Tag color={RESULT_COLORS[repair.result]} className="fault-tag">
          {t(`fault.result.${repair.result}`)}
        </Tag>
      </div>
      <div className="fault-muted">
        {formatTime(repair.at)} · {t('alarm.event.by', { actor: repair.by })}
      </div>
      {repair.note ? <div className="fault-pre">{repair.note}</div> : null}
    </div>
  );
}

export interface FaultDetailDrawerProps {
  id: string | null;
  onClose: () => void;
  /** The user may record repairs (fault:handle). */
  canRepair: boolean;
}

export function FaultDetailDrawer({ id, onClose, canRepair }: FaultDetailDrawerProps) {
  const { t } = useTranslation();
  const fault = useFault(id);
  const row = fault.data;

  let body;
  if (!id) body = null;
  else if (fault.isPending) body = <Skeleton active paragraph={{ rows: 8 }} />;
  else if (!row)
    body = (
      <Outcome
        status="warning"
        title={t('fault.detail.loadFailed')}
        extra={
          <Button onClick={() => void fault.refetch()} data-testid="fault-detail-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  else
    body = (
      <>
        <Facts fault={row} />
        <Typography.Title level={5} className="fault-section">
          {t('fault.detail.repairs')}
        </Typography.Title>
        {row.repairs.length ? (
          <Timeline
            data-testid="fault-repairs"
            items={row.repairs.map((r) => ({ key: r.id, color: r.result === 'in_progress' ? 'blue' : 'green', content: <RepairLine repair={r} /> }))}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('fault.detail.noRepairs')} />
        )}
        {row.status === 'resolved' ? (
          <Alert type="success" showIcon title={t('fault.detail.resolvedNote')} data-testid="fault-resolved-note" />
        ) : canRepair ? (
          <>
            <Typography.Title level={5} className="fault-section">
              {t('fault.repair.title')}
            </Typography.Title>
            {/* Keyed by the fault: another fault starts an empty form. */}
            <RepairForm key={row.id} fault={row} />
          </>
        ) : null}
      </>
    );

  return (
    <Drawer
      open={!!id}
      size={DETAIL_WIDTH}
      title={row ? `${t(`fault.kind.${row.kind}`)} · ${row.device.name}` : t('fault.detail.title')}
      className="fault-detail-drawer"
      data-testid="fault-detail"
      onClose={onClose}
    >
      {body}
    </Drawer>
  );
}
