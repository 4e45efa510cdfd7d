import { afterEach, describe, expect, it, vi } from 'vitest';
import { StrictMode } from 'react';
import { render, type Rendered } from '../../test/dom.tsx';
import { EChart } from './echart.tsx';

// ECharts draws on a canvas jsdom does not have: the instance is a recording fake.
const made: { el: HTMLElement; setOption: ReturnType<typeof vi.fn>; resize: ReturnType<typeof vi.fn>; dispose: ReturnType<typeof vi.fn>; group: string; disposed: boolean }[] = [];
const connect = vi.fn();
vi.mock('echarts/core', () => ({
  use: vi.fn(),
  connect: (g: string) => connect(g),
  init: (el: HTMLElement) => {
    const chart = {
      el,
      group: '',
      disposed: false,
      setOption: vi.fn(),
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
});
