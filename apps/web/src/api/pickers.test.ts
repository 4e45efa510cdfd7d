// The shared pickers: one label per kind of thing, and searches that send what was typed
// (trimmed), the page size and a picker's own filters, and stop when the picker aborts.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setEnglish } from '../test/dom.tsx';
import { fetchAssetLabel, PICKER_SIZE, assetLabel, deviceLabel, searchAssets, searchDeviceRows, searchDevices, searchTasks, taskLabel } from './pickers.ts';

beforeAll(setEnglish);
afterEach(() => vi.unstubAllGlobals());

const page = (rows: unknown[]) => ({ isSuccess: 'Y', code: 0, data: { rows, total: rows.length, page: 1, size: PICKER_SIZE }, errormsg: null });
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers every call with `answer(url)` and records the URLs asked. */
function serve(answer: (url: URL) => Response) {
  const urls: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://console.test');
      urls.push(url);
      return Promise.resolve(answer(url));
    }),
  );
  return urls;
}

describe('labels', () => {
  it('names a device by its name with its id, or by the id alone', () => {
    expect(deviceLabel({ name: 'Cold room 3', deviceId: 'TH-0042' })).toBe('Cold room 3 (TH-0042)');
    expect(deviceLabel({ name: '', deviceId: 'TH-0042' })).toBe('TH-0042');
    expect(deviceLabel({ name: 'TH-0042', deviceId: 'TH-0042' })).toBe('TH-0042');
  });

  it('names an asset by its code and name, or by the code alone', () => {
    expect(assetLabel({ code: 'V-007', name: 'Truck 7' })).toBe('V-007 · Truck 7');
    expect(assetLabel({ code: 'V-007', name: '' })).toBe('V-007');
    expect(assetLabel({ code: 'V-007', name: 'V-007' })).toBe('V-007');
  });

  it('names a task by its code and goods, or by the code alone', () => {
    expect(taskLabel({ code: 'T-0001', goodsName: 'Vaccines' })).toBe('T-0001 · Vaccines');
    expect(taskLabel({ code: 'T-0001', goodsName: '' })).toBe('T-0001');
  });
});

describe('searches', () => {
  it('asks for the first matches of the trimmed keyword and labels them', async () => {
    const urls = serve(() => json(page([{ id: 'd1', name: 'Cold room 3', deviceId: 'TH-0042', protocol: 'jt808' }])));
    const options = await searchDevices('  cold ', new AbortController().signal);
    expect(options).toEqual([{ value: 'd1', label: 'Cold room 3 (TH-0042)' }]);
    expect(urls[0]!.pathname).toBe('/api/iot/v2/devices');
    expect(urls[0]!.searchParams.get('keyword')).toBe('cold');
    expect(urls[0]!.searchParams.get('size')).toBe(String(PICKER_SIZE));
    expect(urls[0]!.searchParams.get('page')).toBe('1');
  });

  it('sends no keyword for an empty search, and a picker’s own filters', async () => {
    const urls = serve(() => json(page([{ id: 't1', code: 'T-0001', goodsName: 'Vaccines' }])));
    expect(await searchTasks('  ', new AbortController().signal, { status: 'in_transit' })).toEqual([{ value: 't1', label: 'T-0001 · Vaccines' }]);
    expect(urls[0]!.pathname).toBe('/api/iot/v2/transport-tasks');
    expect(urls[0]!.searchParams.has('keyword')).toBe(false);
    expect(urls[0]!.searchParams.get('status')).toBe('in_transit');
  });

  it('searches the assets of the kind asked', async () => {
    const urls = serve(() => json(page([{ id: 'a1', code: 'V-007', name: 'Truck 7' }])));
    expect(await searchAssets('vehicle', 'truck', new AbortController().signal)).toEqual([{ value: 'a1', label: 'V-007 · Truck 7' }]);
    expect(urls[0]!.pathname).toBe('/api/iot/v2/vehicles');
    expect(urls[0]!.searchParams.get('keyword')).toBe('truck');
  });

  it('gives the rows to a picker that needs more than the label', async () => {
    serve(() => json(page([{ id: 'd1', name: 'Cold room 3', deviceId: 'TH-0042', protocol: 'jt808' }])));
    expect((await searchDeviceRows('', new AbortController().signal)).map((d) => d.protocol)).toEqual(['jt808']);
  });

  it('stops the request when the picker aborts it (a newer search replaced it)', async () => {
    let seen: AbortSignal | undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_input: RequestInfo | URL, init?: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            seen = init?.signal ?? undefined;
            seen?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    const controller = new AbortController();
    const call = searchDevices('cold', controller.signal);
    await vi.waitFor(() => expect(seen).toBeDefined());
    expect(seen!.aborted).toBe(false);
    controller.abort();
    await expect(call).rejects.toThrow();
    expect(seen!.aborted).toBe(true);
  });
});

describe('labels of stored ids', () => {
  it('finds an asset by asking each kind in turn', async () => {
    const urls = serve((url) => (url.pathname === '/api/iot/v2/containers/a9' ? json({ isSuccess: 'Y', code: 0, data: { id: 'a9', code: 'C-9', name: 'Box 9' }, errormsg: null }) : json({ isSuccess: 'N', code: 404, data: null, errorcode: 'NOT_FOUND', errormsg: 'not found' }, 404)));
    expect(await fetchAssetLabel('a9', ['vehicle', 'container'], new AbortController().signal)).toEqual({ label: 'C-9 · Box 9', kind: 'container' });
    expect(urls.map((u) => u.pathname)).toEqual(['/api/iot/v2/vehicles/a9', '/api/iot/v2/containers/a9']);
    expect(await fetchAssetLabel('zz', ['vehicle'], new AbortController().signal)).toBeNull();
  });
});
