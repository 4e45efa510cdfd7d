import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { render, setEnglish, type Rendered } from '../test/dom.tsx';
import { useRemoteOptions, type RemoteFetcher, type RemoteOption } from './remote-select.tsx';

let mounted: Rendered | undefined;
beforeAll(setEnglish);
afterEach(() => {
  vi.useRealTimers();
  mounted?.unmount();
  mounted = undefined;
});

describe('remote search', () => {
  it('debounces 300 ms, aborts the request in flight and never shows a stale answer', async () => {
    vi.useFakeTimers();
    const calls: { search: string; signal: AbortSignal; resolve: (o: RemoteOption[]) => void }[] = [];
    const fetcher: RemoteFetcher = (search, signal) =>
      new Promise((resolve, reject) => {
        calls.push({ search, signal, resolve });
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    let state: ReturnType<typeof useRemoteOptions> | undefined;
    function Probe() {
      state = useRemoteOptions(fetcher);
      return null;
    }
    mounted = render(<Probe />);

    act(() => state!.search('t'));
    act(() => vi.advanceTimersByTime(100));
    act(() => state!.search('tr'));
    act(() => vi.advanceTimersByTime(299));
    expect(calls).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    expect(calls.map((c) => c.search)).toEqual(['tr']);
    expect(state!.loading).toBe(true);

    act(() => state!.search('truck'));
    act(() => vi.advanceTimersByTime(300));
    expect(calls.map((c) => c.search)).toEqual(['tr', 'truck']);
    expect(calls[0]!.signal.aborted).toBe(true);

    // The newer answer arrives first, the old one (if a server ignored the abort) later.
    await act(async () => calls[1]!.resolve([{ value: '2', label: 'Truck 2' }]));
    await act(async () => calls[0]!.resolve([{ value: '1', label: 'Old' }]));
    expect(state!.options).toEqual([{ value: '2', label: 'Truck 2' }]);
    expect(state!.loading).toBe(false);
  });
});
