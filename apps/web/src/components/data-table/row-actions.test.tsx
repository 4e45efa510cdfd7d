import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { click, render, setEnglish, type Rendered } from '../../test/dom.tsx';
import { RowActions } from './row-actions.tsx';
import type { RowButton } from './types.ts';

type R = { id: number; locked?: boolean };
let mounted: Rendered | undefined;
beforeAll(setEnglish);
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

function actions(buttons: RowButton<R>[], row: R = { id: 1 }): HTMLElement {
  mounted = render(<RowActions row={row} buttons={buttons} />);
  return mounted.container;
}

describe('row buttons', { timeout: 20_000 }, () => {
  it("showtype 'ti' shows text and icon, 't' text only, 'i' the icon named by aria-label", () => {
    const el = actions([
      { name: 'Edit', icon: <EditOutlined />, showtype: 'ti', onClick: () => {} },
      { name: 'Details', icon: <EditOutlined />, showtype: 't', onClick: () => {} },
      { name: 'common.cancel', icon: <DeleteOutlined />, showtype: 'i', onClick: () => {} },
    ]);
    const [ti, t, i] = [...el.querySelectorAll('button')];
    expect(ti!.textContent).toBe('Edit');
    expect(ti!.querySelector('.anticon-edit')).not.toBeNull();
    expect(t!.textContent).toBe('Details');
    expect(t!.querySelector('.anticon')).toBeNull();
    expect(i!.textContent).toBe('');
    expect(i!.querySelector('.anticon-delete')).not.toBeNull();
    // The name is an i18n key, shown translated.
    expect(i!.getAttribute('aria-label')).toBe('Cancel');
  });

  it('a button carries its test hook in every row', () => {
    const el = actions([{ name: 'Edit', showtype: 't', testId: 'device-action-edit', onClick: () => {} }]);
    expect(el.querySelector('[data-testid=device-action-edit]')?.textContent).toBe('Edit');
  });

  it('a click runs the action with the row; hidden buttons are left out', () => {
    const onClick = vi.fn();
    const el = actions(
      [
        { name: 'Open', showtype: 't', onClick },
        { name: 'Unlock', showtype: 't', onClick, hidden: (r) => !r.locked },
      ],
      { id: 7 },
    );
    expect([...el.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Open']);
    click(el.querySelector('button'));
    expect(onClick).toHaveBeenCalledWith({ id: 7 });
  });

  it('a destructive action waits for the confirmation', async () => {
    const onClick = vi.fn();
    const el = actions([{ name: 'Delete', showtype: 'ti', danger: true, confirm: 'Delete this device?', onClick }], { id: 9 });
    click(el.querySelector('button'));
    expect(onClick).not.toHaveBeenCalled();
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    const pop = document.querySelector('.ant-popconfirm');
    expect(pop?.textContent).toContain('Delete this device?');
    const ok = [...pop!.querySelectorAll('button')].find((b) => b.textContent === 'OK');
    click(ok);
    expect(onClick).toHaveBeenCalledWith({ id: 9 });
  });
});
