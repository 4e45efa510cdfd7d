// transport/history: a device's or a transport task's track over a range, played back. The map
// draws the track coloured by speed or by temperature (bands relative to the task's limits), with
// start, end, stops and alarms; the playback moves a marker along it while a cursor moves over the
// temperature, humidity and speed curves below. Hovering the curves shows the vehicle at that time
// and a click seeks there. A long range comes simplified (one point per time bucket); zooming the
// curves' time axis fetches the window in full detail.
// Address: `taskId`, or `deviceId` with `from` and `to` (ISO), so another screen can link here.
// Smoothness: nothing here re-renders per animation frame; the Player hands the playhead to
// `renderAt`, which moves the marker and the cursor directly, and only the playback bar re-renders
// (about ten times a second).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Card, DatePicker, Empty, Segmented, Skeleton, Spin, Typography } from 'antd';
import { Outcome } from '../../../components/outcome.tsx';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import { ALARM_TYPES, type AlarmType } from '@iotc/shared/alarm';
import { DATETIME_FORMAT, LAST_WEEK_DAYS } from '@iotc/shared/constants';
import { MAX_TRACK_DAYS, type TrackAlarmMarker, type TrackPoints, type TrackStop } from '@iotc/shared/track';
import { PATTERNS } from '@iotc/shared/validation';
import { useMapConfig } from '../../../api/map-config.ts';
import { RemoteSelect, type RemoteOption } from '../../../components/remote-select.tsx';
import type { ScreenProps } from '../../../lib/screen.ts';
import { deviceLabel, searchDevices, searchTasks, taskLabel } from '../../../api/pickers.ts';
import { useTrack, useTrackWindow, type TrackTarget } from '../api/track.ts';
import { useTrackSummary } from '../api/track-summary.ts';
import { formatDuration } from '../components/format.ts';
import { PlaybackBar } from '../components/playback-bar.tsx';
import { Player } from '../components/player.ts';
import { TrackCurves, type TrackCurvesHandle } from '../components/track-curves.tsx';
import { curvesOption } from '../components/track-curves-option.ts';
import { TrackMap } from '../components/track-map.tsx';
import { TripStats } from '../components/trip-stats.tsx';
import type { TrackLayer } from '../components/track-layer.ts';
import {
  SPEED_BANDS,
  coloredPieces,
  drawableRuns,
  legendBands,
  nearestIndex,
  positionAt,
  spliceWindow,
  temperatureBands,
  trackDomain,
  trackFixes,
  type ColorMode,
} from '../components/track-model.ts';
import '../components/track.css';

type Range = [Dayjs, Dayjs];
type Kind = 'device' | 'task';

/** Quiet time after the last zoom step before the window is fetched in full detail. */
export const ZOOM_FETCH_DEBOUNCE_MS = 400;
const MAP_HEIGHT = 460;

export function last24Hours(now: Dayjs = dayjs()): Range {
  return [now.subtract(24, 'hour'), now];
}

function instant(text: string | null): Dayjs | undefined {
  if (!text) return undefined;
  const d = dayjs(text);
  return d.isValid() ? d : undefined;
}

export interface AddressTarget {
  kind: Kind;
  id?: string;
  /** Undefined for a task: its own span. */
  range?: Range;
}

/** What the address asks for; a device without a valid range gets `fallback`. */
export function readTarget(params: URLSearchParams, fallback: Range): AddressTarget {
  const uuid = (key: string) => {
    const v = params.get(key)?.trim();
    return v && PATTERNS.uuid.test(v) ? v : undefined;
  };
  const from = instant(params.get('from'));
  const to = instant(params.get('to'));
  const range: Range | undefined = from && to && from.isBefore(to) ? [from, to] : undefined;
  const taskId = uuid('taskId');
  if (taskId) return { kind: 'task', id: taskId, range };
  return { kind: 'device', id: uuid('deviceId'), range: range ?? fallback };
}

/** Why a range cannot be asked for, or null. */
export function rangeProblem(range: Range | undefined): 'order' | 'tooLong' | null {
  if (!range) return null;
  if (!range[0].isBefore(range[1])) return 'order';
  return range[1].diff(range[0], 'millisecond') > MAX_TRACK_DAYS * 86_400_000 ? 'tooLong' : null;
}

function toTarget(a: AddressTarget): TrackTarget | undefined {
  if (!a.id) return undefined;
  const span = a.range ? { from: a.range[0].toISOString(), to: a.range[1].toISOString() } : {};
  return a.kind === 'task' ? { taskId: a.id, ...span } : { deviceId: a.id, ...span };
}

function fmt(v: number | null | undefined, digits: number, unit: string): string {
  return v === null || v === undefined ? '-' : `${v.toFixed(digits)} ${unit}`;
}

export default function HistoryPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const [fallback] = useState(() => last24Hours());
  const committed = readTarget(params, fallback);
  const target = toTarget(committed);
  const targetKey = JSON.stringify(target ?? null);

  // ---- the controls edit a draft; Query (or picking a device or task) puts it in the address ----
  const [shownKey, setShownKey] = useState(targetKey);
  const [kind, setKind] = useState<Kind>(committed.kind);
  const [draftId, setDraftId] = useState<string | undefined>(committed.id);
  const [draftRange, setDraftRange] = useState<Range | undefined>(committed.range);
  const [picked, setPicked] = useState<RemoteOption | undefined>();
  if (shownKey !== targetKey) {
    setShownKey(targetKey);
    setKind(committed.kind);
    setDraftId(committed.id);
    setDraftRange(committed.range);
  }

  const commit = (k: Kind, id: string | undefined, range: Range | undefined) => {
    if (!id) {
      void message.warning(t(k === 'task' ? 'track.pickTask' : 'track.pickDevice'));
      return;
    }
    const problem = rangeProblem(range);
    if (problem) {
      void message.warning(problem === 'tooLong' ? t('track.rangeTooLong', { days: MAX_TRACK_DAYS }) : t('track.rangeOrder'));
      return;
    }
    const next = new URLSearchParams();
    next.set(k === 'task' ? 'taskId' : 'deviceId', id);
    if (range) {
      next.set('from', range[0].toISOString());
      next.set('to', range[1].toISOString());
    }
    if (next.toString() === params.toString()) {
      void track.refetch();
      void summary.refetch();
      return;
    }
    setParams(next);
  };

  // ---- data ----
  const track = useTrack(target);
  const summary = useTrackSummary(target);
  const mapConfig = useMapConfig();
  const answer = track.data;

  // The zoomed window of the curves (debounced), for this track only.
  const [zoom, setZoom] = useState<{ key: string; window: [number, number] } | null>(null);
  const zoomWindow = zoom && zoom.key === targetKey ? zoom.window : null;
  const zoomTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const zoomNow = useRef<[number, number] | null>(null);
  useEffect(() => () => clearTimeout(zoomTimer.current), []);
  const onZoom = useCallback(
    (w: [number, number] | null) => {
      zoomNow.current = w;
      clearTimeout(zoomTimer.current);
      zoomTimer.current = setTimeout(() => setZoom(w ? { key: targetKey, window: w } : null), ZOOM_FETCH_DEBOUNCE_MS);
    },
    [targetKey],
  );
  const windowTarget: TrackTarget | undefined =
    answer?.simplified && zoomWindow && target ? { ...target, from: new Date(zoomWindow[0]).toISOString(), to: new Date(zoomWindow[1]).toISOString() } : undefined;
  const detail = useTrackWindow(windowTarget);
  const detailData = windowTarget && detail.data && detail.data.device.id === answer?.device.id ? detail.data : undefined;

  const points: TrackPoints | undefined = useMemo(() => {
    if (!answer) return undefined;
    if (!detailData) return answer.points;
    return spliceWindow(answer.points, detailData.points, Date.parse(detailData.from), Date.parse(detailData.to));
  }, [answer, detailData]);

  const [colorMode, setColorMode] = useState<ColorMode>('speed');
  const limits = answer?.limits ?? null;
  const bands = useMemo(() => (colorMode === 'speed' ? SPEED_BANDS : temperatureBands(limits)), [colorMode, limits]);
  const fixes = useMemo(() => (points ? trackFixes(points) : null), [points]);
  const runs = useMemo(() => (fixes ? drawableRuns(fixes) : []), [fixes]);
  const pieces = useMemo(() => (fixes && points ? coloredPieces(fixes, runs, colorMode === 'speed' ? points.speed : points.temp, bands) : []), [fixes, runs, points, colorMode, bands]);
  // By value: a refetch that brings the same span keeps the playhead where it is.
  const [d0, d1] = answer ? trackDomain(answer) : [0, 0];
  const domain = useMemo<[number, number]>(() => [d0, d1], [d0, d1]);

  // ---- map, curves and the playback, driven imperatively ----
  const [view, setView] = useState<TrackLayer | null>(null);
  const curves = useRef<TrackCurvesHandle>(null);
  const hovering = useRef(false);
  const fixesRef = useRef(fixes);
  useEffect(() => {
    fixesRef.current = fixes;
  }, [fixes]);
  const viewRef = useRef(view);
  useEffect(() => {
    viewRef.current = view;
  }, [view]);
  const renderAt = useCallback((at: number) => {
    curves.current?.setCursor(at);
    if (hovering.current) return;
    const f = fixesRef.current;
    viewRef.current?.setVehicle(f ? positionAt(f, at) : null);
  }, []);
  const [player] = useState(() => new Player([0, 0], () => {}));
  useEffect(() => {
    player.setRender(renderAt);
  }, [player, renderAt]);
  useEffect(() => () => player.destroy(), [player]);
  // A new track (not a window of it): the playhead back to its start.
  useEffect(() => {
    player.load(domain, false);
  }, [player, domain]);

  const [follow, setFollow] = useState(false);
  useEffect(() => {
    view?.setFollow(follow);
  }, [view, follow]);

  const fittedFor = useRef<unknown>(null);
  const drawn = useRef<{ view: TrackLayer | null; fixes: unknown }>({ view: null, fixes: null });
  useEffect(() => {
    if (!view || !fixes) return;
    if (drawn.current.fixes !== fixes || drawn.current.view !== view) {
      // Fitted once per track asked for (and on a new map); a zoomed window or a refetch keeps the user's view.
      const fit = fittedFor.current !== targetKey || drawn.current.view !== view;
      drawn.current = { view, fixes };
      fittedFor.current = targetKey;
      view.setTrack(fixes, pieces, fit);
      player.redraw();
    } else view.setPieces(pieces);
  }, [view, fixes, pieces, targetKey, player]);

  const typeName = useCallback((type: string) => (ALARM_TYPES.includes(type as AlarmType) ? t(`alarm.type.${type as AlarmType}`) : type), [t]);
  useEffect(() => {
    if (!view) return;
    const time = (ms: number) => dayjs(ms).format(DATETIME_FORMAT);
    view.setTexts({
      start: t('track.start'),
      end: t('track.end'),
      startShort: t('track.startShort'),
      endShort: t('track.endShort'),
      stop: (s: TrackStop) => `${t('track.stop')}: ${time(s.startT)} - ${time(s.endT)} (${formatDuration(s.durationS, t)})`,
      alarm: (a: TrackAlarmMarker) => [typeName(a.type), a.levelName, time(Date.parse(a.startedAt)), a.value !== null ? String(a.value) : ''].filter(Boolean).join(' · '),
    });
  }, [view, t, typeName]);
  useEffect(() => {
    view?.setStopsAndAlarms(summary.data?.stops ?? [], summary.data?.alarms ?? []);
  }, [view, summary.data]);
  useEffect(() => {
    if (view) view.onSeek = (at) => player.seek(at);
  }, [view, player]);

  const pointsRef = useRef(points);
  useEffect(() => {
    pointsRef.current = points;
  }, [points]);
  const texts = useRef({ temp: '', humidity: '', speed: '' });
  useEffect(() => {
    texts.current = { temp: t('sensor.temperature'), humidity: t('sensor.humidity'), speed: t('sensor.speed') };
  }, [t]);
  const onHover = useCallback(
    (at: number | null) => {
      const p = pointsRef.current;
      const f = fixesRef.current;
      if (at === null || !p || !f || p.t.length === 0) {
        if (!hovering.current) return;
        hovering.current = false;
        curves.current?.setHover(null);
        player.redraw();
        return;
      }
      // The point nearest the hovered time, where the vehicle was then.
      const i = nearestIndex(p.t, at);
      const ti = p.t[i]!;
      const lat = p.lat[i];
      const lon = p.lon[i];
      const pos: [number, number] | null = p.lbs[i] !== 1 && lat !== null && lat !== undefined && lon !== null && lon !== undefined ? [lat, lon] : positionAt(f, ti);
      hovering.current = true;
      const tip = document.createElement('div');
      const head = document.createElement('b');
      head.textContent = dayjs(ti).format(DATETIME_FORMAT);
      const body = document.createElement('div');
      body.textContent = `${texts.current.temp} ${fmt(p.temp[i], 1, '°C')} · ${texts.current.humidity} ${fmt(p.humidity[i], 1, '%')} · ${texts.current.speed} ${fmt(p.speed[i], 1, 'km/h')}`;
      tip.append(head, body);
      viewRef.current?.setVehicle(pos, tip);
      curves.current?.setHover(ti);
    },
    [player],
  );
  const onSeek = useCallback((at: number) => player.seek(at), [player]);

  const option = useMemo(
    () =>
      points
        ? curvesOption({
            points,
            limits,
            domain,
            // The window as it is now, so new detail (or a language change) keeps the zoom.
            zoom: zoomNow.current,
            texts: { temp: t('sensor.temperature'), humidity: t('sensor.humidity'), speed: t('sensor.speed'), upper: t('track.upperLimit'), lower: t('track.lowerLimit') },
          })
        : null,
    [points, limits, domain, t],
  );
  // The new option is drawn on the next frame; the cursor follows it there.
  useEffect(() => {
    const id = requestAnimationFrame(() => player.redraw());
    return () => cancelAnimationFrame(id);
  }, [option, player]);

  // ---- view ----
  const presets = [
    { label: t('track.today'), value: (): Range => [dayjs().startOf('day'), dayjs()] },
    { label: t('track.last24h'), value: () => last24Hours() },
    { label: t('track.last7d'), value: (): Range => [dayjs().subtract(LAST_WEEK_DAYS, 'day'), dayjs()] },
  ];
  const currentLabel =
    picked?.value === committed.id ? picked?.label : answer ? (committed.kind === 'task' && answer.task ? taskLabel({ code: answer.task.code, goodsName: '' }) : deviceLabel(answer.device)) : undefined;
  const initialOptions = committed.id && currentLabel && kind === committed.kind ? [{ value: committed.id, label: currentLabel }] : undefined;

  const shown = detailData ?? answer;
  const detailNote = shown ? (shown.simplified ? t('track.simplified', { n: shown.bucketS ?? 0 }) : t('track.fullDetail')) : null;
  const empty = !!answer && answer.points.t.length === 0;

  let body;
  if (!target) body = <Empty description={t('track.choose')} data-testid="track-no-target" style={{ padding: '48px 0' }} />;
  else if (track.isPending) body = <Skeleton active paragraph={{ rows: 10 }} data-testid="track-loading" />;
  else if (track.isError && !answer)
    body = (
      <Outcome
        status="warning"
        title={t('track.loadFailed')}
        subTitle={track.error?.message}
        data-testid="track-error"
        extra={
          <Button onClick={() => void track.refetch()} data-testid="track-retry">
            {t('common.retry')}
          </Button>
        }
      />
    );
  else if (empty) body = <Empty description={t('track.empty')} data-testid="track-empty" style={{ padding: '48px 0' }} />;
  else if (answer && option)
    body = (
      <>
        <div className="track-info" data-testid="track-info">
          <span>
            {t('track.device')}: <b>{deviceLabel(answer.device)}</b>
          </span>
          {answer.task && (
            <span>
              {t('track.task')}: <b>{answer.task.code}</b>
            </span>
          )}
          <span>
            {t('track.period')}: <b>{dayjs(answer.from).format(DATETIME_FORMAT)}</b> - <b>{dayjs(answer.to).format(DATETIME_FORMAT)}</b>
          </span>
          <span className="track-detail-note" data-testid="track-detail-note" data-simplified={String(!!shown?.simplified)}>
            {detailNote}
            {windowTarget && detail.isFetching ? <Spin size="small" style={{ marginInlineStart: 8 }} /> : null}
          </span>
        </div>
        <div className="track-main">
          <div className="track-map-column">
            <div className="track-map-wrap">
              <TrackMap config={mapConfig.data ?? null} onView={setView} height={MAP_HEIGHT} />
              <div className="track-legend" data-testid="track-legend">
                <Segmented<ColorMode>
                  size="small"
                  value={colorMode}
                  onChange={setColorMode}
                  data-testid="track-color-mode"
                  options={[
                    { value: 'speed', label: t('track.bySpeed') },
                    { value: 'temperature', label: t('track.byTemperature') },
                  ]}
                />
                {legendBands(bands).map((b) => (
                  <div key={b.key} className="track-legend-row">
                    <span className="iotc-map-swatch" style={{ background: b.color }} />
                    {t(b.label.key, b.label.values)}
                  </div>
                ))}
                <div className="track-legend-row track-legend-marks">
                  <span className="iotc-map-swatch" style={{ background: '#722ed1' }} />
                  {t('track.stop')}
                  <span className="iotc-map-swatch track-legend-gap" style={{ background: '#f5222d' }} />
                  {t('track.alarm')}
                </div>
              </div>
            </div>
            <PlaybackBar player={player} follow={follow} onFollow={setFollow} />
          </div>
          <div className="track-side">
            <Typography.Title level={5}>{t('track.statsTitle')}</Typography.Title>
            {summary.isPending ? (
              <Skeleton active paragraph={{ rows: 6 }} />
            ) : summary.isError || !summary.data ? (
              <Alert type="warning" showIcon title={t('track.summaryFailed')} data-testid="track-summary-error" />
            ) : (
              <TripStats summary={summary.data} onSeek={onSeek} />
            )}
          </div>
        </div>
        <Card type="inner" size="small" className="track-curves-card" title={t('track.curves')}>
          <TrackCurves option={option} domain={domain} onHover={onHover} onSeek={onSeek} onZoom={onZoom} handle={curves} />
          <Typography.Text type="secondary" className="track-curves-hint">
            {t('track.curvesHint')}
          </Typography.Text>
        </Card>
      </>
    );

  return (
    <Card title={<span data-testid="screen-title">{t('track.title')}</span>} data-testid="track-page">
      <div className="track-toolbar">
        <Segmented<Kind>
          value={kind}
          data-testid="track-kind"
          onChange={(k) => {
            setKind(k);
            setDraftId(undefined);
            setPicked(undefined);
            if (k === 'device' && !draftRange) setDraftRange(last24Hours());
          }}
          options={[
            { value: 'device', label: t('track.byDevice') },
            { value: 'task', label: t('track.byTask') },
          ]}
        />
        <RemoteSelect
          key={`${kind}|${committed.id ?? ''}|${currentLabel ?? ''}`}
          data-testid={kind === 'task' ? 'track-task' : 'track-device'}
          style={{ width: 300 }}
          fetcher={kind === 'task' ? searchTasks : searchDevices}
          value={draftId}
          initialOptions={initialOptions}
          placeholder={t(kind === 'task' ? 'track.taskPlaceholder' : 'track.devicePlaceholder')}
          allowClear={false}
          onChange={(value, option) => {
            setDraftId(value);
            setPicked(option);
            if (value) commit(kind, value, draftRange);
          }}
        />
        <span className="track-field" data-testid="track-range">
          <span className="track-field-label">{t('track.timeRange')}</span>
          <DatePicker.RangePicker
            showTime
            format={DATETIME_FORMAT}
            allowClear={kind === 'task'}
            value={draftRange ?? null}
            presets={presets}
            placeholder={kind === 'task' ? [t('track.taskSpan'), t('track.taskSpan')] : [t('filter.startDate'), t('filter.endDate')]}
            onChange={(range) => setDraftRange(range?.[0] && range[1] ? [range[0], range[1]] : undefined)}
          />
        </span>
        <Button type="primary" icon={<SearchOutlined />} data-testid="track-query" onClick={() => commit(kind, draftId, kind === 'device' ? (draftRange ?? last24Hours()) : draftRange)}>
          {t('track.query')}
        </Button>
      </div>
      {body}
    </Card>
  );
}
