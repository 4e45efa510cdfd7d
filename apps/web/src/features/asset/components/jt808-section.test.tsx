// The JT/T 808 section of a device's drawer: a terminal that never registered shows its empty
// states; one that reported shows its registration, connection and frames (raw hex copied by the
// button, the authentication frame without its bytes; a frame on one line that opens to its
// indented summary and whole hex), paged by the server, in English and Chinese.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from 'antd';
import { JT808_API, type Jt808Terminal } from '@iotc/shared/jt808';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle, settleUntil } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { request, type RequestOptions } from '../../../api/client.ts';
import { copyText } from '../../../lib/clipboard.ts';
import i18n from '../../../app/i18n.ts';
import { Jt808Section } from './jt808-section.tsx';

vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
vi.mock('../../../lib/clipboard.ts', () => ({ copyText: vi.fn(async () => true) }));
const requestMock = vi.mocked(request);

const HEX = '7e0200001c0139123400010001000000000000000301dc6f2807385d31000c01a9005a2611210800007e';
const EMPTY: Jt808Terminal = { deviceId: '013912340001', registration: null, connection: null, frames: { rows: [], total: 0, page: 1, size: 10 } };
const FULL: Jt808Terminal = {
  deviceId: '013912340001',
  registration: { manufacturer: 'ACME', model: 'GT-808', terminalId: 'T000001', province: 31, city: 100, plateColour: 1, plate: '沪A12345', edition: 2013, registeredAt: '2026-11-21T08:00:00.000Z', hasCode: true },
  connection: { connected: true, remoteAddress: '10.0.0.7', node: 'node-1', connectedAt: '2026-11-21T08:00:01.000Z', lastFrameAt: '2026-11-21T08:00:02.000Z', disconnectedAt: null },
  frames: {
    rows: [
      { id: 3, at: '2026-11-21T08:00:02.000Z', direction: 'in', messageId: '0x0200', serial: 2, summary: { kind: 'location', location: { latitude: 31.2304 } }, hex: HEX },
      { id: 1, at: '2026-11-21T08:00:01.000Z', direction: 'in', messageId: '0x0102', serial: 1, summary: { kind: 'authenticate', auth: { code: '***' } }, hex: '' },
    ],
    total: 12,
    page: 1,
    size: 10,
  },
};

let mounted: Rendered | undefined;
beforeEach(async () => {
  await setEnglish();
  requestMock.mockReset();
  vi.mocked(copyText).mockClear();
});
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

const show = (answer: (opts: RequestOptions) => Jt808Terminal) => {
  requestMock.mockImplementation(async (path: string, opts: RequestOptions = {}) => {
    if (path === JT808_API.terminal('d1')) return answer(opts);
    throw new Error(`unexpected call ${path}`);
  });
  mounted = render(
    <App>
      <Jt808Section deviceRef="d1" />
    </App>,
  );
};

describe('the JT/T 808 terminal section', () => {
  it('shows the empty states of a terminal that never registered', async () => {
    show(() => EMPTY);
    await settleUntil(() => !!byTestId(document.body, 'jt808-not-registered'));
    expect(byTestId(document.body, 'jt808-not-registered')!.textContent).toContain('The terminal has not registered yet');
    expect(byTestId(document.body, 'jt808-never-connected')!.textContent).toContain('The terminal has not signed in yet');
    expect(byTestId(document.body, 'jt808-frames')!.textContent).toContain('No frames yet');
  });

  it('shows the registration, the connection and the frames, copies the hex, and asks the server for the next page', async () => {
    show((opts) => ({ ...FULL, frames: { ...FULL.frames, page: Number(opts.query?.page ?? 1) } }));
    await settleUntil(() => !!byTestId(document.body, 'jt808-registration'));
    const reg = byTestId(document.body, 'jt808-registration')!.textContent!;
    for (const text of ['ACME', 'GT-808', 'T000001', '沪A12345', 'Blue', '2013']) expect(reg).toContain(text);
    expect(byTestId(document.body, 'jt808-connected')!.dataset.connected).toBe('true');
    expect(byTestId(document.body, 'jt808-connection')!.textContent).toContain('10.0.0.7');
    expect(byTestId(document.body, 'jt808-frame-hex')!.textContent).toBe(HEX);
    expect(byTestId(document.body, 'jt808-frames')!.textContent).toContain('Not kept (carries the authentication code)');
    click(byTestId(document.body, 'jt808-copy-hex'));
    await settle();
    expect(copyText).toHaveBeenCalledWith(HEX);
    // A frame is one line in the list; opened, its summary is indented JSON beside the whole hex.
    expect(byTestId(document.body, 'jt808-frame-summary')!.textContent).toBe('{"kind":"location","location":{"latitude":31.2304}}');
    expect(byTestId(document.body, 'jt808-frame-detail')).toBeNull();
    click(document.querySelector<HTMLElement>('.jt808-frames .ant-table-row'));
    await settleUntil(() => !!byTestId(document.body, 'jt808-frame-detail'));
    expect(byTestId(document.body, 'jt808-frame-json')!.textContent).toBe(JSON.stringify(FULL.frames.rows[0]!.summary, null, 2));
    expect(byTestId(document.body, 'jt808-frame-hex-full')!.textContent).toBe(HEX);
    click(document.querySelector<HTMLElement>('.jt808-frames .ant-pagination-item-2'));
    await settleUntil(() => requestMock.mock.calls.some(([, o]) => o?.query?.page === 2));
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    show(() => FULL);
    await settleUntil(() => !!byTestId(document.body, 'jt808-registration'));
    expect(byTestId(document.body, 'jt808-section')!.textContent).toContain('JT/T 808 终端');
    expect(byTestId(document.body, 'jt808-registration')!.textContent).toContain('蓝色');
    expect(byTestId(document.body, 'jt808-connected')!.textContent).toBe('在线');
    expect(byTestId(document.body, 'jt808-frames')!.textContent).toContain('上行');
  });
});
