// The cockpit's panels without charts: a titled panel, the KPI cards, the rows with a bar
// (assets online by kind, active alarms by level) and the alarm ticker.
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { CockpitTickerItem } from '@iotc/shared/cockpit';
import { unitValueText } from '@iotc/shared/format';
import type { Lang } from '@iotc/shared/i18n';

export function Panel({ title, extra, className, children, testId }: { title: string; extra?: ReactNode; className?: string; children: ReactNode; testId?: string }) {
  return (
    <section className={`cockpit-panel ${className ?? ''}`} data-testid={testId}>
      <h3 className="cockpit-panel-title">
        {title}
        {extra ? <span className="cockpit-panel-extra">{extra}</span> : null}
      </h3>
      <div className="cockpit-panel-body">{children}</div>
    </section>
  );
}

export interface Kpi {
  id: string;
  label: string;
  value: string;
  unit?: string;
  sub?: string;
  warn?: boolean;
}

/** Widths in em of a text's characters, roughly (wide: CJK and full-width; narrow: separators). */
function ems(text: string): number {
  let n = 0;
  for (const ch of text) n += /[\u2E80-\uFFEF]/.test(ch) ? 1 : /[.,:;'\s]/.test(ch) ? 0.3 : /[%MW]/.test(ch) ? 0.9 : 0.7;
  return n;
}

/** KPI value size relative to its unit's (0.34rem and 0.15rem, see cockpit.css). */
const UNIT_RATIO = 0.15 / 0.34;

/**
 * The KPI value's width in em of the value's font: the card's CSS shrinks the value's font so
 * that this many em fit the card's width, whatever the number and the fonts installed.
 */
export function kpiEms(value: string, unit?: string): number {
  return ems(value) + (unit ? (ems(unit) + 0.4) * UNIT_RATIO : 0);
}

export function KpiCards({ items }: { items: Kpi[] }) {
  return (
    <div className="cockpit-kpis">
      {items.map((k) => (
        <div key={k.id} className="cockpit-kpi" data-testid={`kpi-${k.id}`} style={{ '--kpi-ems': kpiEms(k.value, k.unit).toFixed(2) } as CSSProperties}>
          <div className="cockpit-kpi-label">{k.label}</div>
          <div className="cockpit-kpi-value" data-testid={`kpi-value-${k.id}`}>
            {k.value}
            {k.unit ? <small>{k.unit}</small> : null}
          </div>
          <div className="cockpit-kpi-sub" data-warn={k.warn ? 'true' : 'false'}>
            {k.sub ?? '\u00a0'}
          </div>
        </div>
      ))}
    </div>
  );
}

export interface BarRow {
  key: string;
  label: string;
  color?: string;
  value: number;
  /** The bar's full length; the row shows value / of when given. */
  of?: number;
}

export function Bars({ rows, empty, testId }: { rows: BarRow[]; empty: string; testId?: string }) {
  if (rows.length === 0) return <div className="cockpit-empty">{empty}</div>;
  const max = Math.max(1, ...rows.map((r) => r.of ?? r.value));
  return (
    <div className="cockpit-bars" data-testid={testId}>
      {rows.map((r) => (
        <div key={r.key} className="cockpit-bar-row" data-key={r.key}>
          <span className="cockpit-bar-label">
            {r.color ? <i className="cockpit-bar-dot" style={{ background: r.color }} /> : null}
            {r.label}
          </span>
          <span className="cockpit-bar-track">
            <span className="cockpit-bar-fill" style={{ display: 'block', width: `${(r.value / (r.of ?? max)) * 100}%`, ...(r.color ? { background: r.color } : {}) }} />
          </span>
          <span className="cockpit-bar-value" data-testid={testId ? `${testId}-${r.key}` : undefined}>
            {r.value}
            {r.of !== undefined ? <small> / {r.of}</small> : null}
          </span>
        </div>
      ))}
    </div>
  );
}

/** A row moves up this often when the ticker holds more rows than it shows. */
const TICK_MS = 3000;

export function AlarmTicker({ items, lang }: { items: CockpitTickerItem[]; lang: Lang }) {
  const { t } = useTranslation();
  const list = useRef<HTMLUListElement>(null);
  const paused = useRef(false);
  const first = items[0]?.id;
  const [fresh, setFresh] = useState<string | undefined>(undefined);
  const seenFirst = useRef(first);

  // A new newest alarm: back to the top, and it flashes.
  useEffect(() => {
    if (first === seenFirst.current) return;
    seenFirst.current = first;
    setFresh(first);
    list.current?.scrollTo({ top: 0 });
  }, [first]);

  useEffect(() => {
    const timer = setInterval(() => {
      const el = list.current;
      if (!el || paused.current || el.scrollHeight <= el.clientHeight) return;
      const row = el.firstElementChild?.clientHeight ?? 34;
      el.scrollTo({ top: el.scrollTop + el.clientHeight >= el.scrollHeight - 2 ? 0 : el.scrollTop + row });
    }, TICK_MS);
    return () => clearInterval(timer);
  }, []);

  if (items.length === 0) return <div className="cockpit-empty">{t('cockpit.ticker.none')}</div>;
  return (
    <ul
      ref={list}
      className="cockpit-ticker"
      data-testid="cockpit-ticker"
      onMouseEnter={() => (paused.current = true)}
      onMouseLeave={() => (paused.current = false)}
    >
      {items.map((a) => {
        const what = [a.asset?.name ?? a.device.name, t(`alarm.type.${a.type}`), a.value !== null ? unitValueText(a.value, a.unit, lang) : null].filter(Boolean).join(' · ');
        return (
          <li key={a.id} className="cockpit-ticker-item" data-testid="cockpit-ticker-item" data-id={a.id} data-status={a.status} data-new={a.id === fresh ? 'true' : 'false'}>
            <span className="cockpit-ticker-level" style={{ background: a.level.color }}>
              {lang === 'zh' ? a.level.nameZh : a.level.nameEn}
            </span>
            <span className="cockpit-ticker-text" title={what}>
              {what}
            </span>
            <span className="cockpit-ticker-time">
              {a.status === 'active' ? '' : `${t(`cockpit.ticker.${a.status}`)} `}
              {dayjs(a.startedAt).format('HH:mm:ss')}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
