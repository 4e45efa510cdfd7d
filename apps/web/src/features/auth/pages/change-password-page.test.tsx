import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { API, type UserInfo } from '@iotc/shared/auth';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import type * as client from '../../../api/client.ts';
import { ApiError, request } from '../../../api/client.ts';
import { clearAuth, getUserinfo, setToken, setUserinfo } from '../../../lib/session.ts';
import ChangePasswordPage from './change-password-page.tsx';

// The api modules run as they are; only the one HTTP client under them answers from the test.
vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

let mounted: Rendered | undefined;
let captchaCount = 0;

function captchaAnswer() {
  captchaCount += 1;
  return {
    id: `c${captchaCount}`,
    image: 'data:image/svg+xml;base64,PHN2Zy8+',
    expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
  };
}

beforeEach(async () => {
  await setEnglish();
  clearAuth();
  captchaCount = 0;
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string) => {
    if (path === API.captchas) return captchaAnswer();
    throw new Error(`unexpected call ${path}`);
  });
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  clearAuth();
  await setEnglish();
});

/** Lets pending promises (queries, async validation) run and React render their results. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) {
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
}

async function mount(): Promise<HTMLElement> {
  mounted = render(
    <MemoryRouter initialEntries={['/view/login/confirmPassword']}>
      <Routes>
        <Route path="/view/login/confirmPassword" element={<ChangePasswordPage />} />
        <Route path="/view/login/successPage" element={<div data-testid="success-stub" />} />
      </Routes>
    </MemoryRouter>,
  );
  await settle();
  return mounted.container;
}

function input(root: HTMLElement, id: string): HTMLInputElement {
  const el = root.querySelector<HTMLInputElement>(`#${id}`);
  if (!el) throw new Error(`no #${id}`);
  return el;
}

function type(root: HTMLElement, id: string, value: string): void {
  const el = input(root, id);
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  act(() => {
    el.focus();
    setValue.call(el, value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function blur(root: HTMLElement, id: string): Promise<void> {
  const el = input(root, id);
  act(() => {
    el.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
  });
  await settle();
}

function errorOf(root: HTMLElement, id: string): string {
  const el = input(root, id);
  // A cleared message fades out; the field's status changes at once.
  if (el.getAttribute('aria-invalid') !== 'true') return '';
  return el.closest('.ant-form-item')?.querySelector('.ant-form-item-explain-error')?.textContent ?? '';
}

async function submit(root: HTMLElement): Promise<void> {
  click(root.querySelector('#change-submit'));
  await settle();
}

function fillValid(root: HTMLElement): void {
  type(root, 'account', 'alice');
  type(root, 'oldPassword', 'Init1234');
  type(root, 'newPassword', 'Better#2024');
  type(root, 'confirmPassword', 'Better#2024');
  type(root, 'captcha', 'ab12');
}

const captchaCalls = () => requestMock.mock.calls.filter(([path]) => path === API.captchas).length;

const TEXTS = {
  en: {
    account: 'Account cannot be empty',
    password: 'Password cannot be empty',
    captcha: 'Please input the verification code',
    format: 'The password you entered is in the wrong format, please re-enter it',
    same: 'The new password you entered cannot be the same as the original password',
    mismatch: 'The new password you entered is not the same as the confirmation password',
  },
  zh: {
    account: '账号不能为空',
    password: '密码不能为空',
    captcha: '请输入验证码',
    format: '您输入的密码格式有误，请重新输入',
    same: '您输入的新密码不能与原密码相同',
    mismatch: '您输入的新密码与确认密码不一致',
  },
} as const;

describe.each(['en', 'zh'] as const)('change-password validation (%s)', (lang) => {
  const text = TEXTS[lang];
  beforeEach(async () => {
    await i18next.changeLanguage(lang);
  });

  it('names every empty field on submit and sends nothing', async () => {
    const root = await mount();
    await submit(root);
    expect(errorOf(root, 'account')).toBe(text.account);
    expect(errorOf(root, 'oldPassword')).toBe(text.password);
    expect(errorOf(root, 'newPassword')).toBe(text.password);
    expect(errorOf(root, 'confirmPassword')).toBe(text.password);
    expect(errorOf(root, 'captcha')).toBe(text.captcha);
    expect(requestMock.mock.calls.map(([path]) => path)).toEqual([API.captchas]);
  });

  it('checks the password rule, the original and the confirmation on blur', async () => {
    const root = await mount();
    type(root, 'oldPassword', 'Init1234');
    type(root, 'newPassword', 'abcdefgh');
    await blur(root, 'newPassword');
    expect(errorOf(root, 'newPassword')).toBe(text.format);

    type(root, 'newPassword', '密码abc12345');
    await blur(root, 'newPassword');
    expect(errorOf(root, 'newPassword')).toBe(text.format);

    type(root, 'newPassword', 'Init1234');
    await blur(root, 'newPassword');
    expect(errorOf(root, 'newPassword')).toBe(text.same);

    type(root, 'newPassword', 'Better#2024');
    await blur(root, 'newPassword');
    expect(errorOf(root, 'newPassword')).toBe('');

    type(root, 'confirmPassword', 'Better#2025');
    await blur(root, 'confirmPassword');
    expect(errorOf(root, 'confirmPassword')).toBe(text.mismatch);

    type(root, 'confirmPassword', 'Better#2024');
    await blur(root, 'confirmPassword');
    expect(errorOf(root, 'confirmPassword')).toBe('');
  });
});

describe('change-password page', () => {
  it('rewords a message on screen when the language changes', async () => {
    const root = await mount();
    type(root, 'newPassword', 'short');
    await blur(root, 'newPassword');
    expect(errorOf(root, 'newPassword')).toBe(TEXTS.en.format);
    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    await settle();
    expect(errorOf(root, 'newPassword')).toBe(TEXTS.zh.format);
  });

  it('shows a refusal inline, fetches a new captcha and clears the typed code', async () => {
    requestMock.mockImplementation(async (path: string) => {
      if (path === API.captchas) return captchaAnswer();
      throw new ApiError(400, 'OLD_PASSWORD_ERROR', 'Old password error');
    });
    const root = await mount();
    expect(root.querySelector('[data-testid=captcha-image]')?.getAttribute('data-captcha-id')).toBe('c1');

    fillValid(root);
    await submit(root);

    const call = requestMock.mock.calls.find(([path]) => path === API.resetPassword);
    expect(call?.[1]?.body).toEqual({
      account: 'alice',
      oldPassword: 'Init1234',
      newPassword: 'Better#2024',
      confirmPassword: 'Better#2024',
      captchaId: 'c1',
      captcha: 'ab12',
    });
    const alert = root.querySelector('[data-testid=change-error]');
    expect(alert?.getAttribute('data-errorcode')).toBe('OLD_PASSWORD_ERROR');
    expect(alert?.textContent).toContain('Old password error');
    expect(captchaCalls()).toBe(2);
    expect(root.querySelector('[data-testid=captcha-image]')?.getAttribute('data-captcha-id')).toBe('c2');
    expect(input(root, 'captcha').value).toBe('');
  });

  it('fetches a new captcha after a failure without an answer too', async () => {
    requestMock.mockImplementation(async (path: string) => {
      if (path === API.captchas) return captchaAnswer();
      throw new ApiError(0, 'NETWORK', 'unreachable');
    });
    const root = await mount();
    fillValid(root);
    await submit(root);
    expect(root.querySelector('[data-testid=change-error]')?.getAttribute('data-errorcode')).toBe('NETWORK');
    expect(captchaCalls()).toBe(2);
  });

  it('loads another captcha when the picture is clicked', async () => {
    const root = await mount();
    click(root.querySelector('[data-testid=captcha-box]'));
    await settle();
    expect(captchaCalls()).toBe(2);
    expect(root.querySelector('[data-testid=captcha-image]')?.getAttribute('data-captcha-id')).toBe('c2');
  });

  it('prefills the signed-in account read-only and goes to the success page', async () => {
    const user: UserInfo = {
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
      mustChangePassword: true,
    };
    setToken('t1');
    setUserinfo(user);
    requestMock.mockImplementation(async (path: string) => (path === API.captchas ? captchaAnswer() : null));
    const root = await mount();
    expect(input(root, 'account').value).toBe('alice');
    expect(input(root, 'account').readOnly).toBe(true);

    type(root, 'oldPassword', 'Init1234');
    type(root, 'newPassword', 'Better#2024');
    type(root, 'confirmPassword', 'Better#2024');
    type(root, 'captcha', 'ab12');
    await submit(root);

    expect(root.querySelector('[data-testid=success-stub]')).not.toBeNull();
    expect(getUserinfo()?.mustChangePassword).toBe(false);
  });
});
