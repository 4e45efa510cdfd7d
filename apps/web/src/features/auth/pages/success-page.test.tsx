import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle } from '../../../test/form.ts';
import SuccessPage from './success-page.tsx';

let mounted: Rendered | undefined;

beforeEach(async () => {
  await setEnglish();
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  await setEnglish();
});

async function mount(entry: string | { pathname: string; search: string; state: unknown }): Promise<HTMLElement> {
  mounted = render(
    <MemoryRouter initialEntries={[entry]}>
      <Routes>
        <Route path="/view/login/successPage" element={<SuccessPage />} />
      </Routes>
    </MemoryRouter>,
  );
  await settle();
  return mounted.container;
}

describe('success page', () => {
  it.each([
    ['modified', 'Your password has been modified'],
    ['reset', 'Your password has been reset'],
    ['registered', 'Registration successful'],
    ['other', 'Your password has been modified'],
  ])('kind=%s says %s', async (kind, title) => {
    const root = await mount(`/view/login/successPage?kind=${kind}`);
    expect(byTestId(root, 'success-title')?.textContent).toBe(title);
    expect(byTestId(root, 'go-to-login')?.getAttribute('href')).toBe('/login');
  });

  it('names the registered account and organisation when handed over, in both languages', async () => {
    const root = await mount({
      pathname: '/view/login/successPage',
      search: '?kind=registered',
      state: { account: 'new.user', orgName: 'Cold Chain Ltd' },
    });
    expect(byTestId(root, 'success-page')?.getAttribute('data-kind')).toBe('registered');
    expect(byTestId(root, 'success-hint')?.textContent).toBe(
      'Account new.user and organisation Cold Chain Ltd have been created. Please log in.',
    );
    await i18next.changeLanguage('zh');
    await settle();
    expect(byTestId(root, 'success-title')?.textContent).toBe('注册成功');
    expect(byTestId(root, 'success-hint')?.textContent).toBe('账号 new.user 及组织 Cold Chain Ltd 已创建，请登录。');
  });
});
