// The menu asked for at boot (prefetchMenu): silently, and a failure is left to the frame's own
// call, which reports it with the frame's other first calls.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryObserver } from '@tanstack/react-query';
import type { MenuItem } from '@iotc/shared/auth';
import { API } from '@iotc/shared/auth-api';
import { setEnglish } from '../test/dom.tsx';
import { queryClient } from '../lib/query-client.ts';
import type * as client from './client.ts';
import { ApiError, request } from './client.ts';
import { menuQueryOptions, prefetchMenu } from './load-menu.ts';

vi.mock('./client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

const MENU: MenuItem[] = [{ id: 'm1', pid: null, name: 'Monitoring', url: '/view/deviceManage/realTimeMonitoring', icon: null, active: true, children: [] }];
const KEY = menuQueryOptions('en', undefined).queryKey;
const menuCalls = () => requestMock.mock.calls.filter(([path]) => path === API.loadMenu).map(([, opts]) => ({ silent: !!opts?.silent }));

beforeEach(async () => {
  await setEnglish();
  queryClient.clear();
  requestMock.mockReset();
});

afterEach(() => {
  queryClient.clear();
});

describe('the menu asked for at boot', () => {
  it('is in the cache for the frame, asked for once and silently', async () => {
    requestMock.mockResolvedValue(MENU);
    await prefetchMenu(undefined);
    expect(queryClient.getQueryData(KEY)).toEqual(MENU);
    expect(menuCalls()).toEqual([{ silent: true }]);
    // The frame's query finds it: no second call.
    const observer = new QueryObserver(queryClient, menuQueryOptions('en', undefined));
    const unsubscribe = observer.subscribe(() => undefined);
    expect(observer.getCurrentResult().data).toEqual(MENU);
    unsubscribe();
    expect(menuCalls()).toHaveLength(1);
  });

  it('leaves a failure to the frame, whose own call asks again and may report it', async () => {
    requestMock.mockRejectedValueOnce(new ApiError(0, 'NETWORK', 'Network error'));
    await prefetchMenu(undefined);
    // No error is kept for the frame to show unreported.
    expect(queryClient.getQueryState(KEY)?.status).toBe('pending');
    requestMock.mockResolvedValue(MENU);
    const observer = new QueryObserver(queryClient, menuQueryOptions('en', undefined));
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(MENU));
    unsubscribe();
    expect(menuCalls()).toEqual([{ silent: true }, { silent: false }]);
  });

  it('asks again, not silently, for a frame that was already waiting on it when it failed', async () => {
    let fail: (e: Error) => void = () => undefined;
    requestMock.mockImplementationOnce(() => new Promise((_, reject) => (fail = reject)));
    const prefetched = prefetchMenu(undefined);
    const observer = new QueryObserver(queryClient, menuQueryOptions('en', undefined));
    const unsubscribe = observer.subscribe(() => undefined);
    requestMock.mockResolvedValue(MENU);
    fail(new ApiError(0, 'NETWORK', 'Network error'));
    await prefetched;
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toEqual(MENU));
    unsubscribe();
    expect(menuCalls()).toEqual([{ silent: true }, { silent: false }]);
  });
});
