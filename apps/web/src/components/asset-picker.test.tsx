// The shared asset picker: the search finds assets of the kind picked, labelled "code · name",
// and a new kind is a new search whose options replace the previous kind's.
import { useState } from 'react';
import { act } from 'react';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { click, render, setEnglish, type Rendered } from '../test/dom.tsx';
import { settleUntil } from '../test/form.ts';
import { AssetPicker } from './asset-picker.tsx';

let mounted: Rendered | undefined;
beforeAll(setEnglish);
afterEach(() => {
  vi.unstubAllGlobals();
  mounted?.unmount();
  mounted = undefined;
});

const ROWS: Record<string, { id: string; code: string; name: string }[]> = {
  '/api/iot/v2/vehicles': [{ id: 'v1', code: 'V-007', name: 'Truck 7' }],
  '/api/iot/v2/containers': [{ id: 'c1', code: 'C-9', name: 'Box 9' }],
};

const optionTexts = () => [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].map((o) => o.textContent);

function open(testId: string) {
  const select = document.querySelector(`[data-testid=${testId}]`)!.closest('.ant-select')!;
  act(() => {
    select.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  });
}

it('searches the kind picked and starts a new search when the kind changes', async () => {
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://console.test');
      asked.push(url);
      const rows = ROWS[url.pathname] ?? [];
      return Promise.resolve(new Response(JSON.stringify({ isSuccess: 'Y', code: 0, data: { rows, total: rows.length, page: 1, size: 20 }, errormsg: null }), { headers: { 'content-type': 'application/json' } }));
    }),
  );
  const picked: (string | undefined)[] = [];
  function Owner() {
    const [kind, setKind] = useState<'vehicle' | 'container'>('vehicle');
    const [value, setValue] = useState<string | undefined>();
    return (
      <AssetPicker
        kinds={['vehicle', 'container'] as const}
        kind={kind}
        onKindChange={(k) => {
          setKind(k);
          setValue(undefined);
        }}
        kindName={(k) => (k === 'vehicle' ? 'Vehicle' : 'Container')}
        kindLabel="Kind"
        kindTestId="kind"
        value={value}
        onChange={(id) => {
          picked.push(id);
          setValue(id);
        }}
        data-testid="asset"
      />
    );
  }
  mounted = render(<Owner />);

  open('asset');
  await settleUntil(() => optionTexts().includes('V-007 · Truck 7'), 5000);
  expect(asked.at(-1)!.pathname).toBe('/api/iot/v2/vehicles');
  click([...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === 'V-007 · Truck 7'));
  expect(picked).toEqual(['v1']);

  open('kind');
  await settleUntil(() => optionTexts().includes('Container'), 5000);
  click([...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === 'Container'));
  open('asset');
  await settleUntil(() => optionTexts().includes('C-9 · Box 9'), 5000);
  expect(asked.at(-1)!.pathname).toBe('/api/iot/v2/containers');
  expect(optionTexts()).not.toContain('V-007 · Truck 7');
});
