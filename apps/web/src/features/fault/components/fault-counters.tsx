// The counters above the faults list: all faults and each kind (and, smaller, each status) the
// keyword and time filters match. A counter is a toggle button: it filters the list by its kind
// (or status), pressed again it lifts that filter.
import { useTranslation } from 'react-i18next';
import { FAULT_KINDS, FAULT_STATUSES, type FaultKind, type FaultStats, type FaultStatus } from '@iotc/shared/fault';
import { KIND_COLORS, STATUS_COLORS } from './fault-model.ts';

interface CounterProps {
  name: string;
  count: number | undefined;
  color: string;
  pressed: boolean;
  testId: string;
  small?: boolean;
  onClick: () => void;
}

function Counter({ name, count, color, pressed, testId, small, onClick }: CounterProps) {
  return (
    <button
      type="button"
      className={['fault-counter', small ? 'fault-counter-small' : '', pressed ? 'fault-counter-on' : ''].filter(Boolean).join(' ')}
      style={{ ['--fault-color' as string]: color }}
      aria-pressed={pressed}
      data-testid={testId}
      onClick={onClick}
    >
      <span className="fault-counter-name">{name}</span>
      <span className="fault-counter-count" data-testid={`${testId}-count`}>
        {count === undefined ? '-' : count}
      </span>
    </button>
  );
}

export interface FaultCountersProps {
  stats: FaultStats | undefined;
  kind: FaultKind | undefined;
  status: FaultStatus | undefined;
  onKind: (kind: FaultKind | undefined) => void;
  onStatus: (status: FaultStatus | undefined) => void;
}

export function FaultCounters({ stats, kind, status, onKind, onStatus }: FaultCountersProps) {
  const { t } = useTranslation();
  const byKind = (k: FaultKind) => (stats ? (stats.byKind.find((c) => c.kind === k)?.count ?? 0) : undefined);
  const byStatus = (s: FaultStatus) => (stats ? (stats.byStatus.find((c) => c.status === s)?.count ?? 0) : undefined);
  const total = stats ? stats.byKind.reduce((sum, c) => sum + c.count, 0) : undefined;
  return (
    <div className="fault-counters" data-testid="fault-counters" title={t('fault.counter.hint')}>
      <div className="fault-counter-row">
        <Counter name={t('fault.counter.all')} count={total} color="#1677ff" pressed={!kind} testId="fault-counter-all" onClick={() => onKind(undefined)} />
        {FAULT_KINDS.map((k) => (
          <Counter key={k} name={t(`fault.kind.${k}`)} count={byKind(k)} color={KIND_COLORS[k]} pressed={kind === k} testId={`fault-counter-${k}`} onClick={() => onKind(kind === k ? undefined : k)} />
        ))}
      </div>
      <div className="fault-counter-row">
        {FAULT_STATUSES.map((s) => (
          <Counter
            key={s}
            small
            name={t(`fault.status.${s}`)}
            count={byStatus(s)}
            color={STATUS_COLORS[s]}
            pressed={status === s}
            testId={`fault-status-${s}`}
            onClick={() => onStatus(status === s ? undefined : s)}
          />
        ))}
      </div>
    </div>
  );
}
