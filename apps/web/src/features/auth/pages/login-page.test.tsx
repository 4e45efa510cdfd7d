import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ACCOUNT_API, type SsoConfig } from '@iotc/shared/account';
import { render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { byTestId, settle } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request } from '../../../api/client.ts';
import LoginPage from './login-page.tsx';

// The api modules run as they are; only the one HTTP client under them answers from the test.
vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

let mounted: Rendered | undefined;

function sso(config: SsoConfig | Error) {
  requestMock.mockImplementation(async (path: string) => {
    if (path !== ACCOUNT_API.ssoConfig) throw new Error(`unexpected call ${path}`);
    if (config instanceof Error) throw config;
    return config;
  });
}

beforeEach(async () => {
  await setEnglish();
  requestMock.mockReset();
  sso({ enabled: false, name: null, startUrl: '/iot-cloud-auth/auth/v1/oauth' });
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  await setEnglish();
});

async function mount(search = ''): Promise<HTMLElement> {
  mounted = render(
    <MemoryRouter initialEntries={[`/login${search}`]}>
      <Routes>
        <Route path="/login" element={<LoginPage />} />
      </Routes>
    </MemoryRouter>,
  );
  await settle();
  return mounted.container;
}

describe('login page: account links', () => {
  it('links to register and to password retrieval side by side', async () => {
    const root = await mount();
    expect(root.querySelector('#register-link')?.getAttribute('href')).toBe('/view/login/newUser');
    expect(root.querySelector('#forgot-password')?.getAttribute('href')).toBe('/view/login/retrievepasswordPage');
    expect(root.querySelector('#register-link')?.textContent).toBe('Register');
  });
});

describe('login page: external sign-in', () => {
  it('offers no external sign-in when the server has none, or cannot say', async () => {
    let root = await mount();
    expect(byTestId(root, 'sso-login')).toBeNull();
    mounted?.unmount();
    sso(new ApiError(0, 'NETWORK', null));
    root = await mount();
    expect(byTestId(root, 'sso-login')).toBeNull();
  });

  it('offers the provider by name in both languages', async () => {
    sso({ enabled: true, name: 'Company SSO', startUrl: '/iot-cloud-auth/auth/v1/oauth' });
    const root = await mount();
    expect(byTestId(root, 'sso-login')?.textContent).toBe('Sign in with Company SSO');
    await i18next.changeLanguage('zh');
    await settle();
    expect(byTestId(root, 'sso-login')?.textContent).toBe('使用 Company SSO 登录');
    const call = requestMock.mock.calls[0];
    expect(call?.[1]).toMatchObject({ silent: true });
  });

  it.each([
    ['SSO_FAILED', 'External sign-in failed, please try again'],
    ['ACCOUNT_DEACTIVATED', 'Account number does not exist or has been deactivated, please re-enter'],
    ['SOMETHING_ELSE', 'External sign-in failed, please try again'],
  ])('shows ?ssoError=%s above the form', async (code, text) => {
    const root = await mount(`?ssoError=${code}`);
    const alert = byTestId(root, 'sso-error');
    expect(alert?.getAttribute('data-errorcode')).toBe(code);
    expect(alert?.textContent).toContain(text);
  });

  it('shows no sign-in error without the query', async () => {
    const root = await mount();
    expect(byTestId(root, 'sso-error')).toBeNull();
  });
});
