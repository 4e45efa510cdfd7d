// A fault's kind and status as coloured tags, for the details.
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FaultKind, FaultStatus } from '@iotc/shared/fault';
import { KIND_COLORS, STATUS_COLORS } from './fault-model.ts';

export function KindTag({ kind }: { kind: FaultKind }) {
  const { t } = useTranslation();
  const color = KIND_COLORS[kind];
  return (
    <Tag className="fault-tag" data-testid="fault-kind-tag" style={{ color, borderColor: color, background: `${color}14` }}>
      {t(`fault.kind.${kind}`)}
    </Tag>
  );
}

export function StatusTag({ status }: { status: FaultStatus }) {
  const { t } = useTranslation();
  const color = STATUS_COLORS[status];
  return (
    <Tag className="fault-tag" data-testid="fault-status-tag" data-status={status} style={{ background: color, borderColor: color, color: '#fff' }}>
      {t(`fault.status.${status}`)}
    </Tag>
  );
}
