import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ACCOUNT_API, type UserModelData } from '@iotc/shared/account';
import { click, render, setEnglish, type Rendered } from '../../../test/dom.tsx';
import { blur, byTestId, errorOf, input, nextFrame, settle, type } from '../../../test/form.ts';
import type * as client from '../../../api/client.ts';
import { ApiError, request, type RequestOptions } from '../../../api/client.ts';
import RetrievePasswordPage from './retrieve-password-page.tsx';

// The api modules run as they are; only the one HTTP client under them answers from the test.
vi.mock('../../../api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof client>()),
  request: vi.fn(),
}));
const requestMock = vi.mocked(request);

type Handler = (body: Record<string, unknown>) => unknown;
let handlers: Record<string, Handler>;
let mounted: Rendered | undefined;

const MODEL: UserModelData = { account: 'alice', email: 'al***@example.com', phone: null };

function on(path: string, handler: Handler) {
  handlers[path] = handler;
}

beforeEach(async () => {
  await setEnglish();
  handlers = {};
  requestMock.mockReset();
  requestMock.mockImplementation(async (path: string, opts?: RequestOptions) => {
    const handler = handlers[path];
    if (!handler) throw new Error(`unexpected call ${path}`);
    return handler((opts?.body ?? {}) as Record<string, unknown>);
  });
  on(ACCOUNT_API.sysUserModel, () => MODEL);
  on(ACCOUNT_API.sendMail, (b) => ({
    channel: b.channel,
    to: 'al***@example.com',
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
    resendAfter: 60,
  }));
  on(ACCOUNT_API.mailVerify, () => ({ ticket: 'ticket-1', expiresAt: new Date(Date.now() + 900_000).toISOString() }));
  on(ACCOUNT_API.forgot, () => null);
});

afterEach(async () => {
  vi.restoreAllMocks();
  mounted?.unmount();
  mounted = undefined;
  await setEnglish();
});

function SuccessStub() {
  return <div data-testid="success-stub" data-search={useLocation().search} />;
}

async function mount(): Promise<HTMLElement> {
  mounted = render(
    <MemoryRouter initialEntries={['/view/login/retrievepasswordPage']}>
      <Routes>
        <Route path="/view/login/retrievepasswordPage" element={<RetrievePasswordPage />} />
        <Route path="/view/login/successPage" element={<SuccessStub />} />
      </Routes>
    </MemoryRouter>,
  );
  await settle();
  return mounted.container;
}

const step = (root: HTMLElement) => byTestId(root, 'retrieve-page')?.getAttribute('data-step');
const calls = (path: string) => requestMock.mock.calls.filter(([p]) => p === path);

async function press(root: HTMLElement, testId: string): Promise<void> {
  click(byTestId(root, testId));
  await settle();
}

async function toVerify(root: HTMLElement): Promise<void> {
  type(root, 'account', ' alice ');
  await press(root, 'retrieve-next');
  expect(step(root)).toBe('1');
}

async function toPassword(root: HTMLElement): Promise<void> {
  await toVerify(root);
  await press(root, 'send-code');
  type(root, 'code', '1234');
  await press(root, 'verify-code');
  expect(step(root)).toBe('2');
}

const TEXTS = {
  en: {
    account: 'Account cannot be empty',
    codeRequired: 'Please input the verification code',
    codeFormat: 'Please input a four-digit verification code',
    format: 'The password you entered is in the wrong format, please re-enter it',
    mismatch: 'The new password you entered is not the same as the confirmation password',
  },
  zh: {
    account: '账号不能为空',
    codeRequired: '请输入验证码',
    codeFormat: '请输入四位数字验证码',
    format: '您输入的密码格式有误，请重新输入',
    mismatch: '您输入的新密码与确认密码不一致',
  },
} as const;

describe.each(['en', 'zh'] as const)('retrieve-password client rules (%s)', (lang) => {
  const text = TEXTS[lang];
  beforeEach(async () => {
    await i18next.changeLanguage(lang);
  });

  it('asks for the account before looking it up', async () => {
    const root = await mount();
    expect(document.activeElement).toBe(input(root, 'account'));
    await press(root, 'retrieve-next');
    expect(errorOf(root, 'account')).toBe(text.account);
    expect(requestMock).not.toHaveBeenCalled();
  });

  it('asks for a four-digit code before verifying it', async () => {
    const root = await mount();
    await toVerify(root);
    await press(root, 'verify-code');
    await nextFrame();
    expect(errorOf(root, 'code')).toBe(text.codeRequired);
    type(root, 'code', '123');
    await blur(root, 'code');
    expect(errorOf(root, 'code')).toBe(text.codeFormat);
    type(root, 'code', '12a4');
    await blur(root, 'code');
    expect(errorOf(root, 'code')).toBe(text.codeFormat);
    type(root, 'code', '1234');
    await blur(root, 'code');
    expect(errorOf(root, 'code')).toBe('');
    expect(calls(ACCOUNT_API.mailVerify)).toHaveLength(0);
  });

  it('checks the new password and its confirmation', async () => {
    const root = await mount();
    await toPassword(root);
    expect(document.activeElement).toBe(input(root, 'password'));
    type(root, 'password', 'abcdefgh');
    await blur(root, 'password');
    expect(errorOf(root, 'password')).toBe(text.format);
    type(root, 'password', 'Fresh#2026');
    type(root, 'confirmPassword', 'Fresh#2025');
    await press(root, 'reset-submit');
    expect(errorOf(root, 'password')).toBe('');
    expect(errorOf(root, 'confirmPassword')).toBe(text.mismatch);
    expect(calls(ACCOUNT_API.forgot)).toHaveLength(0);
  });
});

describe('retrieve-password steps', () => {
  it('refuses an unknown or deactivated account inline', async () => {
    on(ACCOUNT_API.sysUserModel, () => {
      throw new ApiError(400, 'ACCOUNT_DEACTIVATED', 'Account number does not exist or has been deactivated, please re-enter');
    });
    const root = await mount();
    type(root, 'account', 'ghost');
    await press(root, 'retrieve-next');
    expect(step(root)).toBe('0');
    const failure = byTestId(root, 'form-failure');
    expect(failure?.getAttribute('data-errorcode')).toBe('ACCOUNT_DEACTIVATED');
    expect(failure?.textContent).toContain('Account number does not exist or has been deactivated, please re-enter');
  });

  it('offers only bound channels, with their masked addresses', async () => {
    const root = await mount();
    await toVerify(root);
    expect(calls(ACCOUNT_API.sysUserModel)[0]?.[1]?.body).toEqual({ account: 'alice' });
    const email = byTestId<HTMLInputElement>(root, 'channel-email')!;
    const sms = byTestId<HTMLInputElement>(root, 'channel-sms')!;
    expect(email.checked).toBe(true);
    expect(email.disabled).toBe(false);
    expect(sms.disabled).toBe(true);
    expect(byTestId(root, 'channel-email-to')?.textContent).toBe('al***@example.com');
    expect(byTestId(root, 'channel-sms-to')?.textContent).toBe('not bound');
    // Keyboard users start at the button asking for the code.
    expect(document.activeElement).toBe(byTestId(root, 'send-code'));
  });

  it('chooses SMS when only a mobile number is bound, and warns when nothing is', async () => {
    on(ACCOUNT_API.sysUserModel, () => ({ account: 'alice', email: null, phone: '138****0000' }));
    let root = await mount();
    await toVerify(root);
    expect(byTestId<HTMLInputElement>(root, 'channel-sms')?.checked).toBe(true);
    await press(root, 'send-code');
    expect(calls(ACCOUNT_API.sendMail)[0]?.[1]?.body).toEqual({ account: 'alice', channel: 'sms' });
    mounted?.unmount();

    on(ACCOUNT_API.sysUserModel, () => ({ account: 'alice', email: null, phone: null }));
    root = await mount();
    await toVerify(root);
    expect(byTestId(root, 'no-channel')).not.toBeNull();
    expect(byTestId<HTMLButtonElement>(root, 'send-code')?.disabled).toBe(true);
  });

  it('counts down before another code may be asked for', async () => {
    const root = await mount();
    await toVerify(root);
    const t0 = Date.now();
    await press(root, 'send-code');
    expect(calls(ACCOUNT_API.sendMail)[0]?.[1]?.body).toEqual({ account: 'alice', channel: 'email' });
    const button = () => byTestId<HTMLButtonElement>(root, 'send-code')!;
    expect(button().disabled).toBe(true);
    expect(button().textContent).toMatch(/^Resend in (59|60) s$/);
    expect(byTestId(root, 'code-sent')?.textContent).toBe('The code was sent to al***@example.com.');
    expect(document.activeElement).toBe(input(root, 'code'));

    vi.spyOn(Date, 'now').mockReturnValue(t0 + 61_000);
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    expect(button().disabled).toBe(false);
    expect(button().textContent).toBe('Get a new code');
  });

  it('shows a send refusal and waits after CODE_RESEND_WAIT', async () => {
    on(ACCOUNT_API.sendMail, () => {
      throw new ApiError(429, 'CODE_RESEND_WAIT', 'A code was sent less than a minute ago, please wait before asking again');
    });
    const root = await mount();
    await toVerify(root);
    await press(root, 'send-code');
    expect(byTestId(root, 'form-failure')?.getAttribute('data-errorcode')).toBe('CODE_RESEND_WAIT');
    expect(byTestId<HTMLButtonElement>(root, 'send-code')?.disabled).toBe(true);
  });

  it('shows a wrong code inline and clears it', async () => {
    on(ACCOUNT_API.mailVerify, () => {
      throw new ApiError(400, 'CODE_ERROR', 'There is an error in the input of the verification code, please re-enter');
    });
    const root = await mount();
    await toVerify(root);
    await press(root, 'send-code');
    type(root, 'code', '0000');
    await press(root, 'verify-code');
    expect(step(root)).toBe('1');
    expect(calls(ACCOUNT_API.mailVerify)[0]?.[1]?.body).toEqual({ account: 'alice', channel: 'email', code: '0000' });
    const failure = byTestId(root, 'form-failure');
    expect(failure?.getAttribute('data-errorcode')).toBe('CODE_ERROR');
    expect(failure?.textContent).toContain('There is an error in the input of the verification code, please re-enter');
    expect(input(root, 'code').value).toBe('');
  });

  it('goes back to the account step keeping the account', async () => {
    const root = await mount();
    await toVerify(root);
    await press(root, 'retrieve-prev');
    expect(step(root)).toBe('0');
    expect(input(root, 'account').value).toBe('alice');
  });

  it('sets the new password with the ticket and opens the success page', async () => {
    const root = await mount();
    await toPassword(root);
    type(root, 'password', 'Fresh#2026');
    type(root, 'confirmPassword', 'Fresh#2026');
    await press(root, 'reset-submit');
    expect(calls(ACCOUNT_API.forgot)[0]?.[1]?.body).toEqual({
      account: 'alice',
      ticket: 'ticket-1',
      password: 'Fresh#2026',
      confirmPassword: 'Fresh#2026',
    });
    expect(byTestId(root, 'success-stub')?.getAttribute('data-search')).toBe('?kind=reset');
  });

  it('refuses the old password inline and stays', async () => {
    on(ACCOUNT_API.forgot, () => {
      throw new ApiError(400, 'PASSWORD_SAME_AS_OLD', 'The new password you entered cannot be the same as the original password');
    });
    const root = await mount();
    await toPassword(root);
    type(root, 'password', 'Fresh#2026');
    type(root, 'confirmPassword', 'Fresh#2026');
    await press(root, 'reset-submit');
    expect(step(root)).toBe('2');
    expect(byTestId(root, 'form-failure')?.textContent).toContain(
      'The new password you entered cannot be the same as the original password',
    );
  });

  it('offers to verify again when the ticket has expired', async () => {
    on(ACCOUNT_API.forgot, () => {
      throw new ApiError(400, 'RESET_EXPIRED', 'The verification has expired, please verify again');
    });
    const root = await mount();
    await toPassword(root);
    type(root, 'password', 'Fresh#2026');
    type(root, 'confirmPassword', 'Fresh#2026');
    await press(root, 'reset-submit');
    expect(byTestId(root, 'form-failure')?.getAttribute('data-errorcode')).toBe('RESET_EXPIRED');
    expect(byTestId<HTMLButtonElement>(root, 'reset-submit')?.disabled).toBe(true);
    await press(root, 'verify-again');
    expect(step(root)).toBe('1');
    expect(input(root, 'code').value).toBe('');
  });
});
