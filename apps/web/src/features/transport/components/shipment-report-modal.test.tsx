// The shipment report dialog against a mocked fetch: the real HTTP client sets the headers, so
// the test sees what the server would (the language of the PDF, the format asked for).
import { GEOCODE_API } from '@iotc/shared/geocode';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { App } from 'antd';
import dayjs from 'dayjs';
import { DATETIME_FORMAT } from '@iotc/shared/constants';
import { REPORT_API, type ShipmentReport } from '@iotc/shared/report';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import { ShipmentReportModal } from './shipment-report-modal.tsx';

const TASK_ID = '00000000-0000-4000-8000-000000000102';
const CODE = 'TT-20261124-0002';
const T0 = Date.parse('2026-11-24T08:00:00.000Z');
const MIN = 60_000;
const LONGEST = { side: 'above' as const, start: T0 + 60 * MIN, end: T0 + 125 * MIN, durationS: 3900, peak: { value: 11.24, t: T0 + 90 * MIN }, readings: 14, endedBy: 'in_range' as const };
const SHORT = { side: 'below' as const, start: T0 + 200 * MIN, end: T0 + 210 * MIN, durationS: 600, peak: { value: 1.5, t: T0 + 205 * MIN }, readings: 3, endedBy: 'in_range' as const };

function report(over: Partial<ShipmentReport['temperature']> = {}): ShipmentReport {
  return {
    task: {
      id: TASK_ID,
      code: CODE,
      orgName: 'Cold Chain Co',
      status: 'completed',
      goodsName: 'Vaccines',
      goodsQuantity: 20,
      goodsUnit: 'boxes',
      goodsValue: null,
      highValue: false,
      customer: 'City Hospital',
      asset: 'HU-A1234',
      devices: [{ deviceId: '860000000000001', name: 'Tracker 1' }],
      originName: 'Depot',
      destinationName: 'Hospital',
      driverName: 'Wang',
      plannedStart: '2026-11-24T08:00:00.000Z',
      plannedArrival: '2026-11-24T13:00:00.000Z',
      startedAt: '2026-11-24T08:00:00.000Z',
      arrivedAt: '2026-11-24T12:00:00.000Z',
      completedAt: '2026-11-24T12:30:00.000Z',
      onTime: true,
    },
    from: '2026-11-24T08:00:00.000Z',
    to: '2026-11-24T12:00:00.000Z',
    limits: { tempMin: 2, tempMax: 8, humidityMin: null, humidityMax: null },
    temperature: {
      from: T0,
      to: T0 + 240 * MIN,
      periodS: 14400,
      count: 240,
      noReadingCount: 0,
      min: { value: 1.5, t: T0 + 205 * MIN },
      max: { value: 11.24, t: T0 + 90 * MIN },
      average: 5.63,
      plainAverage: 5.7,
      mkt: 6.12,
      weighting: 'time',
      coveredS: 13800,
      noDataS: 600,
      inRangeS: 9300,
      outOfRange: { totalS: 4500, aboveS: 3900, belowS: 600, longest: LONGEST },
      excursions: [LONGEST, SHORT],
      inRangeShare: 0.6739,
      ...over,
    },
    humidity: { min: 40, max: 62.5, average: 51.25 },
    distanceM: 48_250,
    readings: 240,
    alarms: [
      { id: 'a1', type: 'temp_high', levelName: 'Urgent', levelColor: '#f5222d', status: 'cleared', startedAt: '2026-11-24T09:01:00.000Z', endedAt: '2026-11-24T10:05:00.000Z', value: 8.6, peak: 11.24, threshold: 8, deviceId: '860000000000001', position: { lat: 31.2, lon: 121.45, address: null } },
    ],
    places: { origin: { lat: 31, lon: 121.5, address: 'No. 8 Dock Road, Minhang' }, destination: { lat: 31.3, lon: 121.4, address: null } },
    generatedAt: '2026-11-25T00:00:00.000Z',
  };
}

interface Call {
  url: string;
  headers: Record<string, string>;
}
let calls: Call[];
let answer: () => ShipmentReport | { status: number; errorcode: string; errormsg: string };
let mounted: Rendered | undefined;
const restore: (() => void)[] = [];

const json = (status: number, body: unknown) => ({ ok: status < 400, status, headers: new Headers({ 'Content-Type': 'application/json' }), json: async () => body });

beforeAll(() => {
  // The download saves the file through an object URL, which jsdom lacks.
  const url = URL as unknown as { createObjectURL?: unknown; revokeObjectURL?: unknown };
  const before = { create: url.createObjectURL, revoke: url.revokeObjectURL };
  url.createObjectURL = () => 'blob:x';
  url.revokeObjectURL = () => {};
  restore.push(() => {
    url.createObjectURL = before.create;
    url.revokeObjectURL = before.revoke;
  });
});
afterAll(() => restore.forEach((undo) => undo()));

beforeEach(async () => {
  await setEnglish();
  calls = [];
  answer = () => report();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      // The positions ask whether a geocoder is configured: none here (the addresses shown are the report's own).
      if (url.startsWith(GEOCODE_API.config)) return json(200, { isSuccess: 'Y', data: { enabled: false }, errorcode: null, errormsg: null });
      calls.push({ url, headers: init.headers as Record<string, string> });
      const format = new URL(url, 'http://x').searchParams.get('format');
      if (format === 'pdf' || format === 'xlsx')
        return {
          ok: true,
          status: 200,
          headers: new Headers({ 'Content-Type': format === 'pdf' ? 'application/pdf' : 'application/octet-stream', 'Content-Disposition': `attachment; filename="${CODE}.${format}"` }),
          blob: async () => new Blob(['file']),
        };
      const a = answer();
      if ('errorcode' in a) return json(a.status, { isSuccess: 'N', data: null, errorcode: a.errorcode, errormsg: a.errormsg });
      return json(200, { isSuccess: 'Y', data: a, errorcode: null, errormsg: null });
    }),
  );
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  await setEnglish();
});

async function mount() {
  mounted = render(
    <App>
      <ShipmentReportModal target={{ id: TASK_ID, code: CODE }} open onClose={() => {}} />
    </App>,
  );
  await settleUntil(() => !!byTestId(document, 'sr-body') || !!byTestId(document, 'sr-error'));
}

const text = (id: string) => byTestId(document, id)?.textContent ?? null;
const at = (ms: number) => dayjs(ms).format(DATETIME_FORMAT);

describe('shipment report dialog', () => {
  it('shows the temperature statistics with the MKT and the longest excursion', async () => {
    await mount();
    expect(calls[0]!.url).toBe(REPORT_API.shipment(TASK_ID));
    expect(text('sr-range')).toBe('2 ~ 8 °C');
    expect(text('sr-min')).toBe(`1.5 °C at ${at(T0 + 205 * MIN)}`);
    expect(text('sr-max')).toBe(`11.2 °C at ${at(T0 + 90 * MIN)}`);
    expect(text('sr-average')).toBe('5.6 °C');
    expect(text('sr-mkt')).toBe('6.1 °C');
    expect(text('sr-mkt-note')).toBe('activation energy 83.144 kJ/mol (USP <1160>)');
    expect(text('sr-out-of-range')).toBe('1 h 15 min 00 s');
    expect(text('sr-basis')).toBe('Every reading (240 readings), not a sampled record');
    expect(text('sr-longest')).toBe(`1 h 05 min 00 s above the range, ${at(LONGEST.start)} – ${at(LONGEST.end)}, peak 11.2 °C at ${at(LONGEST.peak.t)}`);
    expect(text('sr-excursions')).toBe('2');
    expect(text('sr-in-range')).toBe('67.4%');
    expect(text('sr-no-data')).toBe('10 min 00 s');
    expect(text('sr-distance')).toBe('48.3 km');
    expect(text('sr-period')).toContain('(4 h 00 min 00 s)');
    expect(text('sr-on-time')).toBe('Yes');
    expect(text('sr-humidity')).toBe('min 40.0 %, max 62.5 %, average 51.3 %');
    const level = byTestId(document, 'sr-alarm-level')!;
    expect(level.textContent).toBe('Urgent');
    expect(level.style.background).toBe('rgb(245, 34, 45)');
    const alarmRow = byTestId(document, 'sr-alarms')!.querySelector('tbody tr.ant-table-row')!;
    // Where it began: the coordinates (no geocoder here, so no address under them).
    expect([...alarmRow.querySelectorAll('td')].map((td) => td.textContent)).toEqual([at(Date.parse('2026-11-24T09:01:00.000Z')), 'Temperature high', 'Urgent', '11.2 °C', 'Cleared', '31.2000, 121.4500']);
    // The origin with the task's own address under its name and coordinates; the destination with its coordinates only.
    expect(byTestId(document, 'sr-body')!.textContent).toContain('Depot · 31.0000, 121.5000');
    expect(text('sr-origin-address')).toBe('No. 8 Dock Road, Minhang');
    expect(byTestId(document, 'sr-body')!.textContent).toContain('Hospital · 31.3000, 121.4000');
    expect(byTestId(document, 'sr-destination-address')).toBeNull();
  });

  it('asks for the PDF and the Excel file in the user language', async () => {
    await mount();
    click(byTestId(document, 'sr-pdf'));
    await settleUntil(() => calls.length === 2);
    const pdf = calls[1]!;
    expect(pdf.url).toBe(`${REPORT_API.shipment(TASK_ID)}?format=pdf`);
    expect(pdf.headers.language).toBe('en-US');
    expect(pdf.headers.Timezone).toBeTruthy();
    await settleUntil(() => !byTestId(document, 'sr-pdf')?.hasAttribute('disabled'));

    await i18next.changeLanguage('zh');
    await settle();
    expect(text('sr-mkt-note')).toBe('活化能 83.144 kJ/mol（USP <1160>）');
    expect(text('sr-out-of-range')).toBe('1小时15分00秒');
    expect(text('sr-basis')).toBe('全部读数（共 240 条），非采样记录');
    click(byTestId(document, 'sr-xlsx'));
    await settleUntil(() => calls.length === 3);
    expect(calls[2]!.url).toBe(`${REPORT_API.shipment(TASK_ID)}?format=xlsx`);
    expect(calls[2]!.headers.language).toBe('zh-CN');
  });

  it('says so when the logger sent no readings', async () => {
    answer = () => report({ count: 0, min: null, max: null, average: null, plainAverage: null, mkt: null, coveredS: 0, noDataS: 14400, inRangeS: 0, outOfRange: { totalS: 0, aboveS: 0, belowS: 0, longest: null }, excursions: [], inRangeShare: null });
    await mount();
    expect(byTestId(document, 'sr-no-readings')).not.toBeNull();
    expect(byTestId(document, 'sr-mkt')).toBeNull();
    expect(text('sr-no-data')).toBe('4 h 00 min 00 s');
  });

  it("shows the server's reason when the report cannot be made", async () => {
    answer = () => ({ status: 404, errorcode: 'NOT_FOUND_X', errormsg: 'The task does not exist' });
    await mount();
    expect(text('sr-error')).toBe('The task does not exist');
    expect(byTestId(document, 'sr-pdf')!.hasAttribute('disabled')).toBe(true);
  });
});
