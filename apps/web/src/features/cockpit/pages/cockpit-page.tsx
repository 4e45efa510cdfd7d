// cockpit/index: the wall display. Three columns fit the screen without scrolling (KPIs, assets
// online by kind, alarms by level, compliance gauge | China map with warehouses per province
// and live vehicle dots | alarm ticker and trends), every size in rem so the root font rule
// scales it past 1920 x 1080. The summary is read again every 30 s; vehicle dots move and the
// ticker grows from the live channel in between. "Full screen" puts the cockpit alone on the
// screen (the Fullscreen API; where the browser refuses, it covers the console frame).
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Button } from 'antd';
import { FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { AlarmRow } from '@iotc/shared/alarm';
import type { CockpitTickerItem, CockpitVehicle } from '@iotc/shared/cockpit';
import type { DeviceState } from '@iotc/shared/live';
import { EChart, type EChartOption } from '../../../components/chart/echart.tsx';
import { useLang } from '../../../lib/language.ts';
import { LiveBuffer } from '../../../lib/live-buffer.ts';
import { useLiveAlarms, useLiveStates, type LiveChannel } from '../../../lib/live.ts';
import { usePermission } from '../../../lib/permissions.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { useThemeName } from '../../../lib/theme.ts';
import { useCockpitSummary } from '../api/cockpit-summary.ts';
import { chinaRegions } from '../components/china-map.ts';
import { alarmTrendOption, gaugeOption, mapOption, PALETTES, readingTrendOption, taskTrendOption } from '../components/cockpit-charts.ts';
import { applyVehicleStates, formatCount, formatPercent, mergeTicker, provinceRows, regionAt, regionNameMap, share } from '../components/cockpit-model.ts';
import { AlarmTicker, Bars, KpiCards, Panel, type Kpi } from '../components/cockpit-parts.tsx';
import '../components/cockpit.css';

/** Live batches are applied at most this often. */
const LIVE_FLUSH_MS = 1000;
/** The summary is read again this long after alarms arrived live (their counters changed). */
const ALARM_RECOUNT_MS = 2000;
/** Space kept under the cockpit inside the console frame (the content's bottom padding). */
const FRAME_BOTTOM_PX = 24;

/** Pixels per rem now (the root font follows the window width). */
function useRem(): number {
  const read = () => parseFloat(getComputedStyle(document.documentElement).fontSize) || 100;
  const [rem, setRem] = useState(read);
  useEffect(() => {
    // After the root font rule's own resize handler has run.
    const onResize = () => requestAnimationFrame(() => setRem(read()));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return rem;
}

function useNow(ms = 1000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** Inside the console the cockpit takes the height left below it in the window. */
function useFitHeight(box: React.RefObject<HTMLDivElement | null>, wall: boolean): number | undefined {
  const [height, setHeight] = useState<number>();
  useLayoutEffect(() => {
    if (wall) return undefined;
    const fit = () => {
      const el = box.current;
      if (!el) return;
      const top = el.getBoundingClientRect().top + window.scrollY;
      setHeight(Math.max(480, window.innerHeight - top - FRAME_BOTTOM_PX));
    };
    fit();
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [box, wall]);
  return wall ? undefined : height;
}

function LiveState({ channel }: { channel: LiveChannel }) {
  const { t } = useTranslation();
  return (
    <span className="cockpit-live" data-testid="cockpit-live" data-state={channel.status}>
      {t(`cockpit.live.${channel.status}`)}
    </span>
  );
}

const NO_TICKER: CockpitTickerItem[] = [];
const NO_VEHICLES: CockpitVehicle[] = [];

export default function CockpitPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const theme = useThemeName();
  const palette = PALETTES[theme];
  const rem = useRem();
  const now = useNow();
  const can = usePermission();
  const summary = useCockpitSummary(lang);
  const data = summary.data;

  // ---- full screen ----
  const box = useRef<HTMLDivElement>(null);
  const [wall, setWall] = useState(false);
  const toggleWall = useCallback(() => {
    if (wall) {
      setWall(false);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
      return;
    }
    setWall(true);
    // Refused (no user gesture, an iframe, a kiosk policy): the cockpit still covers the frame.
    void box.current?.requestFullscreen?.().catch(() => undefined);
  }, [wall]);
  useEffect(() => {
    const onChange = () => {
      if (!document.fullscreenElement) setWall(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setWall(false);
    };
    document.addEventListener('fullscreenchange', onChange);
    window.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
      window.removeEventListener('keydown', onKey);
    };
  }, []);
  const height = useFitHeight(box, wall);

  // ---- live: vehicles and the ticker, on top of the latest summary ----
  const [vehicles, setVehicles] = useState<CockpitVehicle[]>(NO_VEHICLES);
  const [ticker, setTicker] = useState<CockpitTickerItem[]>(NO_TICKER);
  const [updatedAt, setUpdatedAt] = useState<Date | null>(null);
  useEffect(() => {
    if (!data) return;
    // A fresh summary replaces what the live channel had added (it includes all of it).
    setVehicles(data.vehicles);
    setTicker(data.ticker);
    setUpdatedAt(new Date(data.generatedAt));
  }, [data]);

  const [states] = useState(() => new LiveBuffer<DeviceState>());
  const [alarmBuffer] = useState(() => new LiveBuffer<AlarmRow>());
  const onStates = useCallback((batch: DeviceState[]) => states.push(batch), [states]);
  const onAlarms = useCallback((batch: AlarmRow[]) => alarmBuffer.push(batch), [alarmBuffer]);
  const refetch = summary.refetch;
  const onHello = useCallback(() => void refetch(), [refetch]);
  const refetchRef = useRef(refetch);
  useEffect(() => {
    refetchRef.current = refetch;
  }, [refetch]);
  const stateChannel = useLiveStates(onStates, onHello);
  useLiveAlarms(onAlarms, undefined, can('alarm:read'));
  useEffect(() => {
    const offStates = states.subscribe((batch) => {
      setVehicles((v) => applyVehicleStates(v, batch.values()));
      setUpdatedAt(new Date());
    });
    let recount: ReturnType<typeof setTimeout> | undefined;
    const offAlarms = alarmBuffer.subscribe((batch) => {
      setTicker((items) => mergeTicker(items, batch.values()));
      setUpdatedAt(new Date());
      // Alarms opened or ended change the counters: read the summary again soon, once for a burst.
      if (recount === undefined)
        recount = setTimeout(() => {
          recount = undefined;
          void refetchRef.current();
        }, ALARM_RECOUNT_MS);
    });
    const timer = setInterval(() => {
      states.flush();
      alarmBuffer.flush();
    }, LIVE_FLUSH_MS);
    return () => {
      offStates();
      offAlarms();
      clearInterval(timer);
      clearTimeout(recount);
    };
  }, [states, alarmBuffer]);

  // ---- derived ----
  const regions = useMemo(() => chinaRegions(), []);
  const nameMap = useMemo(() => regionNameMap(regions.map((r) => r.name), lang), [regions, lang]);
  const provinces = useMemo(() => provinceRows(data?.provinces ?? [], vehicles, (lon, lat) => regionAt(regions, lon, lat), lang), [data?.provinces, vehicles, regions, lang]);
  const texts = useMemo(() => ({ warehouses: t('cockpit.map.warehouses'), vehicles: t('cockpit.map.vehicles'), coldRooms: t('cockpit.map.coldRooms') }), [t]);
  const map = useMemo(() => mapOption(provinces, vehicles, palette, rem, texts, nameMap) as EChartOption, [provinces, vehicles, palette, rem, texts, nameMap]);
  const gauge = useMemo(() => gaugeOption(data?.compliance.rate ?? null, palette, rem) as EChartOption, [data?.compliance.rate, palette, rem]);
  const trends = data?.trends;
  const alarmTrend = useMemo(() => (trends ? (alarmTrendOption(trends, palette, rem) as EChartOption) : undefined), [trends, palette, rem]);
  const readingTrend = useMemo(() => (trends ? (readingTrendOption(trends, palette, rem, t('cockpit.trend.readingsSeries')) as EChartOption) : undefined), [trends, palette, rem, t]);
  const taskTrend = useMemo(
    () => (trends ? (taskTrendOption(trends, palette, rem, { started: t('cockpit.trend.started'), arrived: t('cockpit.trend.arrived') }) as EChartOption) : undefined),
    [trends, palette, rem, t],
  );

  const assetsTotal = data?.assets.reduce((n, a) => n + a.total, 0) ?? 0;
  const assetsOnline = data?.assets.reduce((n, a) => n + a.online, 0) ?? 0;
  const kpis: Kpi[] = data
    ? [
        { id: 'assets', label: t('cockpit.kpi.assetsOnline'), value: formatCount(assetsOnline, lang), unit: formatPercent(share(assetsOnline, assetsTotal)), sub: t('cockpit.kpi.ofTotal', { total: formatCount(assetsTotal, lang) }) },
        { id: 'devices', label: t('cockpit.kpi.devicesOnline'), value: formatCount(data.devices.online, lang), unit: formatPercent(share(data.devices.online, data.devices.total)), sub: t('cockpit.kpi.ofTotal', { total: formatCount(data.devices.total, lang) }) },
        { id: 'tasks', label: t('cockpit.kpi.tasksInTransit'), value: formatCount(data.tasks.inTransit, lang), sub: t('cockpit.kpi.abnormal', { count: data.tasks.abnormal }), warn: data.tasks.abnormal > 0 },
        { id: 'alarms', label: t('cockpit.kpi.activeAlarms'), value: formatCount(data.alarms.active, lang), sub: t('cockpit.kpi.levels', { count: data.alarms.byLevel.filter((l) => l.count > 0).length }), warn: data.alarms.active > 0 },
      ]
    : [];
  const compliance = data?.compliance;

  return (
    <div
      ref={box}
      className={`cockpit${theme === 'red-theme' ? ' cockpit--red' : ''}${theme === 'dark-theme' ? ' cockpit--dark' : ''}${wall ? ' cockpit--wall' : ''}`}
      style={height ? { height } : undefined}
      data-testid="cockpit"
      data-wall={wall ? 'true' : 'false'}
    >
      <header className="cockpit-header">
        <div className="cockpit-clock" data-testid="cockpit-clock">
          <span className="cockpit-clock-time">{dayjs(now).format('HH:mm:ss')}</span>
          <span className="cockpit-clock-date">{dayjs(now).format(lang === 'zh' ? 'YYYY年MM月DD日 dddd' : 'ddd, YYYY-MM-DD')}</span>
        </div>
        {/* The console frame gives the page its h1 (the menu entry's name). */}
        <h2 className="cockpit-title" data-testid="screen-title">
          {t('cockpit.title')}
        </h2>
        <div className="cockpit-tools">
          <span data-testid="cockpit-updated">{updatedAt ? t('cockpit.updatedAt', { time: dayjs(updatedAt).format('HH:mm:ss') }) : summary.isError ? t('cockpit.loadFailed') : ''}</span>
          <LiveState channel={stateChannel} />
          <Button className="cockpit-fullscreen" data-testid="cockpit-fullscreen" icon={wall ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={toggleWall}>
            {wall ? t('cockpit.exitFullscreen') : t('cockpit.fullscreen')}
          </Button>
        </div>
      </header>

      <div className="cockpit-body">
        <div className="cockpit-col">
          <KpiCards items={kpis} />
          <Panel title={t('cockpit.assets.title')} className="cockpit-trend">
            <Bars
              testId="cockpit-assets"
              empty="—"
              rows={(data?.assets ?? []).map((a) => ({ key: a.kind, label: t(`cockpit.kind.${a.kind}`), value: a.online, of: a.total }))}
            />
          </Panel>
          <Panel title={t('cockpit.levels.title')} className="cockpit-trend">
            <Bars testId="cockpit-levels" empty={t('cockpit.levels.none')} rows={(data?.alarms.byLevel ?? []).map((l) => ({ key: l.code, label: l.name, color: l.color, value: l.count }))} />
          </Panel>
          <Panel
            title={t('cockpit.compliance.title')}
            className="cockpit-trend"
            testId="cockpit-compliance"
            extra={compliance && compliance.readings > 0 ? t('cockpit.compliance.readings', { inRange: formatCount(compliance.inRange, lang), readings: formatCount(compliance.readings, lang) }) : t('cockpit.compliance.none')}
          >
            <EChart option={gauge} height="100%" />
          </Panel>
        </div>

        <div className="cockpit-col">
          <Panel title={t('cockpit.map.title')} className="cockpit-map-panel">
            <div className="cockpit-map-legend">
              <span>
                <i style={{ background: palette.areaHigh }} />
                {t('cockpit.map.warehouses')}
              </span>
              <span>
                <i style={{ background: '#52c41a' }} />
                {t('cockpit.map.vehicles')}
              </span>
            </div>
            <EChart option={map} height="100%" data-testid="cockpit-map" />
            <span hidden data-testid="cockpit-map-state" data-regions={regions.length} data-vehicles={vehicles.length} data-region-names={JSON.stringify(Object.values(nameMap))} />
            {provinces.length > 0 ? (
              <table className="cockpit-provinces" data-testid="cockpit-provinces">
                <thead>
                  <tr>
                    <th>{t('cockpit.map.province')}</th>
                    <th>{t('cockpit.map.warehouses')}</th>
                    <th>{t('cockpit.map.coldRooms')}</th>
                    <th>{t('cockpit.map.vehicles')}</th>
                  </tr>
                </thead>
                <tbody>
                  {provinces.slice(0, 6).map((p) => (
                    <tr key={p.key} data-province={p.key}>
                      <td>{p.name || t('cockpit.map.other')}</td>
                      <td>{p.warehouses}</td>
                      <td>{p.coldRooms}</td>
                      <td>{p.vehicles}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
          </Panel>
        </div>

        <div className="cockpit-col">
          <Panel title={t('cockpit.ticker.title')} className="cockpit-ticker-panel">
            <AlarmTicker items={ticker} lang={lang} />
          </Panel>
          <Panel title={t('cockpit.trend.alarms')} className="cockpit-trend">
            {alarmTrend ? <EChart option={alarmTrend} height="100%" /> : null}
          </Panel>
          <Panel title={t('cockpit.trend.readings')} className="cockpit-trend">
            {readingTrend ? <EChart option={readingTrend} height="100%" /> : null}
          </Panel>
          <Panel title={t('cockpit.trend.tasks')} className="cockpit-trend">
            {taskTrend ? <EChart option={taskTrend} height="100%" /> : null}
          </Panel>
        </div>
      </div>
    </div>
  );
}
