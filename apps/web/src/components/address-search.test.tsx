// The address search of the place forms: hidden without a geocoder; with one, typed text is
// searched in the page's language after a pause (nothing under two characters), and picking a
// place hands its coordinates and address to the form. A position's address shows under its
// coordinates only when the server has a geocoder.
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { GEOCODE_API, type GeocodePlace } from '@iotc/shared/geocode';
import { click, render, setEnglish, type Rendered } from '../test/dom.tsx';
import { settle, settleUntil } from '../test/form.ts';
import { AddressSearch } from './address-search.tsx';
import { PositionText } from './position-text.tsx';

let mounted: Rendered | undefined;
let asked: URL[] = [];
beforeAll(setEnglish);
afterEach(() => {
  vi.unstubAllGlobals();
  mounted?.unmount();
  mounted = undefined;
  asked = [];
  document.body.innerHTML = '';
});

const envelope = (data: unknown) => new Response(JSON.stringify({ isSuccess: 'Y', code: 0, data, errormsg: null }), { headers: { 'content-type': 'application/json' } });

function fakeServer(enabled: boolean) {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://console.test');
      asked.push(url);
      if (url.pathname === GEOCODE_API.config) return Promise.resolve(envelope({ enabled }));
      if (url.pathname === GEOCODE_API.search) return Promise.resolve(envelope({ places: [{ label: 'The Bund, Shanghai, China', lat: 31.24, lon: 121.49 }] }));
      if (url.pathname === GEOCODE_API.reverse) return Promise.resolve(envelope({ address: 'Zhongshan East 1st Road, Shanghai' }));
      return Promise.resolve(new Response('', { status: 404 }));
    }),
  );
}

const optionTexts = () => [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].map((o) => o.textContent);

function typeInto(testId: string, text: string) {
  const select = document.querySelector(`[data-testid=${testId}]`)!.closest('.ant-select')!;
  const input = select.querySelector('input')!;
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    select.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    input.focus();
    setValue.call(input, text);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('address search', { timeout: 30_000 }, () => {
  it('is hidden without a geocoder', async () => {
    fakeServer(false);
    mounted = render(<AddressSearch data-testid="find" onPick={() => undefined} />);
    await settleUntil(() => asked.some((u) => u.pathname === GEOCODE_API.config));
    await settle();
    expect(document.querySelector('[data-testid=find]')).toBeNull();
  });

  it('searches the typed address in the page language and hands the picked place to the form', async () => {
    fakeServer(true);
    const picked: GeocodePlace[] = [];
    mounted = render(<AddressSearch data-testid="find" onPick={(p) => picked.push(p)} />);
    await settleUntil(() => document.querySelector('[data-testid=find]') !== null);
    typeInto('find', 'B');
    await settle();
    await act(async () => new Promise((resolve) => setTimeout(resolve, 400)));
    expect(asked.some((u) => u.pathname === GEOCODE_API.search)).toBe(false);
    typeInto('find', 'The Bund');
    await settleUntil(() => optionTexts().includes('The Bund, Shanghai, China'), 5000);
    const search = asked.find((u) => u.pathname === GEOCODE_API.search)!;
    expect([search.searchParams.get('q'), search.searchParams.get('lang')]).toEqual(['The Bund', 'en']);
    click([...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === 'The Bund, Shanghai, China'));
    expect(picked).toEqual([{ label: 'The Bund, Shanghai, China', lat: 31.24, lon: 121.49 }]);
  });

  it("shows a position's address under its coordinates with a geocoder, the coordinates alone without", async () => {
    fakeServer(true);
    mounted = render(<PositionText lat={31.2345} lon={121.4901} data-testid="addr" />);
    await settleUntil(() => document.querySelector('[data-testid=addr]') !== null, 5000);
    expect(mounted.container.textContent).toBe('31.2345, 121.4901Zhongshan East 1st Road, Shanghai');
    const reverse = asked.find((u) => u.pathname === GEOCODE_API.reverse)!;
    expect([reverse.searchParams.get('lat'), reverse.searchParams.get('lon')]).toEqual(['31.2345', '121.4901']);
    mounted.unmount();
    vi.unstubAllGlobals();
    asked = [];
    fakeServer(false);
    mounted = render(<PositionText lat={31.2345} lon={121.4901} data-testid="addr" />);
    await settleUntil(() => asked.length > 0);
    await settle();
    expect(mounted.container.textContent).toBe('31.2345, 121.4901');
    expect(asked.map((u) => u.pathname)).toEqual([GEOCODE_API.config]);
  });
});
