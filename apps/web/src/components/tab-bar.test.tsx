import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { click, render, setEnglish, type Rendered } from '../test/dom.tsx';
import { TabBar } from './tab-bar.tsx';

let mounted: Rendered | undefined;
beforeAll(setEnglish);
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
});

describe('TabBar', { timeout: 20_000 }, () => {
  it('opens the item flagged active, names tabs through i18n and reports a change', () => {
    const onChange = vi.fn();
    mounted = render(
      <TabBar
        items={[
          { key: 'a', name: 'layout.home' },
          { key: 'b', name: 'Alarms', active: true },
        ]}
        onChange={onChange}
      />,
    );
    const el = mounted.container;
    expect(el.querySelector('.ant-tabs-card')).not.toBeNull();
    expect(el.querySelector('.ant-tabs-tab-active')!.textContent).toBe('Alarms');
    expect(el.querySelector('[data-testid="tab-a"]')!.textContent).toBe('Home');
    click(el.querySelector('[data-testid="tab-a"]'));
    expect(onChange).toHaveBeenCalledWith('a');
  });
});
