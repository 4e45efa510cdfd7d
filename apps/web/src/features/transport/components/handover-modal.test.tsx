// The hand-over dialog against a mocked fetch: it refuses a blank receiver without calling the
// server, sends the body the shared schema takes, shows the server's refusal and stays open; and
// the story shows a hand-over with its details in both languages.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { act } from 'react';
import { App } from 'antd';
import { errorText } from '@iotc/shared/errors';
import type { TaskEventRow } from '@iotc/shared/transport';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, errorOf, settle, settleUntil, type } from '../../../test/form.ts';
import { HandoverModal } from './handover-modal.tsx';
import { TaskTimeline } from './task-timeline.tsx';

const TASK = { id: '00000000-0000-4000-8000-000000000201', code: 'TT-20261124-0007', driverName: 'Wang' };

interface Call {
  url: string;
  method: string;
  body: unknown;
}
let calls: Call[];
let answer: () => { status: number; body: unknown };
let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
  calls = [];
  answer = () => ({ status: 200, body: { isSuccess: 'Y', data: { id: TASK.id, code: TASK.code }, errorcode: null, errormsg: null } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method ?? 'GET', body: init.body ? JSON.parse(init.body as string) : null });
      const a = answer();
      return { ok: a.status < 400, status: a.status, headers: new Headers({ 'Content-Type': 'application/json' }), json: async () => a.body };
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

function mount(onClose = () => {}) {
  mounted = render(
    <App>
      <HandoverModal task={TASK} onClose={onClose} />
    </App>,
  );
}

const submit = async () => {
  click(byTestId(document, 'tt-handover-submit'));
  await settle();
};

describe('hand-over dialog', () => {
  it('offers the driver as the giver and refuses a blank receiver without calling the server', async () => {
    mount();
    await settle();
    expect((document.querySelector('#tt-handover-from') as HTMLInputElement).value).toBe('Wang');
    type(document, 'tt-handover-to', '   ');
    await submit();
    await settleUntil(() => errorOf(document, 'tt-handover-to') !== '');
    expect(errorOf(document, 'tt-handover-to')).toBe(errorText('TASK_HANDOVER_PARTY_REQUIRED', 'en'));
    expect(calls).toEqual([]);
  });

  it('sends the hand-over and closes', async () => {
    const onClose = vi.fn();
    mount(onClose);
    await settle();
    type(document, 'tt-handover-to', '  Hangzhou Store  ');
    type(document, 'tt-handover-place', 'Dock 3');
    type(document, 'tt-handover-seals', 'S-001,');
    type(document, 'tt-handover-seals', 'S-002,');
    type(document, 'tt-handover-temperature', '4.5');
    click(document.querySelector('#tt-handover-signed'));
    await submit();
    await settleUntil(() => onClose.mock.calls.length > 0);
    expect(calls).toEqual([
      {
        url: `/api/iot/v2/transport-tasks/${TASK.id}/handover`,
        method: 'POST',
        body: { from: 'Wang', to: 'Hangzhou Store', place: 'Dock 3', seals: ['S-001', 'S-002'], temperature: 4.5, signed: true, note: '' },
      },
    ]);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("shows the server's refusal and stays open", async () => {
    answer = () => ({ status: 409, body: { isSuccess: 'N', data: null, errorcode: 'TASK_HANDOVER_STATUS', errormsg: 'x' } });
    const onClose = vi.fn();
    mount(onClose);
    await settle();
    type(document, 'tt-handover-to', 'Receiver');
    await submit();
    await settleUntil(() => !!byTestId(document, 'tt-handover-error'));
    expect(byTestId(document, 'tt-handover-error')!.textContent).toContain(errorText('TASK_HANDOVER_STATUS', 'en'));
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('the story', () => {
  it('shows a hand-over with its details in both languages', async () => {
    const event: TaskEventRow = {
      id: 9,
      at: '2026-11-24T06:00:00.000Z',
      kind: 'handover',
      actor: 'demo',
      detail: { from: 'Wang', to: 'Hangzhou Store', place: 'Dock 3', seals: ['S-001', 'S-002'], temperature: 4.5, signed: true, note: 'intact' },
    };
    mounted = render(<TaskTimeline events={[event]} pending={false} failed={false} />);
    await settle();
    const text = (id: string) => byTestId(document, id)?.textContent;
    expect(document.querySelector('[data-kind="handover"] strong')?.textContent).toBe('Handed over');
    expect(text('tt-event-handover-parties')).toBe('From Wang to Hangzhou Store');
    expect(text('tt-event-handover-place')).toBe('Place: Dock 3');
    expect(text('tt-event-handover-seals')).toBe('Seals: S-001, S-002');
    expect(text('tt-event-handover-temperature')).toBe('Temperature: 4.5 °C');
    expect(text('tt-event-handover-signed')).toBe('Delivery note signed');
    expect(text('tt-event-note')).toBe('Note: intact');
    await act(() => i18next.changeLanguage('zh'));
    await settle();
    expect(document.querySelector('[data-kind="handover"] strong')?.textContent).toBe('交接');
    expect(text('tt-event-handover-parties')).toBe('由 Wang 交给 Hangzhou Store');
    expect(text('tt-event-handover-signed')).toBe('已签收交货单');
  });
});
