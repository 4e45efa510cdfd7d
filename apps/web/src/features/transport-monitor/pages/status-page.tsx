// transport/status: the transport tasks under way. A live map of every task in transit or arrived
// (planned route, origin and destination circles, where it is now; abnormal ones red) beside a list
// with abnormal tasks first: code, goods, status and why it is abnormal, progress, the way left,
// the ETA and the goods' temperature, humidity and door now. Read again when a task changes or one
// of the shown tasks' devices reports (the live channel, subscribed to those devices only), and
// every minute for lateness. Clicking a task
// highlights it on the map and opens a compact detail with a link to its history track.
import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Card, Descriptions, Empty, Input, Progress, Skeleton, Switch, Tag, Typography } from 'antd';
import { CloseOutlined, HistoryOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import type { TaskDetail } from '@iotc/shared/transport';
import { useMapConfig } from '../../../api/map-config.ts';
import { useLiveRefresh } from '../../../lib/live.ts';
import type { ScreenProps } from '../../../lib/screen.ts';
import { MONITOR_LIVE_MIN_MS, useMonitor, type MonitorFilter } from '../api/monitor.ts';
import { MonitorMap } from '../components/monitor-map.tsx';
import { formatKm, orderTasks, percent } from '../components/monitor-model.ts';
import '../components/status-monitor.css';

const MAP_HEIGHT = 560;

function time(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format(DATETIME_FORMAT) : '-';
}

function num(v: number | null | undefined, digits: number, unit: string): string {
  return v === null || v === undefined ? '-' : `${v.toFixed(digits)} ${unit}`;
}

export function historyLink(taskId: string): string {
  return `/view/transport/history?taskId=${encodeURIComponent(taskId)}`;
}

export default function StatusPage(_props: ScreenProps) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<MonitorFilter>({ abnormal: false, keyword: '' });
  const [keywordDraft, setKeywordDraft] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const monitor = useMonitor(filter);
  const mapConfig = useMapConfig();
  const tasks = useMemo(() => orderTasks(monitor.data ?? []), [monitor.data]);
  const selected = selectedId ? tasks.find((task) => task.id === selectedId) : undefined;
  const devices = useMemo(() => [...new Set(tasks.flatMap((task) => task.devices.map((d) => d.id)))].sort(), [tasks]);
  const { refetch } = monitor;
  useLiveRefresh(() => void refetch(), { tasks: true, devices, minMs: MONITOR_LIVE_MIN_MS });

  const statusText = useCallback((task: TaskDetail) => t(task.status === 'arrived' ? 'transportMonitor.status.arrived' : 'transportMonitor.status.inTransit'), [t]);
  const reasonText = useCallback((r: TaskDetail['abnormalReasons'][number]) => t(r === 'late' ? 'transportMonitor.reason.late' : 'transportMonitor.reason.alarm'), [t]);
  const doorText = useCallback((open: boolean | null) => (open === null ? '-' : open ? t('transportMonitor.doorOpen') : t('transportMonitor.doorClosed')), [t]);

  const tooltip = useCallback(
    (task: TaskDetail) => {
      const el = document.createElement('div');
      const head = document.createElement('b');
      head.textContent = `${task.code} · ${task.goodsName}`;
      const line = document.createElement('div');
      line.textContent = `${statusText(task)} · ${t('transportMonitor.temp')} ${num(task.live.temp, 1, '°C')} · ${t('transportMonitor.eta')} ${time(task.live.eta)}`;
      el.append(head, line);
      return el;
    },
    [t, statusText],
  );

  const select = useCallback((id: string) => setSelectedId((cur) => (cur === id ? null : id)), []);

  const updatedAt = monitor.dataUpdatedAt ? dayjs(monitor.dataUpdatedAt).format(DATETIME_FORMAT) : '-';

  let list;
  if (monitor.isPending) list = <Skeleton active paragraph={{ rows: 8 }} data-testid="status-loading" />;
  else if (monitor.isError && !monitor.data)
    list = (
      <Alert
        type="warning"
        showIcon
        title={t('transportMonitor.loadFailed')}
        data-testid="status-error"
        action={
          <Button size="small" onClick={() => void monitor.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  else if (tasks.length === 0) list = <Empty description={t('transportMonitor.empty')} data-testid="status-empty" />;
  else
    list = (
      <ul className="status-list" data-testid="status-list">
        {tasks.map((task) => {
          const pct = percent(task.live.progress);
          return (
            <li
              key={task.id}
              className={`status-item${task.abnormal ? ' status-item-abnormal' : ''}${task.id === selectedId ? ' status-item-selected' : ''}`}
              data-testid="status-task"
              data-id={task.id}
              data-abnormal={String(task.abnormal)}
              role="button"
              tabIndex={0}
              onClick={() => select(task.id)}
              onKeyDown={(e) => e.key === 'Enter' && select(task.id)}
            >
              <div className="status-item-head">
                <b className="status-code">{task.code}</b>
                <span className="status-goods">{task.goodsName}</span>
                {task.highValue && <Tag color="gold">{t('transportMonitor.highValue')}</Tag>}
                <span className="status-tags">
                  <Tag color={task.status === 'arrived' ? 'green' : 'blue'}>{statusText(task)}</Tag>
                  {task.abnormal && (
                    <Tag color="red" data-testid="status-abnormal">
                      {t('transportMonitor.abnormal')}
                      {task.abnormalReasons.length ? `: ${task.abnormalReasons.map(reasonText).join(', ')}` : ''}
                      {task.activeAlarms > 0 ? ` (${task.activeAlarms})` : ''}
                    </Tag>
                  )}
                </span>
              </div>
              <div className="status-route">
                {task.origin.name} → {task.destination.name}
              </div>
              <Progress percent={pct ?? 0} size="small" status={task.abnormal ? 'exception' : pct === 100 ? 'success' : 'active'} showInfo={pct !== null} />
              <div className="status-facts">
                <span>
                  {t('transportMonitor.remaining')} <b>{formatKm(task.live.remainingM)} km</b>
                </span>
                <span>
                  {t('transportMonitor.eta')} <b>{time(task.live.eta)}</b>
                </span>
                <span>
                  {t('transportMonitor.temp')} <b>{num(task.live.temp, 1, '°C')}</b>
                </span>
                <span>
                  {t('transportMonitor.humidity')} <b>{num(task.live.humidity, 1, '%')}</b>
                </span>
                <span>
                  {t('transportMonitor.door')} <b>{doorText(task.live.doorOpen)}</b>
                </span>
                <span>
                  {t('transportMonitor.lastReport')} <b>{time(task.live.time)}</b>
                </span>
              </div>
            </li>
          );
        })}
      </ul>
    );

  return (
    <Card
      title={<span data-testid="screen-title">{t('transportMonitor.title')}</span>}
      data-testid="status-page"
      extra={
        <span className="status-updated" data-testid="status-updated">
          {t('transportMonitor.updatedAt', { time: updatedAt })}
          <Button type="text" size="small" icon={<ReloadOutlined spin={monitor.isFetching} />} aria-label={t('transportMonitor.refresh')} onClick={() => void monitor.refetch()} />
        </span>
      }
    >
      <div className="status-toolbar">
        <Input.Search
          allowClear
          style={{ width: 300 }}
          placeholder={t('transportMonitor.keywordPlaceholder')}
          value={keywordDraft}
          data-testid="status-keyword"
          onChange={(e) => setKeywordDraft(e.target.value)}
          onSearch={(v) => setFilter((f) => ({ ...f, keyword: v }))}
        />
        <span className="status-switch">
          <Switch id="status-abnormal-only" size="small" checked={filter.abnormal} data-testid="status-abnormal-only" onChange={(abnormal) => setFilter((f) => ({ ...f, abnormal }))} />
          <label htmlFor="status-abnormal-only">{t('transportMonitor.abnormalOnly')}</label>
        </span>
        <span className="status-count">{t('transportMonitor.count', { n: tasks.length })}</span>
      </div>
      <div className="status-main">
        <div className="status-map-column">
          <MonitorMap tasks={tasks} selectedId={selectedId} config={mapConfig.data ?? null} onSelect={select} tooltip={tooltip} height={MAP_HEIGHT} />
          {selected && (
            <Card
              size="small"
              className="status-detail"
              data-testid="status-detail"
              title={`${selected.code} · ${selected.goodsName}`}
              extra={
                <span className="status-detail-actions">
                  <Link to={historyLink(selected.id)} data-testid="status-history-link">
                    <HistoryOutlined /> {t('transportMonitor.historyTrack')}
                  </Link>
                  <Button type="text" size="small" icon={<CloseOutlined />} aria-label={t('transportMonitor.closeDetail')} onClick={() => setSelectedId(null)} />
                </span>
              }
            >
              <Descriptions
                size="small"
                column={2}
                items={[
                  { key: 'route', label: t('transportMonitor.route'), children: `${selected.origin.name} → ${selected.destination.name}` },
                  { key: 'customer', label: t('transportMonitor.customer'), children: selected.customer || '-' },
                  { key: 'asset', label: t('transportMonitor.asset'), children: selected.asset ? `${selected.asset.name} (${selected.asset.code})` : '-' },
                  { key: 'devices', label: t('transportMonitor.devices'), children: selected.devices.map((d) => d.name || d.deviceId).join(', ') || '-' },
                  { key: 'driver', label: t('transportMonitor.driver'), children: [selected.driverName, selected.driverPhone].filter(Boolean).join(' ') || '-' },
                  { key: 'started', label: t('transportMonitor.startedAt'), children: time(selected.startedAt) },
                  { key: 'planned', label: t('transportMonitor.plannedArrival'), children: time(selected.plannedArrival) },
                  { key: 'eta', label: t('transportMonitor.eta'), children: time(selected.live.eta) },
                  {
                    key: 'limits',
                    label: t('transportMonitor.tempRange'),
                    children: selected.tempMin === null && selected.tempMax === null ? '-' : `${selected.tempMin ?? '-'} ~ ${selected.tempMax ?? '-'} °C`,
                  },
                  { key: 'speed', label: t('transportMonitor.speed'), children: num(selected.live.speed, 1, 'km/h') },
                ]}
              />
            </Card>
          )}
        </div>
        <div className="status-side">
          <Typography.Text type="secondary" className="status-hint">
            {t('transportMonitor.hint')}
          </Typography.Text>
          {list}
        </div>
      </div>
    </Card>
  );
}
