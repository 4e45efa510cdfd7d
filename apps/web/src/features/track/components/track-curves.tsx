// The curves under the map, with a playhead cursor that the playback moves every frame without
// React (a positioned line over the chart: the chart itself is not redrawn), and the chart's
// pointer handed up: hovering names a time (the map shows the vehicle there), a click seeks, and
// zooming the time axis reports the window (the page fetches it again in full detail).
import { useCallback, useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { EChart, type EChartInstance, type EChartOption } from '../../../components/chart/echart.tsx';
import { CURVES_HEIGHT, GRID_HEIGHT, GRID_TOPS } from './track-curves-option.ts';

export interface TrackCurvesHandle {
  /** Moves the cursor to `t` (epoch ms) and writes it to `data-playhead`. */
  setCursor(t: number): void;
  /** Writes the hovered point's time to `data-hover` (null: none). */
  setHover(t: number | null): void;
}

interface TrackCurvesProps {
  option: EChartOption;
  /** The span of the time axes (the zoom's 0..100 %). */
  domain: [number, number];
  onHover: (t: number | null) => void;
  onSeek: (t: number) => void;
  /** The zoomed window; null when the whole span is shown again. */
  onZoom: (window: [number, number] | null) => void;
  handle: Ref<TrackCurvesHandle>;
}

/** A zoom this close to the whole span counts as the whole span. */
const FULL_SPAN_SHARE = 0.98;

type ZoomEvent = { start?: number; end?: number; startValue?: number; endValue?: number; batch?: ZoomEvent[] };

export function TrackCurves({ option, domain, onHover, onSeek, onZoom, handle }: TrackCurvesProps) {
  const box = useRef<HTMLDivElement>(null);
  const cursor = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartInstance | null>(null);
  const last = useRef<number | null>(null);
  const callbacks = useRef({ onHover, onSeek, onZoom, domain });
  useEffect(() => {
    callbacks.current = { onHover, onSeek, onZoom, domain };
  }, [onHover, onSeek, onZoom, domain]);

  const place = useCallback((t: number) => {
    const el = cursor.current;
    const c = chart.current;
    if (!el) return;
    if (!c || c.isDisposed()) {
      el.style.display = 'none';
      return;
    }
    let x: number;
    try {
      x = c.convertToPixel({ xAxisIndex: 0 }, t) as unknown as number;
    } catch {
      // The option is not set yet.
      el.style.display = 'none';
      return;
    }
    const width = c.getWidth();
    if (!Number.isFinite(x) || x < 0 || x > width || width === 0) {
      el.style.display = 'none';
      return;
    }
    // Outside the plotted area (zoomed away) the cursor hides.
    const inside = c.containPixel({ gridIndex: 0 }, [x, GRID_TOPS[0] + 1]);
    el.style.display = inside ? 'block' : 'none';
    el.style.transform = `translateX(${Math.round(x)}px)`;
  }, []);

  useImperativeHandle(
    handle,
    () => ({
      setCursor(t: number) {
        last.current = t;
        if (box.current) box.current.dataset.playhead = String(t);
        place(t);
      },
      setHover(t: number | null) {
        if (!box.current) return;
        if (t === null) delete box.current.dataset.hover;
        else box.current.dataset.hover = String(t);
      },
    }),
    [place],
  );

  const timeAt = (c: EChartInstance, x: number, y: number): number | null => {
    const hit = [0, 1, 2].some((gridIndex) => c.containPixel({ gridIndex }, [x, y]));
    if (!hit) return null;
    const t = c.convertFromPixel({ xAxisIndex: 0 }, x) as unknown as number;
    return Number.isFinite(t) ? t : null;
  };

  const onReady = useCallback(
    (c: EChartInstance) => {
      chart.current = c;
      const zr = c.getZr();
      zr.on('mousemove', (e) => {
        const t = timeAt(c, e.offsetX, e.offsetY);
        callbacks.current.onHover(t);
      });
      zr.on('globalout', () => callbacks.current.onHover(null));
      zr.on('click', (e) => {
        const t = timeAt(c, e.offsetX, e.offsetY);
        if (t !== null) callbacks.current.onSeek(t);
      });
      c.on('datazoom', (raw) => {
        const e = ((raw as ZoomEvent).batch?.[0] ?? raw) as ZoomEvent;
        const [d0, d1] = callbacks.current.domain;
        const span = d1 - d0;
        const from = e.startValue ?? d0 + (span * (e.start ?? 0)) / 100;
        const to = e.endValue ?? d0 + (span * (e.end ?? 100)) / 100;
        callbacks.current.onZoom(to - from >= span * FULL_SPAN_SHARE ? null : [Math.floor(from), Math.ceil(to)]);
        if (last.current !== null) place(last.current);
      });
      c.on('finished', () => {
        if (last.current !== null) place(last.current);
      });
    },
    [place],
  );

  return (
    <div ref={box} className="track-curves" data-testid="track-curves" style={{ position: 'relative' }}>
      <EChart option={option} height={CURVES_HEIGHT} onReady={onReady} data-testid="track-curves-chart" />
      <div
        ref={cursor}
        className="track-cursor"
        data-testid="track-cursor"
        style={{ top: GRID_TOPS[0], height: GRID_TOPS[GRID_TOPS.length - 1]! + GRID_HEIGHT - GRID_TOPS[0], display: 'none' }}
      />
    </div>
  );
}
