// The request progress bar (nprogress) is an accessible progress bar: role progressbar with a
// name in the page's language, not nprogress's own role="bar", which is no ARIA role.
import { afterEach, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { setEnglish } from '../test/dom.tsx';
import { request } from './client.ts';

afterEach(async () => {
  vi.unstubAllGlobals();
  await setEnglish();
});

/** The bar's role and name while a request is out. */
async function barWhileLoading(): Promise<{ role: string | null; name: string | null } | null> {
  let answer: (r: Response) => void = () => undefined;
  vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))));
  const call = request('/api/iot/v2/anything');
  const bar = document.querySelector('#nprogress .bar');
  const shown = bar ? { role: bar.getAttribute('role'), name: bar.getAttribute('aria-label') } : null;
  answer(new Response(JSON.stringify({ code: 0, data: 1, errormsg: null }), { status: 200, headers: { 'content-type': 'application/json' } }));
  await call.catch(() => undefined);
  return shown;
}

it('shows a progress bar named Loading while a request is out', async () => {
  await setEnglish();
  const bar = await barWhileLoading();
  expect(bar).toEqual({ role: 'progressbar', name: 'Loading' });
  expect(document.querySelector('[role=bar]')).toBeNull();
});

it('names it in Chinese', async () => {
  await i18next.changeLanguage('zh');
  // A new batch once the last one's bar is gone.
  await vi.waitFor(() => expect(document.getElementById('nprogress')).toBeNull(), { timeout: 5000 });
  const bar = await barWhileLoading();
  expect(bar).toEqual({ role: 'progressbar', name: '正在加载' });
});
