// Data and measuring of the DataTable benchmark page: 50,000 seeded sensor rows, the table's
// declaration (limit, battery and unit columns among eight) and the first-render mark. Kept free
// of JSX so every TypeScript project that includes bench/ can check it.
import type { TableDescriptor } from '../../apps/web/src/components/data-table/types.ts';

declare global {
  interface Window {
    /** performance.now() when the first rows were in the DOM. */
    __firstRenderMs?: number;
    __rowCount?: number;
  }
}

export interface SensorRow {
  id: number;
  deviceNo: string;
  name: string;
  temperature: number;
  humidity: number;
  battery: number;
  door: number;
  place: string;
  reportedAt: string;
}

export const DEFAULT_ROWS = 50_000;

// A fixed seed, so every run renders the same rows.
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PLACES = ['上海市浦东新区', '北京市朝阳区', 'Shenzhen, Nanshan', '广州市天河区', 'Hangzhou, Xihu', '成都市武侯区'];

export function makeRows(count: number): SensorRow[] {
  const next = random(20_240_601);
  const start = Date.UTC(2025, 5, 1);
  const rows: SensorRow[] = new Array(count);
  for (let i = 0; i < count; i += 1) {
    rows[i] = {
      id: i + 1,
      deviceNo: `TC-${100_000 + i}`,
      name: `Reefer ${(i % 900) + 1}`,
      temperature: Math.round((next() * 34 - 24) * 10) / 10,
      humidity: Math.round(next() * 1000) / 10,
      battery: Math.round(next() * 100),
      door: next() < 0.2 ? 1 : 0,
      place: PLACES[i % PLACES.length]!,
      reportedAt: new Date(start + i * 37_000).toISOString().slice(0, 19).replace('T', ' '),
    };
  }
  return rows;
}

export const benchTable: TableDescriptor<SensorRow> = {
  id: 'bench',
  rowKey: 'id',
  columns: [
    { key: 'Device No.', value: 'deviceNo', type: 'link' },
    { key: 'Name', value: 'name' },
    { key: 'Temperature', value: 'temperature', type: 'limit', unit: '℃', minValue: -20, maxValue: 8 },
    { key: 'Humidity', value: 'humidity', type: 'unit', unit: '%' },
    { key: 'Battery', value: 'battery', battery: true },
    {
      key: 'Door',
      value: 'door',
      type: 'source',
      lookup: [
        { key: 0, text: 'Closed' },
        { key: 1, text: 'Open' },
      ],
    },
    { key: 'Place', value: 'place', place: true },
    { key: 'Reported at', value: 'reportedAt' },
  ],
};

/**
 * Called after React committed the first render: on the first frame that shows table rows it
 * marks the scrolling body with data-testid="bench-table" and records window.__firstRenderMs.
 * Answers a function that stops waiting.
 */
export function markFirstRender(): () => void {
  let frame = requestAnimationFrame(function check() {
    const body = document.querySelector<HTMLElement>('.ant-table-tbody-virtual-holder');
    if (body?.querySelector('.ant-table-row')) {
      body.setAttribute('data-testid', 'bench-table');
      window.__firstRenderMs = performance.now();
    } else {
      frame = requestAnimationFrame(check);
    }
  });
  return () => cancelAnimationFrame(frame);
}
