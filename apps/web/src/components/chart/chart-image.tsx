// A chart drawn by the server (ECharts' server-side rendering, POST /charts/svg) and shown as an
// image, until the pointer comes onto it: then the live ECharts chart takes its place, with its
// tooltips. A screen's first view thus fetches an SVG of a few KB per chart instead of ECharts
// (about 180 KB gzip) before anything is drawn. The image is asked for at the box's width (in
// steps, so a resize asks again only when it matters) and in the console's theme; as an <img> it
// runs nothing it holds, and its alt text says what the chart shows. If the server cannot draw
// it, the live chart is drawn instead.
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CHART_API, CHART_WIDTH, type ChartSvg } from '@iotc/shared/chart';
import { request } from '../../api/client.ts';
import { isDarkTheme, useThemeName } from '../../lib/theme.ts';
import type { EChartOption } from './echart.tsx';

const LiveChart = lazy(() =>
  import('./echart.tsx').then((m) => {
    // The pointer is on the chart already: its tooltip is wanted at once.
    void m.loadTooltips();
    return { default: m.EChart };
  }),
);

/** Widths are asked for in steps of this many pixels (the image stretches between them). */
const WIDTH_STEP = 16;

export interface ChartImageProps {
  option: EChartOption;
  height: number;
  /** What the chart shows, in words (the image's alt text). */
  alt: string;
  'data-testid'?: string;
}

const svgUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

export function ChartImage({ option, height, alt, ...rest }: ChartImageProps) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [live, setLive] = useState(false);
  const dark = isDarkTheme(useThemeName());

  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const measure = () => setWidth(Math.round(el.clientWidth / WIDTH_STEP) * WIDTH_STEP);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const drawWidth = Math.min(CHART_WIDTH.max, Math.max(CHART_WIDTH.min, width));
  const drawn = useQuery({
    queryKey: ['chart-svg', drawWidth, height, dark, option] as const,
    // A failure is not reported: the live chart is drawn instead, which is all the user needs.
    queryFn: ({ signal }) => request<ChartSvg>(CHART_API.svg, { method: 'POST', body: { width: drawWidth, height, dark, option }, signal, silent: true }),
    enabled: !live && width > 0,
    staleTime: Infinity,
    retry: false,
    // The image of the old size or data stays while the new one is drawn.
    placeholderData: keepPreviousData,
  });

  const image: ReactNode = drawn.data ? <img src={svgUrl(drawn.data.svg)} alt={alt} style={{ display: 'block', width: '100%', height }} data-testid={rest['data-testid'] ? `${rest['data-testid']}-image` : undefined} /> : null;
  return (
    <div ref={box} style={{ height }} data-testid={rest['data-testid']} data-drawn={live || drawn.isError ? 'live' : drawn.data ? 'image' : 'pending'} onPointerEnter={() => setLive(true)}>
      {live || drawn.isError ? (
        <Suspense fallback={image}>
          <LiveChart option={option} height={height} data-testid={rest['data-testid'] ? `${rest['data-testid']}-live` : undefined} />
        </Suspense>
      ) : (
        image
      )}
    </div>
  );
}
