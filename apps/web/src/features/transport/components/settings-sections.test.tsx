import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { App, Form, type FormInstance } from 'antd';
import { errorText } from '@iotc/shared/errors';
import { ALARM_API } from '@iotc/shared/alarm';
import { LIVE_API } from '@iotc/shared/live';
import { TRANSPORT_API, type RoadRoute } from '@iotc/shared/transport';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request, type RequestOptions } from '../../../api/client.ts';
import type { PlaceMapProps } from './place-map.tsx';
import { AlarmSection, PlacesSection } from './settings-sections.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
// The map stands in as a button: a click picks one point; it shows the route it was given.
vi.mock('./place-map.tsx', () => ({
  PlaceMap: (p: PlaceMapProps) => (
    <button type="button" data-testid="fake-map" data-route={JSON.stringify(p.route)} data-points={String(p.routePoints ?? true)} onClick={() => p.onPick?.(31.1, 121.2)} />
  ),
}));
const requestMock = vi.mocked(request);

const ORIGIN = { name: 'Depot', address: '', lat: 31.23, lon: 121.47, radiusM: 500 };
const DESTINATION = { name: 'Store', address: '', lat: 30.27, lon: 120.15, radiusM: 800 };
const DRAWN: [number, number][] = [
  [31.0, 121.0],
  [30.6, 120.5],
];
const ROAD: RoadRoute = {
  route: [
    [31.23, 121.47],
    [31.0, 121.01],
    [30.8, 120.7],
    [30.6, 120.51],
    [30.27, 120.15],
  ],
  distanceM: 182_345,
  durationS: 9_000,
};

let mounted: Rendered | undefined;
let form: FormInstance;
let calls: { path: string; opts: RequestOptions }[];

function fakeApi(enabled: boolean, road: () => Promise<RoadRoute>) {
  requestMock.mockImplementation(async (path: string, opts: RequestOptions = {}) => {
    calls.push({ path, opts });
    if (path === LIVE_API.mapConfig) return { tileUrl: null, tileSubdomains: null, tileAttribution: null, tileCrs: 'wgs84', tileMaxZoom: 18 };
    if (path === TRANSPORT_API.routingConfig) return { enabled };
    if (path === TRANSPORT_API.roadRoute && opts.method === 'POST') return road();
    throw new Error(`unexpected call ${opts.method ?? 'GET'} ${path}`);
  });
}

function Harness() {
  const [f] = Form.useForm();
  form = f;
  return (
    <App>
      <Form form={f} initialValues={{ origin: ORIGIN, destination: DESTINATION, routeSource: 'drawn', route: DRAWN }}>
        <PlacesSection form={f} formName="tt" />
      </Form>
    </App>
  );
}

async function mount() {
  mounted = render(<Harness />);
  await settleUntil(() => calls.some((c) => c.path === TRANSPORT_API.routingConfig));
  await settle();
}

const roadButton = () => byTestId<HTMLButtonElement>(document, 'tt-route-road')!;
const mapRoute = () => JSON.parse(byTestId(document, 'fake-map')!.dataset.route!) as [number, number][];

beforeEach(async () => {
  await setEnglish();
  requestMock.mockReset();
  calls = [];
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

describe('the road route of the settings', { timeout: 60_000 }, () => {
  it('asks the road route from the origin through the drawn points to the destination and fills the route', async () => {
    let answer!: (r: RoadRoute) => void;
    fakeApi(true, () => new Promise((resolve) => (answer = resolve)));
    await mount();
    expect(roadButton().disabled).toBe(false);
    expect(roadButton().textContent).toContain('Road route');

    click(roadButton());
    await settle();
    const asked = calls.filter((c) => c.path === TRANSPORT_API.roadRoute);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.opts.body).toEqual({ points: [[ORIGIN.lat, ORIGIN.lon], ...DRAWN, [DESTINATION.lat, DESTINATION.lon]] });
    expect(roadButton().classList.contains('ant-btn-loading')).toBe(true);

    await act(async () => answer(ROAD));
    await settle();
    expect(roadButton().classList.contains('ant-btn-loading')).toBe(false);
    expect(form.getFieldValue('route')).toEqual(ROAD.route);
    expect(form.getFieldValue('routeSource')).toBe('routing');
    expect(mapRoute()).toEqual(ROAD.route);
    expect(byTestId(document, 'fake-map')!.dataset.points).toBe('false');
    expect(byTestId(document, 'tt-route-count')!.textContent).toBe('Points: 5');
    expect(byTestId(document, 'tt-route-road-info')!.textContent).toBe('Road route: 182.3 km, about 150 min');

    // Drawing again makes it a drawn route.
    const target = [...document.querySelectorAll<HTMLElement>('[data-testid=tt-pick-target] .ant-segmented-item')];
    click(target.find((x) => x.textContent === 'Route points')!.querySelector('input'));
    await settle();
    click(byTestId(document, 'fake-map'));
    await settle();
    expect(form.getFieldValue('routeSource')).toBe('drawn');
    expect(form.getFieldValue('route')).toEqual([...ROAD.route, [31.1, 121.2]]);
    expect(byTestId(document, 'tt-route-road-info')).toBeNull();
    expect(byTestId(document, 'fake-map')!.dataset.points).toBe('true');
  });

  it("shows the server's message when no road route is found and keeps the drawn route", async () => {
    fakeApi(true, () => Promise.reject(new ApiError(502, 'ROUTING_FAILED', errorText('ROUTING_FAILED', 'en'))));
    await mount();
    click(roadButton());
    await settle();
    expect(byTestId(document, 'tt-route-road-error')!.textContent).toBe(errorText('ROUTING_FAILED', 'en'));
    expect(form.getFieldValue('route')).toEqual(DRAWN);
    expect(form.getFieldValue('routeSource')).toBe('drawn');
  });

  it('is disabled, saying why, without a routing service', async () => {
    fakeApi(false, () => Promise.reject(new Error('not asked')));
    await mount();
    expect(roadButton().disabled).toBe(true);
    act(() => {
      byTestId(document, 'tt-route-road-wrap')!.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    });
    await settleUntil(() => !!document.querySelector('.ant-tooltip'), 3000);
    expect(document.querySelector('.ant-tooltip')?.textContent).toBe('No routing service is configured');
    expect(calls.some((c) => c.path === TRANSPORT_API.roadRoute)).toBe(false);
  });
});

describe("the task's alarm level", { timeout: 60_000 }, () => {
  const level = (id: string, orgId: string, nameEn: string) => ({ id, orgId, code: id, nameZh: nameEn, nameEn, color: '#f5222d', priority: 1, builtIn: true, inUse: false });
  const LEVELS = [level('a-urgent', 'org-a', 'Urgent A'), level('a-minor', 'org-a', 'Minor A'), level('p-urgent', 'org-p', 'Urgent P')];

  function LevelHarness({ orgId }: { orgId: string }) {
    const [f] = Form.useForm();
    form = f;
    return (
      <App>
        <Form form={f} initialValues={{ alarm: { levelId: null } }}>
          <AlarmSection form={f} formName="tt" orgId={orgId} />
        </Form>
      </App>
    );
  }

  const options = () => [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].map((o) => o.textContent);

  it("offers only the levels of the form's organisation, and drops a chosen one when the organisation changes", async () => {
    requestMock.mockImplementation(async (path: string) => {
      if (path.startsWith(ALARM_API.levels)) return { rows: LEVELS, total: LEVELS.length, page: 1, size: 100 };
      throw new Error(`unexpected call ${path}`);
    });
    mounted = render(<LevelHarness orgId="org-a" />);
    await settleUntil(() => requestMock.mock.calls.some(([p]) => String(p).startsWith(ALARM_API.levels)));
    await settle();
    const select = byTestId(document, 'tt-alarm-level')!.closest('.ant-select') ?? byTestId(document, 'tt-alarm-level')!;
    act(() => {
      select.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    await settleUntil(() => options().length > 0);
    // Another organisation's levels (the platform's 'Urgent P') are not offered: no two 'Urgent'.
    expect(options()).toEqual(['Urgent A', 'Minor A']);
    click([...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find((o) => o.textContent === 'Minor A'));
    await settle();
    expect(form.getFieldValue(['alarm', 'levelId'])).toBe('a-minor');
    mounted.rerender(<LevelHarness orgId="org-p" />);
    await settleUntil(() => form.getFieldValue(['alarm', 'levelId']) === null);
  });
});
