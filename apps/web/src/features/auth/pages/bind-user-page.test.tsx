import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ACCOUNT_API } from '@iotc/shared/account';
import type { LoginData } from '@iotc/shared/auth';
import { DEFAULT_LANDING } from '@iotc/shared/constants';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, errorOf, input, settle, type } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request } from '../../../api/client.ts';
import { clearAuth, getToken, getUserinfo } from '../../../lib/session.ts';
import BindUserPage, { BIND_REDIRECT_MS } from './bind-user-page.tsx';

// The api modules run as they are; only the one HTTP client under them answers from the test.
vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

let mounted: Rendered | undefined;

const LOGIN: LoginData = {
  token: 'tok-1',
  period: null,
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
  mustChangePassword: false,
  user: {
    id: 'u1',
    account: 'alice',
    name: 'Alice',
    orgId: 'o1',
    orgName: 'Org',
    email: null,
    phone: null,
    roles: [],
    permissions: [],
    isPlatformAdmin: false,
    mustChangePassword: false,
  },
};

beforeEach(async () => {
  await setEnglish();
  clearAuth();
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string) => {
    throw new Error(`unexpected call ${path}`);
  });
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  clearAuth();
  await setEnglish();
});

async function mount(search: string): Promise<HTMLElement> {
  mounted = render(
    <MemoryRouter initialEntries={[`/view/login/bindUserPage${search}`]}>
      <Routes>
        <Route path="/view/login/bindUserPage" element={<BindUserPage />} />
        <Route path={DEFAULT_LANDING} element={<div data-testid="landing-stub" />} />
        <Route path="/login" element={<div data-testid="login-stub" />} />
      </Routes>
    </MemoryRouter>,
  );
  await settle();
  return mounted.container;
}

async function submit(root: HTMLElement): Promise<void> {
  click(byTestId(root, 'bind-submit'));
  await settle();
}

describe.each([
  ['en', 'Account cannot be empty', 'Password cannot be empty'],
  ['zh', '账号不能为空', '密码不能为空'],
] as const)('bind-user client rules (%s)', (lang, accountText, passwordText) => {
  it('names the empty fields and sends nothing', async () => {
    await i18next.changeLanguage(lang);
    const root = await mount('?openid=p-1');
    expect(document.activeElement).toBe(input(root, 'account'));
    type(root, 'account', '   ');
    await submit(root);
    expect(errorOf(root, 'account')).toBe(accountText);
    expect(errorOf(root, 'password')).toBe(passwordText);
    expect(requestMock).not.toHaveBeenCalled();
  });
});

describe('bind-user page', () => {
  it('without a pending sign-in says it has expired and links to login', async () => {
    const root = await mount('');
    expect(byTestId(root, 'bind-page')?.getAttribute('data-state')).toBe('expired');
    expect(byTestId(root, 'bind-expired')?.textContent).toBe(
      'The external sign-in has expired, please sign in with the external account again',
    );
    expect(root.querySelector('#account')).toBeNull();
    click(byTestId(root, 'bind-to-login'));
    await settle();
    expect(byTestId(root, 'login-stub')).not.toBeNull();
  });

  it('binds with a GET query, starts the session as a login does and opens the landing page', async () => {
    requestMock.mockImplementation(async (path: string) => {
      if (path === ACCOUNT_API.bindUser) return LOGIN;
      throw new Error(`unexpected call ${path}`);
    });
    const root = await mount('?openid=p-1');
    type(root, 'account', ' alice ');
    type(root, 'password', 'Secret#2026');
    await submit(root);

    const call = requestMock.mock.calls.find(([path]) => path === ACCOUNT_API.bindUser);
    expect(call?.[1]?.method ?? 'GET').toBe('GET');
    expect(call?.[1]?.body).toBeUndefined();
    expect(call?.[1]?.query).toEqual({ openid: 'p-1', userCode: 'alice', password: 'Secret#2026' });
    expect(getToken()).toBe('tok-1');
    expect(getUserinfo()?.account).toBe('alice');
    expect(byTestId(root, 'bind-success')?.textContent).toBe('Bind successfully, about to jump to page');
    expect(byTestId(root, 'landing-stub')).toBeNull();

    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, BIND_REDIRECT_MS + 50));
    });
    expect(byTestId(root, 'landing-stub')).not.toBeNull();
  });

  it('offers the initial-password change instead of leaving for the console', async () => {
    requestMock.mockImplementation(async () => ({ ...LOGIN, mustChangePassword: true }));
    const root = await mount('?openid=p-1');
    type(root, 'account', 'alice');
    type(root, 'password', 'Secret#2026');
    await submit(root);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, BIND_REDIRECT_MS + 50));
    });
    expect(byTestId(root, 'landing-stub')).toBeNull();
    expect(document.querySelector('[data-testid=must-change-password-text]')?.textContent).toBe(i18next.t('login.mustChange.content'));
    expect(document.querySelector('#change-password-now')?.textContent).toBe('Change it now');
  });

  it('says the success in Chinese', async () => {
    await i18next.changeLanguage('zh');
    requestMock.mockImplementation(async () => LOGIN);
    const root = await mount('?openid=p-1');
    type(root, 'account', 'alice');
    type(root, 'password', 'Secret#2026');
    await submit(root);
    expect(byTestId(root, 'bind-success')?.textContent).toBe('绑定成功，即将跳转页面');
  });

  it.each(['USERNAME_PASSWORD_ERROR', 'ACCOUNT_DEACTIVATED', 'BIND_EXPIRED', 'ALREADY_BOUND'])(
    'shows %s inline and stays signed out',
    async (code) => {
      requestMock.mockImplementation(async () => {
        throw new ApiError(400, code, 'server text');
      });
      const root = await mount('?openid=p-1');
      type(root, 'account', 'alice');
      type(root, 'password', 'Wrong#2026');
      await submit(root);
      expect(byTestId(root, 'form-failure')?.getAttribute('data-errorcode')).toBe(code);
      expect(byTestId(root, 'form-failure')?.textContent).not.toContain('server text');
      expect(getToken()).toBeUndefined();
    },
  );
});
