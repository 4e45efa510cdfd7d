import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { TRANSPORT_API } from '@iotc/shared/transport';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request } from '../../../api/client.ts';
import { fakeApi, newWorld, template, writes, type FakeWorld } from '../test-fixtures.ts';
import TemplatesPage from './templates-page.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
  requestFile: vi.fn(),
}));
vi.mock('../components/place-map.tsx', () => ({ PlaceMap: () => <div /> }));
const requestMock = vi.mocked(request);

const FIRST = template(1);
const SECOND = template(2, { alarm: { levelId: null, temperature: false, humidity: false, door: false, yawM: null, stayTimeoutS: null, overspeedKmh: null, durationS: 60 }, humidityMin: null, humidityMax: null });

let world: FakeWorld;
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  sessionStorage.clear();
  requestMock.mockReset();
  world = newWorld([], [FIRST, SECOND]);
  fakeApi(requestMock, world);
});

afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

function Where() {
  const loc = useLocation();
  return <div data-testid="where">{`${loc.pathname}${loc.search}`}</div>;
}

async function mount() {
  mounted = render(
    <App>
      <MemoryRouter initialEntries={['/view/transport/templates']}>
        <Routes>
          <Route path="/view/transport/templates" element={<TemplatesPage />} />
          <Route path="/view/transport/tasks" element={<div data-testid="tasks-screen" />} />
        </Routes>
        <Where />
      </MemoryRouter>
    </App>,
  );
  await settleUntil(() => document.querySelectorAll('tbody tr.ant-table-row').length > 0);
}

const row = (id: string) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`)!;
const cell = (id: string, testId: string) => row(id).querySelector<HTMLElement>(`[data-testid=${testId}]`)!;

describe('transport templates', { timeout: 120_000 }, () => {
  it('lists the templates with their places, ranges, alarms and task counts', async () => {
    await mount();
    expect(byTestId(document, 'screen-title')!.textContent).toBe('Transport templates');
    expect(cell(FIRST.id, 'tt-template-cell-name').textContent).toBe('Shanghai run 1');
    expect(cell(FIRST.id, 'tt-template-cell-places').textContent).toBe('Pudong depot → Suzhou DC');
    expect(cell(FIRST.id, 'tt-template-cell-ranges').textContent).toBe('2 ~ 8 °C; 30 ~ 70 %');
    expect(cell(FIRST.id, 'tt-template-cell-alarm').textContent).toBe('Temperature, Humidity, Door opened on the way, Off route beyond 500 m, Stay timeout 30 min, Overspeed 90 km/h');
    expect(cell(SECOND.id, 'tt-template-cell-alarm').textContent).toBe('-');
    expect(cell(FIRST.id, 'tt-template-cell-tasks').textContent).toBe('3');
  });

  it('"Create task" opens the tasks screen asking for the template', async () => {
    await mount();
    click(row(SECOND.id).querySelector('[data-testid=tt-template-create-task]'));
    await settle();
    expect(byTestId(document, 'tasks-screen')).not.toBeNull();
    expect(byTestId(document, 'where')!.textContent).toBe(`/view/transport/tasks?templateId=${SECOND.id}`);
  });

  it('deletes a template only after a confirmation', async () => {
    await mount();
    click(row(FIRST.id).querySelector('[data-testid=tt-template-delete]'));
    await settle();
    expect(writes(world)).toEqual([]);
    const dialog = document.body.querySelector('.confirm-dialog')!;
    expect(dialog.textContent).toContain('Delete template Shanghai run 1?');
    const ok = [...dialog.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.replace(/\s/g, '') === 'Delete')!;
    click(ok);
    await settle(10);
    expect(writes(world).map((c) => [c.path, c.opts.method])).toEqual([[`${TRANSPORT_API.templates}/${FIRST.id}`, 'DELETE']]);
  });

  it('hides every change from a reader', async () => {
    world.permissions = ['transport:read'];
    await mount();
    expect(byTestId(document, 'tt-template-new')).toBeNull();
    expect(row(FIRST.id).querySelector('[data-testid=tt-template-create-task]')).toBeNull();
  });
});
