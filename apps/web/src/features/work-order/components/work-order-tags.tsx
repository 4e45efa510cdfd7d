// A work order's status and priority as coloured tags, for the details.
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { WorkOrderPriority, WorkOrderStatus } from '@iotc/shared/work-order';
import { PRIORITY_COLORS, STATUS_COLORS } from './work-order-model.ts';

export function StatusTag({ status }: { status: WorkOrderStatus }) {
  const { t } = useTranslation();
  const color = STATUS_COLORS[status];
  return (
    <Tag className="wo-tag" data-testid="wo-status-tag" data-status={status} style={{ background: color, borderColor: color, color: '#fff' }}>
      {t(`workOrder.status.${status}`)}
    </Tag>
  );
}

export function PriorityTag({ priority }: { priority: WorkOrderPriority }) {
  const { t } = useTranslation();
  const color = PRIORITY_COLORS[priority];
  return (
    <Tag className="wo-tag" data-testid="wo-priority-tag" data-priority={priority} style={{ color, borderColor: color, background: `${color}14` }}>
      {t(`workOrder.priority.${priority}`)}
    </Tag>
  );
}
