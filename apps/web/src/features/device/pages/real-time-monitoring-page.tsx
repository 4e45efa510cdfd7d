// deviceManage/realTimeMonitoring, the default landing screen: device counts by status as tabs,
// a keyword filter, then the map of every matching device above the paged table, both kept
// current by the live channel. Live batches are collected and applied every LIVE_FLUSH_MS, so
// thousands of devices reporting stay smooth. A row or a single marker selects a device: its
// row is highlighted, the map focuses it and a details panel opens on the right.
// Address: `status` (the tab), `device` (the selected device), `f.keyword`, `page`, `size`,
// `sort`. The scenario variants (vehicle 104, container 103) show their asset kind only.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Card } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { Page } from '@iotc/shared/envelope';
import type { DeviceState } from '@iotc/shared/live';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { FilterBar, type FilterItem } from '../../../components/filter-bar.tsx';
import { useListParams, type ListState } from '../../../lib/list-query.ts';
import { useLiveStates } from '../../../lib/live.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { getUserinfo } from '../../../lib/session.ts';
import { latestQueryKey } from '../../../api/device-latest.ts';
import { SERIES_KEY } from '../../../api/telemetry-series.ts';
import { deviceStatesQueryOptions, useDeviceStates } from '../api/device-states.ts';
import { useSummary } from '../api/status-summary.ts';
import { LiveIndicator } from '../components/live-indicator.tsx';
import { monitorDescriptor } from '../components/monitor-columns.ts';
import { MonitorMap } from '../components/monitor-map.tsx';
import { assetKindOf, StateBuffer, mergeRows, monitorRows, parseStatus, type MonitorFilter, type MonitorRow, type StatusTab } from '../components/monitor-model.ts';
import { StatusTabs } from '../components/status-tabs.tsx';
import '../components/monitor.css';
import { lazyPart } from '../../../components/lazy-part.tsx';
import { PATTERNS } from '@iotc/shared/validation';

// The detail drawer starts closed: its code comes when a device is opened.
const DeviceDetailDrawer = lazyPart(() => import('../components/device-detail-drawer.tsx').then((m) => m.DeviceDetailDrawer));

/** Live batches are applied at most this often. */
export const LIVE_FLUSH_MS = 500;
/**
 * How often the table takes the batches: with the spec's larger pages (50, 100 rows) a redraw
 * of the table costs more than a frame, so it follows the devices every 2 s instead of 0.5 s.
 */
export function tableFlushMs(pageSize: number): number {
  return pageSize > 10 ? 2000 : LIVE_FLUSH_MS;
}
/** Counts read this recently need no second read when the live channel opens. */
const FRESH_MS = 2000;
/** Space kept between the pinned map and what is above and below it. */
const PIN_GAP = 8;

/** The map's height for a window height: about two fifths of it, within readable bounds. */
export function mapHeightFor(windowHeight: number): number {
  return Math.round(Math.min(560, Math.max(300, windowHeight * 0.42)));
}

/**
 * Where the map is pinned: under the console's sticky header bar, at a height that follows the
 * window, so the table scrolls beneath a map that stays in view (and shows the selected device).
 */
function measurePin(): { top: number; mapHeight: number } {
  return {
    top: Math.round(document.querySelector('.header-bar')?.getBoundingClientRect().height ?? 0),
    mapHeight: mapHeightFor(window.innerHeight),
  };
}

function usePinnedLayout(): { top: number; mapHeight: number } {
  const [layout, setLayout] = useState(measurePin);
  useEffect(() => {
    const onResize = () =>
      setLayout((l) => {
        const next = measurePin();
        return next.top === l.top && next.mapHeight === l.mapHeight ? l : next;
      });
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return layout;
}

const FILTERS: FilterItem[] = [{ label: 'monitor.keyword', key: 'keyword', type: 'input', width: 280, placeholder: 'monitor.keywordPlaceholder', testId: 'monitor-keyword' }];

export default function RealTimeMonitoringPage({ scenarioType }: ScreenProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const list = useListParams('monitor');

  const status = parseStatus(params.get('status'));
  const rawDevice = params.get('device')?.trim();
  const selectedId = rawDevice && PATTERNS.uuid.test(rawDevice) ? rawDevice : null;
  const assetKind = assetKindOf(scenarioType);
  const keyword = list.filters.keyword?.trim() || undefined;
  const filter = useMemo<MonitorFilter>(() => ({ status, keyword, assetKind }), [status, keyword, assetKind]);

  const listState = useMemo<ListState>(() => {
    const filters: Record<string, string> = {};
    if (status) filters.status = status;
    if (keyword) filters.keyword = keyword;
    if (assetKind) filters.assetKind = assetKind;
    return { page: list.page, size: list.size, sort: list.sort, filters };
  }, [list.page, list.size, list.sort, status, keyword, assetKind]);

  const states = useDeviceStates(listState);
  const summary = useSummary({ keyword, assetKind });
  const rows = useMemo<MonitorRow[]>(() => monitorRows(states.data?.rows ?? []), [states.data]);
  const [descriptor] = useState(() => monitorDescriptor(getUserinfo()?.id));

  // ---- live ----
  const [buffer] = useState(() => new StateBuffer());
  const [everOpen, setEverOpen] = useState(false);
  const hellos = useRef(0);
  const onStates = useCallback((batch: DeviceState[]) => buffer.push(batch), [buffer]);
  const onHello = useCallback(() => {
    hellos.current += 1;
    setEverOpen(true);
    if (hellos.current === 1) {
      // The first greeting: the counts are read again, unless they are being read or were read
      // a moment ago (the screen's first reads), which already covers the connection's start.
      void queryClient.invalidateQueries({
        queryKey: ['monitor', 'summary'],
        predicate: (q) => q.state.fetchStatus !== 'fetching' && Date.now() - q.state.dataUpdatedAt > FRESH_MS,
      });
      return;
    }
    // After a reconnect everything shown may have missed updates, so all of it is read again.
    void queryClient.invalidateQueries({ queryKey: ['monitor'] });
    void queryClient.invalidateQueries({ queryKey: ['device', 'latest'] });
    void queryClient.invalidateQueries({ queryKey: SERIES_KEY });
  }, [queryClient]);
  const channel = useLiveStates(onStates, onHello);

  useEffect(() => {
    const timer = setInterval(() => buffer.flush(), LIVE_FLUSH_MS);
    return () => clearInterval(timer);
  }, [buffer]);

  // The table page and the details panel take the batches through the query cache.
  const current = useRef({ listState, selectedId });
  useEffect(() => {
    current.current = { listState, selectedId };
  }, [listState, selectedId]);
  useEffect(() => {
    let pending = new Map<string, DeviceState>();
    let appliedAt = -Infinity;
    return buffer.subscribe((batch) => {
      const { listState: ls, selectedId: sel } = current.current;
      const mine = sel ? batch.get(sel) : undefined;
      if (sel && mine) queryClient.setQueryData(latestQueryKey(sel), mine);
      for (const [k, v] of batch) pending.set(k, v);
      const now = performance.now();
      // A little slack: the flushes come on a timer of the same period.
      if (now - appliedAt < tableFlushMs(ls.size) - LIVE_FLUSH_MS / 2) return;
      appliedAt = now;
      const states = pending;
      pending = new Map();
      const key = deviceStatesQueryOptions(ls).queryKey;
      const page = queryClient.getQueryData<Page<DeviceState>>(key);
      if (!page) return;
      const merged = mergeRows(page.rows, states);
      if (merged !== page.rows) queryClient.setQueryData<Page<DeviceState>>(key, { ...page, rows: merged });
    });
  }, [buffer, queryClient]);

  // ---- address ----
  const select = useCallback(
    (id: string) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set('device', id);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const openRow = useCallback((row: MonitorRow) => select(row.id), [select]);
  const closeDetail = useCallback(
    () =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.delete('device');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const changeTab = useCallback(
    (tab: StatusTab) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        if (tab === 'all') next.delete('status');
        else next.set('status', tab);
        next.delete('page');
        return next;
      }),
    [setParams],
  );

  const pin = usePinnedLayout();
  const sticky = useMemo(() => ({ offsetHeader: pin.top + pin.mapHeight + 2 * PIN_GAP }), [pin.top, pin.mapHeight]);
  const loading = states.isPending || states.isPlaceholderData;
  const failed = states.isError && !states.data ? states.error : undefined;

  return (
    <Card
      className="monitor-page"
      data-testid="real-time-monitoring"
      title={<span data-testid="screen-title">{t('monitor.title')}</span>}
      extra={<LiveIndicator channel={channel} everOpen={everOpen} />}
    >
      <StatusTabs active={status ?? 'all'} counts={summary.data} onChange={changeTab} />
      <FilterBar items={FILTERS} value={list.filters} onSearch={list.setFilters} />
      <div className="monitor-map-pin" style={{ top: pin.top, paddingBlock: PIN_GAP }}>
        <MonitorMap filter={filter} buffer={buffer} selectedId={selectedId} onSelect={select} height={pin.mapHeight} />
      </div>
      <DataTable<MonitorRow>
        descriptor={descriptor}
        rows={rows}
        total={states.data?.total ?? 0}
        page={list.page}
        size={list.size}
        sort={list.sort}
        onChange={list.setTable}
        loading={loading}
        error={failed}
        onRetry={() => void states.refetch()}
        onRowClick={openRow}
        activeRowKey={selectedId}
        emptyText={t('monitor.noDevices')}
        sticky={sticky}
      />
      <DeviceDetailDrawer when={selectedId !== null} id={selectedId} onClose={closeDetail} />
    </Card>
  );
}
