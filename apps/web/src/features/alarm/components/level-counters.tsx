// The active alarms per level (most important first) and in all, above the real-time list.
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlarmStats } from '@iotc/shared/alarm';
import { levelsByCode, type LevelInfo } from './alarm-model.ts';
import { useAlarmTexts } from './use-alarm-texts.ts';

interface LevelCountersProps {
  levels: readonly LevelInfo[];
  /** Active alarms per level; undefined while not read yet. */
  counts: AlarmStats['byLevel'] | undefined;
}

function LevelCountersInner({ levels, counts }: LevelCountersProps) {
  const { t } = useTranslation();
  const texts = useAlarmTexts();
  // By level code: the same level of several organisations is one counter.
  const byCode = new Map<string, number>();
  for (const c of counts ?? []) byCode.set(c.code, (byCode.get(c.code) ?? 0) + c.count);
  const total = counts ? counts.reduce((sum, c) => sum + c.count, 0) : undefined;
  const shown = (n: number | undefined) => (counts ? String(n ?? 0) : '-');
  return (
    <div className="alarm-counters" data-testid="alarm-counters">
      <div className="alarm-counter" data-testid="alarm-counter-all">
        <span className="alarm-counter-name">{t('alarm.realtime.allActive')}</span>
        <span className="alarm-counter-count" data-testid="alarm-counter-all-count">
          {shown(total)}
        </span>
      </div>
      {levelsByCode(levels).map((l) => (
        <div key={l.id} className="alarm-counter" data-testid="alarm-counter" data-level={l.id} style={{ ['--alarm-level' as string]: l.color }}>
          <span className="alarm-counter-name">{texts.levelName(l)}</span>
          <span className="alarm-counter-count" data-testid={`alarm-counter-${l.id}`}>
            {shown(byCode.get(l.code))}
          </span>
        </div>
      ))}
    </div>
  );
}

/** Drawn again only when its own props change, not on every live update of the list. */
export const LevelCounters = memo(LevelCountersInner);
