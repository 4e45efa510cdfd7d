import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, StrictMode } from 'react';
import { render, type Rendered } from '../../test/dom.tsx';
import { setTheme } from '../../lib/theme.ts';
import { EChart } from './echart.tsx';

// ECharts draws on a canvas jsdom does not have: the instance is a recording fake.
const made: { el: HTMLElement; theme: string | undefined; setOption: ReturnType<typeof vi.fn>; setTheme: ReturnType<typeof vi.fn>; resize: ReturnType<typeof vi.fn>; dispose: ReturnType<typeof vi.fn>; group: string; disposed: boolean }[] = [];
const connect = vi.fn();
vi.mock('echarts/core', () => ({
  use: vi.fn(),
  connect: (g: string) => connect(g),
  init: (el: HTMLElement, theme?: string) => {
    const chart = {
      el,
      theme,
      group: '',
      disposed: false,
      setOption: vi.fn(),
      setTheme: vi.fn(),
      resize: vi.fn(),
      dispose: vi.fn(() => {
        chart.disposed = true;
      }),
      isDisposed: () => chart.disposed,
    };
    made.push(chart);
    return chart;
  },
}));

let mounted: Rendered | undefined;
afterEach(() => {
  setTheme('default-theme');
  mounted?.unmount();
  mounted = undefined;
  made.length = 0;
  connect.mockReset();
});

describe('EChart', () => {
  it('makes one instance, follows the option, joins its group and is disposed on unmount', () => {
    const a = { series: [{ type: 'line' as const, data: [1, 2] }] };
    const b = { series: [{ type: 'line' as const, data: [3] }] };
    mounted = render(
      <StrictMode>
        <EChart option={a} group="g1" height={200} data-testid="chart" />
      </StrictMode>,
    );
    // StrictMode mounts twice: the first instance is gone, the second lives.
    const live = made.filter((c) => !c.disposed);
    expect(live).toHaveLength(1);
    const chart = live[0]!;
    expect(chart.el.getAttribute('data-testid')).toBe('chart');
    expect(chart.el.style.height).toBe('200px');
    expect(chart.group).toBe('g1');
    expect(connect).toHaveBeenCalledWith('g1');
    expect(chart.setOption).toHaveBeenLastCalledWith(a, { notMerge: true, lazyUpdate: true });

    mounted.rerender(
      <StrictMode>
        <EChart option={b} group="g1" height={200} data-testid="chart" />
      </StrictMode>,
    );
    expect(chart.setOption).toHaveBeenLastCalledWith(b, { notMerge: true, lazyUpdate: true });

    mounted.unmount();
    mounted = undefined;
    expect(made.every((c) => c.disposed)).toBe(true);
  });

  it('draws in ECharts dark theme on a transparent background in the dark theme, and follows a switch', () => {
    const a = { series: [{ type: 'line' as const, data: [1, 2] }] };
    setTheme('dark-theme');
    mounted = render(<EChart option={a} />);
    const chart = made.find((c) => !c.disposed)!;
    expect(chart.theme).toBe('dark');
    expect(chart.setOption).toHaveBeenLastCalledWith({ backgroundColor: 'transparent', ...a }, { notMerge: true, lazyUpdate: true });

    act(() => setTheme('default-theme'));
    expect(chart.setTheme).toHaveBeenLastCalledWith('default');
    expect(chart.setOption).toHaveBeenLastCalledWith(a, { notMerge: true, lazyUpdate: true });
    act(() => setTheme('dark-theme'));
    expect(chart.setTheme).toHaveBeenLastCalledWith('dark');
    expect(made.filter((c) => !c.disposed)).toHaveLength(1);
  });

  it('takes its tooltip when the pointer first comes over a chart, and shows it where the pointer is', async () => {
    const tooltip = { trigger: 'axis' as const };
    const a = { tooltip, series: [{ type: 'line' as const, data: [1, 2] }] };
    const b = { tooltip, series: [{ type: 'bar' as const, data: [3] }] };
    mounted = render(
      <>
        <EChart option={a} data-testid="a" />
        <EChart option={b} data-testid="b" />
      </>,
    );
    const [first, second] = made;
    // Drawn without it: nothing asked for the tooltip's piece yet.
    expect(first!.setOption).toHaveBeenCalledTimes(1);
    const box = first!.el;
    const moves: { x: number; y: number }[] = [];
    box.addEventListener('mousemove', (e) => moves.push({ x: e.clientX, y: e.clientY }));
    await act(async () => {
      box.dispatchEvent(new MouseEvent('pointerenter', { clientX: 110, clientY: 70 }));
      await vi.waitFor(() => expect(moves).toHaveLength(1));
    });
    // Every chart on screen takes its tooltip (merged, so a zoom stays); the pointed one gets the
    // pointer's move again, which ECharts answers with the tip.
    expect(first!.setOption).toHaveBeenLastCalledWith({ tooltip, axisPointer: undefined });
    expect(second!.setOption).toHaveBeenLastCalledWith({ tooltip, axisPointer: undefined });
    expect(moves).toEqual([{ x: 110, y: 70 }]);
  });
});
