import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ACCOUNT_API } from '@iotc/shared/account';
import { API } from '@iotc/shared/auth';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { blur, byTestId, errorOf, input, settle, type } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request } from '../../../api/client.ts';
import RegisterPage from './register-page.tsx';

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
  return { id: `c${captchaCount}`, image: 'data:image/svg+xml;base64,PHN2Zy8+', expiresAt: new Date(Date.now() + 300_000).toISOString() };
}

function answer(register: (body: unknown) => unknown) {
  requestMock.mockImplementation(async (path: string, opts) => {
    if (path === API.captchas) return captchaAnswer();
    if (path === ACCOUNT_API.register) return register(opts?.body);
    throw new Error(`unexpected call ${path}`);
  });
}

beforeEach(async () => {
  await setEnglish();
  captchaCount = 0;
  requestMock.mockReset();
  answer(() => {
    throw new Error('register must not be called');
  });
});

afterEach(async () => {
  mounted?.unmount();
  mounted = undefined;
  await setEnglish();
});

function SuccessStub() {
  const location = useLocation();
  return <div data-testid="success-stub" data-search={location.search} data-state={JSON.stringify(location.state)} />;
}

async function mount(): Promise<HTMLElement> {
  mounted = render(
    <MemoryRouter initialEntries={['/view/login/newUser']}>
      <Routes>
        <Route path="/view/login/newUser" element={<RegisterPage />} />
        <Route path="/view/login/successPage" element={<SuccessStub />} />
      </Routes>
    </MemoryRouter>,
  );
  await settle();
  return mounted.container;
}

async function submit(root: HTMLElement): Promise<void> {
  click(byTestId(root, 'register-submit'));
  await settle();
}

function fillValid(root: HTMLElement): void {
  type(root, 'account', 'new.user');
  type(root, 'name', 'New User');
  type(root, 'orgName', 'Cold Chain Ltd');
  type(root, 'email', 'new.user@example.com');
  type(root, 'password', 'Fresh#2026');
  type(root, 'confirmPassword', 'Fresh#2026');
  type(root, 'captcha', 'ab12');
}

const TEXTS = {
  en: {
    account: 'Account cannot be empty',
    accountFormat: 'The account must be 4-32 letters, digits or the symbols _ . - @',
    name: 'Name cannot be empty',
    org: 'Organisation name cannot be empty',
    email: 'Please enter a valid e-mail address',
    mobile: 'Please enter a valid mainland mobile number',
    password: 'Password cannot be empty',
    format: 'The password you entered is in the wrong format, please re-enter it',
    mismatch: 'The new password you entered is not the same as the confirmation password',
    captcha: 'Please input the verification code',
  },
  zh: {
    account: '账号不能为空',
    accountFormat: '账号须为 4-32 位字母、数字或 _ . - @ 符号',
    name: '名称不能为空',
    org: '组织名称不能为空',
    email: '请输入正确的邮箱地址',
    mobile: '请输入正确的手机号码',
    password: '密码不能为空',
    format: '您输入的密码格式有误，请重新输入',
    mismatch: '您输入的新密码与确认密码不一致',
    captcha: '请输入验证码',
  },
} as const;

describe.each(['en', 'zh'] as const)('register validation (%s)', (lang) => {
  const text = TEXTS[lang];
  beforeEach(async () => {
    await i18next.changeLanguage(lang);
  });

  it('names every empty required field on submit, leaves the mobile number alone and sends nothing', async () => {
    const root = await mount();
    await submit(root);
    expect(errorOf(root, 'account')).toBe(text.account);
    expect(errorOf(root, 'name')).toBe(text.name);
    expect(errorOf(root, 'orgName')).toBe(text.org);
    expect(errorOf(root, 'email')).toBe(text.email);
    expect(errorOf(root, 'phone')).toBe('');
    expect(errorOf(root, 'password')).toBe(text.password);
    expect(errorOf(root, 'confirmPassword')).toBe(text.password);
    expect(errorOf(root, 'captcha')).toBe(text.captcha);
    expect(requestMock.mock.calls.map(([path]) => path)).toEqual([API.captchas]);
  });

  it('checks account, e-mail, mobile and password formats on blur', async () => {
    const root = await mount();
    type(root, 'account', 'ab');
    await blur(root, 'account');
    expect(errorOf(root, 'account')).toBe(text.accountFormat);
    type(root, 'account', 'a b c d');
    await blur(root, 'account');
    expect(errorOf(root, 'account')).toBe(text.accountFormat);
    type(root, 'account', 'ops.user@example.com');
    await blur(root, 'account');
    expect(errorOf(root, 'account')).toBe('');

    type(root, 'email', 'not-an-address');
    await blur(root, 'email');
    expect(errorOf(root, 'email')).toBe(text.email);

    type(root, 'phone', '12345');
    await blur(root, 'phone');
    expect(errorOf(root, 'phone')).toBe(text.mobile);
    type(root, 'phone', '13800138000');
    await blur(root, 'phone');
    expect(errorOf(root, 'phone')).toBe('');

    type(root, 'password', 'abcdefgh');
    await blur(root, 'password');
    expect(errorOf(root, 'password')).toBe(text.format);
    type(root, 'password', 'Fresh#2026');
    await blur(root, 'password');
    type(root, 'confirmPassword', 'Fresh#2027');
    await blur(root, 'confirmPassword');
    expect(errorOf(root, 'confirmPassword')).toBe(text.mismatch);
  });
});

describe('register page', () => {
  it('focuses the account field first', async () => {
    const root = await mount();
    expect(document.activeElement).toBe(input(root, 'account'));
  });

  it('sends the register body and opens the success page with the new account', async () => {
    answer(() => ({ account: 'new.user', orgName: 'Cold Chain Ltd' }));
    const root = await mount();
    fillValid(root);
    type(root, 'phone', ' ');
    await submit(root);

    const call = requestMock.mock.calls.find(([path]) => path === ACCOUNT_API.register);
    expect(call?.[1]).toMatchObject({ method: 'POST', silent: true });
    expect(call?.[1]?.body).toEqual({
      account: 'new.user',
      name: 'New User',
      orgName: 'Cold Chain Ltd',
      email: 'new.user@example.com',
      phone: undefined,
      password: 'Fresh#2026',
      confirmPassword: 'Fresh#2026',
      captchaId: 'c1',
      captcha: 'ab12',
    });
    const stub = byTestId(root, 'success-stub');
    expect(stub?.getAttribute('data-search')).toBe('?kind=registered');
    expect(JSON.parse(stub?.getAttribute('data-state') ?? 'null')).toEqual({ account: 'new.user', orgName: 'Cold Chain Ltd' });
  });

  it('shows a taken account inline, in the current language, with a new captcha', async () => {
    answer(() => {
      throw new ApiError(409, 'ACCOUNT_TAKEN', 'This account already exists, please choose another one');
    });
    const root = await mount();
    fillValid(root);
    await submit(root);

    const failure = byTestId(root, 'form-failure');
    expect(failure?.getAttribute('data-errorcode')).toBe('ACCOUNT_TAKEN');
    expect(failure?.textContent).toContain('This account already exists, please choose another one');
    expect(byTestId(root, 'captcha-image')?.getAttribute('data-captcha-id')).toBe('c2');
    expect(input(root, 'captcha').value).toBe('');

    await i18next.changeLanguage('zh');
    await settle();
    expect(byTestId(root, 'form-failure')?.textContent).toContain('该账号已存在，请更换');
  });

  it('shows the server text of a validation refusal', async () => {
    answer(() => {
      throw new ApiError(400, 'VALIDATION', 'The request is invalid: email: too long');
    });
    const root = await mount();
    fillValid(root);
    await submit(root);
    expect(byTestId(root, 'form-failure')?.textContent).toContain('The request is invalid: email: too long');
  });
});
