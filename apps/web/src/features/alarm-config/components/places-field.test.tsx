// An allowed place found by its address: with a geocoder, picking a place fills the row's centre
// and, when empty, its name; the other rows stay as they were.
import { act } from 'react';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { App, Form, type FormInstance } from 'antd';
import { GEOCODE_API } from '@iotc/shared/geocode';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { settleUntil } from '../../../test/form.ts';
import { PlacesField } from './places-field.tsx';

let mounted: Rendered | undefined;
beforeAll(setEnglish);
afterEach(() => {
  vi.unstubAllGlobals();
  mounted?.unmount();
  mounted = undefined;
  document.body.innerHTML = '';
});

const envelope = (data: unknown) => new Response(JSON.stringify({ isSuccess: 'Y', code: 0, data, errormsg: null }), { headers: { 'content-type': 'application/json' } });

it('fills the centre and the empty name of the row whose search picked a place', async () => {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://console.test');
      if (url.pathname === GEOCODE_API.config) return Promise.resolve(envelope({ enabled: true }));
      if (url.pathname === GEOCODE_API.search) return Promise.resolve(envelope({ places: [{ label: 'Depot North, Jiading, Shanghai', lat: 31.3812345678, lon: 121.2654321 }] }));
      return Promise.resolve(new Response('', { status: 404 }));
    }),
  );
  let form!: FormInstance;
  function Harness() {
    const [f] = Form.useForm();
    form = f;
    return (
      <App>
        <Form form={f} initialValues={{ rules: [{ places: [{ name: 'Yard', lat: 30, lon: 120, radiusM: 500 }, { name: '', lat: null, lon: null, radiusM: 300 }] }] }}>
          <PlacesField name={['rules', 0, 'places']} testId="places" />
        </Form>
      </App>
    );
  }
  mounted = render(<Harness />);
  await settleUntil(() => document.querySelectorAll('[data-testid=places-search]').length === 2);
  const select = document.querySelectorAll('[data-testid=places-search]')[1]!.closest('.ant-select')!;
  const input = select.querySelector('input')!;
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    select.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    input.focus();
    setValue.call(input, 'depot north');
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  const option = () => [...document.querySelectorAll('.ant-select-item-option')].find((o) => o.textContent === 'Depot North, Jiading, Shanghai');
  await settleUntil(() => option() !== undefined, 5000);
  click(option());
  expect(form.getFieldValue(['rules', 0, 'places'])).toEqual([
    { name: 'Yard', lat: 30, lon: 120, radiusM: 500 },
    { name: 'Depot North', lat: 31.381235, lon: 121.265432, radiusM: 300 },
  ]);
});
