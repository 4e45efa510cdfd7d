// The shared several-assets picker: each kind is its own search, picks of several kinds add up
// and keep their names once another kind's search has replaced the options; with one kind
// there is no kind select.
import { useState } from 'react';
import { act } from 'react';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { click, render, setEnglish, type Rendered } from '../test/dom.tsx';
import { settleUntil } from '../test/form.ts';
import { MultiAssetPicker } from './multi-asset-picker.tsx';

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
const pick = (text: string) => click([...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === text));

it('adds up picks of several kinds, each searched by its kind, and keeps their names', async () => {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://console.test');
      asked.push(url.pathname);
      const rows = ROWS[url.pathname] ?? [];
      return Promise.resolve(new Response(JSON.stringify({ isSuccess: 'Y', code: 0, data: { rows, total: rows.length, page: 1, size: 20 }, errormsg: null }), { headers: { 'content-type': 'application/json' } }));
    }),
  );
  let ids: string[] = [];
  function Owner() {
    const [value, setValue] = useState<string[]>([]);
    return (
      <MultiAssetPicker
        kinds={['vehicle', 'container'] as const}
        kindName={(k) => (k === 'vehicle' ? 'Vehicle' : 'Container')}
        kindLabel="Kind"
        kindTestId="kind"
        value={value}
        onChange={(next) => {
          ids = next;
          setValue(next);
        }}
        data-testid="assets"
      />
    );
  }
  mounted = render(<Owner />);

  open('assets');
  await settleUntil(() => optionTexts().includes('V-007 · Truck 7'), 5000);
  pick('V-007 · Truck 7');
  open('kind');
  await settleUntil(() => optionTexts().includes('Container'), 5000);
  pick('Container');
  open('assets');
  await settleUntil(() => optionTexts().includes('C-9 · Box 9'), 5000);
  expect(asked.at(-1)).toBe('/api/iot/v2/containers');
  pick('C-9 · Box 9');
  expect(ids).toEqual(['v1', 'c1']);
  // The vehicle, not in the containers' answer, is still offered (picked) under its name.
  expect(optionTexts()).toEqual(['V-007 · Truck 7', 'C-9 · Box 9']);
});

it('shows no kind select when there is one kind', () => {
  mounted = render(<MultiAssetPicker kinds={['vehicle'] as const} kindName={() => 'Vehicle'} kindLabel="Kind" kindTestId="kind" value={[]} onChange={() => undefined} data-testid="assets" />);
  expect(document.querySelector('[data-testid=assets]')).not.toBeNull();
  expect(document.querySelector('[data-testid=kind]')).toBeNull();
});
