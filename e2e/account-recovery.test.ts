// Browser tests of the account lifecycle beyond sign-in: registering a new account with its own
// organisation (English), retrieving a password by an e-mailed code read from the server's
// outbox (Chinese), the bind-user page of an external sign-in (English), and the login page's
// external sign-in button against a provider that cannot be reached (Chinese).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { captchas, outbox, ssoFlows, verificationCodes } from '../apps/server/src/db/schema.ts';
import { addOrgUser, createTenantUser } from '../apps/server/src/test/fixtures.ts';
import { screenshot, startServer, type Server, withBrowser } from './harness.ts';

const LANDING = '/view/deviceManage/realTimeMonitoring';
let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

/** The answer of the captcha on screen, read from the server's own store. */
async function captchaAnswer(page: Page): Promise<string> {
  const img = page.locator('[data-testid=captcha-image]');
  await expect.poll(() => img.getAttribute('data-captcha-id')).toBeTruthy();
  const id = (await img.getAttribute('data-captcha-id'))!;
  const [row] = await server.app.database.db.select().from(captchas).where(eq(captchas.id, id));
  return row!.answer;
}

/** The four-digit code of the latest message sent to `recipient` (the server keeps it in its outbox). */
async function sentCode(recipient: string): Promise<string> {
  const [row] = await server.app.database.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, recipient), eq(outbox.channel, 'email')))
    .orderBy(desc(outbox.id))
    .limit(1);
  const code = row?.body.match(/\b(\d{4})\b/)?.[1];
  if (!code) throw new Error(`no code sent to ${recipient}`);
  return code;
}

async function signIn(page: Page, account: string, password: string) {
  await page.goto(`${server.url}/login`);
  await page.locator('#account').fill(account);
  await page.locator('#password').fill(password);
  await page.locator('#login-submit').click();
}

describe('register (English)', () => {
  it('refuses a taken account, then registers a new one and signs in with it', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await page.goto(`${server.url}/login`);
      // No provider configured: no external sign-in offered.
      await page.locator('#register-link').waitFor();
      expect(await page.locator('[data-testid=sso-login]').count()).toBe(0);
      await screenshot(page, 'login-en');
      await page.locator('#register-link').click();
      await page.waitForURL('**/view/login/newUser');
      await page.locator('[data-testid=register-page]').waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('account');
      await screenshot(page, 'register-en');

      // Client rules first, in the shared words.
      await page.locator('[data-testid=register-submit]').click();
      await page.getByText('Account cannot be empty').first().waitFor();
      await page.getByText('Organisation name cannot be empty').first().waitFor();
      await screenshot(page, 'register-en-rules');

      const fill = async (account: string) => {
        await page.locator('#account').fill(account);
        await page.locator('#name').fill('Registered User');
        await page.locator('#orgName').fill('Northwind Cold Chain');
        await page.locator('#email').fill('registered@example.com');
        await page.locator('#phone').fill('13800138000');
        await page.locator('#password').fill('Fresh#2026');
        await page.locator('#confirmPassword').fill('Fresh#2026');
        await page.locator('#captcha').fill(await captchaAnswer(page));
      };

      await fill('demo');
      await page.locator('[data-testid=register-submit]').click();
      const failure = page.locator('[data-testid=form-failure]');
      await expect.poll(() => failure.getAttribute('data-errorcode')).toBe('ACCOUNT_TAKEN');
      expect(await failure.textContent()).toContain('This account already exists, please choose another one');
      await screenshot(page, 'register-en-taken');

      await fill('northwind.ops');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/view/login/successPage?kind=registered');
      expect(await page.locator('[data-testid=success-title]').textContent()).toBe('Registration successful');
      expect(await page.locator('[data-testid=success-hint]').textContent()).toContain('northwind.ops');
      await screenshot(page, 'success-registered-en');

      await page.locator('[data-testid=go-to-login]').click();
      await page.waitForURL((u) => u.pathname === '/login');
      await page.locator('#account').fill('northwind.ops');
      await page.locator('#password').fill('Fresh#2026');
      await page.locator('#login-submit').click();
      await page.waitForURL((u) => u.pathname !== '/login');
    });
  });
});

describe('retrieve password by e-mail (Chinese)', () => {
  it('walks account, code (a wrong one first), new password, success; the new password signs in', async () => {
    const { org } = await createTenantUser(server.app.database.db, { code: 'rcv1', account: 'rcv-owner', password: 'Owner#2026' });
    await addOrgUser(server.app.database.db, {
      orgId: org.id,
      account: 'forgetful',
      password: 'Old#20260',
      roleCodes: ['op'],
      email: 'forgetful@example.com',
    });

    await withBrowser('zh-CN', async ({ page }) => {
      await page.goto(`${server.url}/login`);
      await page.locator('#forgot-password').click();
      await page.waitForURL('**/view/login/retrievepasswordPage');
      const root = page.locator('[data-testid=retrieve-page]');
      await root.waitFor();
      expect(await page.title()).toBe('物联网云平台');
      await screenshot(page, 'retrieve-zh-account');

      // (a) An unknown account, then the right one.
      await page.locator('#account').fill('nobody-here');
      await page.locator('[data-testid=retrieve-next]').click();
      await expect
        .poll(() => page.locator('[data-testid=form-failure]').textContent())
        .toContain('账号不存在或已停用，请重新输入');
      await page.locator('#account').fill('forgetful');
      await page.keyboard.press('Enter');
      await expect.poll(() => root.getAttribute('data-step')).toBe('1');

      // (b) E-mail offered with the masked address, SMS not bound.
      expect(await page.locator('[data-testid=channel-email]').isChecked()).toBe(true);
      expect(await page.locator('[data-testid=channel-sms]').isDisabled()).toBe(true);
      expect(await page.locator('[data-testid=channel-email-to]').textContent()).not.toContain('forgetful@');
      await page.locator('[data-testid=verify-code]').click();
      await page.getByText('请输入验证码').first().waitFor();
      await page.locator('#code').fill('12');
      await page.locator('[data-testid=verify-code]').click();
      await page.getByText('请输入四位数字验证码').first().waitFor();

      await page.locator('[data-testid=send-code]').click();
      await page.locator('[data-testid=code-sent]').waitFor();
      await expect.poll(() => page.locator('[data-testid=send-code]').textContent()).toMatch(/^\d+ 秒后重新获取$/);
      expect(await page.locator('[data-testid=send-code]').isDisabled()).toBe(true);
      const code = await sentCode('forgetful@example.com');
      const wrong = code === '0000' ? '1111' : '0000';
      await page.locator('#code').fill(wrong);
      await page.locator('[data-testid=verify-code]').click();
      await expect.poll(() => page.locator('[data-testid=form-failure]').getAttribute('data-errorcode')).toBe('CODE_ERROR');
      expect(await page.locator('[data-testid=form-failure]').textContent()).toContain('验证码输入有误，请重新输入');
      await screenshot(page, 'retrieve-zh-verify');

      await page.locator('#code').fill(code);
      await page.keyboard.press('Enter');
      await expect.poll(() => root.getAttribute('data-step')).toBe('2');

      // (c) The new password: rules first, then the real one.
      await page.locator('#password').fill('weakweak');
      await page.locator('#confirmPassword').fill('weakweak');
      await page.locator('[data-testid=reset-submit]').click();
      await page.getByText('您输入的密码格式有误，请重新输入').first().waitFor();
      await screenshot(page, 'retrieve-zh-password');
      await page.locator('#password').fill('Found#2026');
      await page.locator('#confirmPassword').fill('Found#2026');
      await page.locator('[data-testid=reset-submit]').click();

      // (d) Success, then sign in with the new password.
      await page.waitForURL('**/view/login/successPage?kind=reset');
      expect(await page.locator('[data-testid=success-title]').textContent()).toBe('密码重置成功');
      await screenshot(page, 'success-reset-zh');
      await signIn(page, 'forgetful', 'Found#2026');
      await page.waitForURL(`**${LANDING}`);
    });
  });
});

describe('register (Chinese)', () => {
  it('names a mismatched confirmation and a taken account in Chinese', async () => {
    await withBrowser('zh-CN', async ({ page }) => {
      await page.goto(`${server.url}/view/login/newUser`);
      await page.locator('[data-testid=register-page]').waitFor();
      await page.locator('#account').fill('DEMO');
      await page.locator('#name').fill('王芳');
      await page.locator('#orgName').fill('华东冷链');
      await page.locator('#email').fill('wangfang@example.com');
      await page.locator('#password').fill('Fresh#2026');
      await page.locator('#confirmPassword').fill('Fresh#2027');
      await page.locator('#captcha').fill(await captchaAnswer(page));
      await page.locator('[data-testid=register-submit]').click();
      await page.getByText('您输入的新密码与确认密码不一致').first().waitFor();
      await page.locator('#confirmPassword').fill('Fresh#2026');
      await page.locator('[data-testid=register-submit]').click();
      const failure = page.locator('[data-testid=form-failure]');
      await expect.poll(() => failure.getAttribute('data-errorcode')).toBe('ACCOUNT_TAKEN');
      expect(await failure.textContent()).toContain('该账号已存在，请更换');
    });
  });
});

describe('retrieve password by SMS (English)', () => {
  it('refuses an expired code and the old password, then resets', async () => {
    const { org } = await createTenantUser(server.app.database.db, { code: 'rcv2', account: 'rcv2-owner', password: 'Owner#2026' });
    await addOrgUser(server.app.database.db, { orgId: org.id, account: 'texter', password: 'Old#20260', roleCodes: ['op'], phone: '13911112222' });

    await withBrowser('en-US', async ({ page }) => {
      await page.goto(`${server.url}/view/login/retrievepasswordPage`);
      const root = page.locator('[data-testid=retrieve-page]');
      await page.locator('#account').fill('texter');
      await page.keyboard.press('Enter');
      await expect.poll(() => root.getAttribute('data-step')).toBe('1');
      expect(await page.locator('[data-testid=channel-email]').isDisabled()).toBe(true);
      expect(await page.locator('[data-testid=channel-sms-to]').textContent()).toContain('139****2222');
      await page.locator('[data-testid=channel-sms]').check();
      await page.locator('[data-testid=send-code]').click();
      await page.locator('[data-testid=code-sent]').waitFor();
      const [row] = await server.app.database.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.recipient, '13911112222'), eq(outbox.channel, 'sms')))
        .orderBy(desc(outbox.id))
        .limit(1);
      const code = row!.body.match(/\b(\d{4})\b/)![1]!;
      // The code outlives its ten minutes.
      await server.app.database.db.update(verificationCodes).set({ expiresAt: new Date(Date.now() - 1000) });
      await page.locator('#code').fill(code);
      await page.locator('[data-testid=verify-code]').click();
      await expect.poll(() => page.locator('[data-testid=form-failure]').getAttribute('data-errorcode')).toBe('CODE_EXPIRED');
      expect(await page.locator('[data-testid=form-failure]').textContent()).toContain(
        'The verification code has expired or has already been used, please get a new one',
      );
      await server.app.database.db.update(verificationCodes).set({ expiresAt: new Date(Date.now() + 600_000), usedAt: null });
      await page.locator('#code').fill(code);
      await page.locator('[data-testid=verify-code]').click();
      await expect.poll(() => root.getAttribute('data-step')).toBe('2');

      await page.locator('#password').fill('Old#20260');
      await page.locator('#confirmPassword').fill('Old#20260');
      await page.locator('[data-testid=reset-submit]').click();
      await expect.poll(() => page.locator('[data-testid=form-failure]').getAttribute('data-errorcode')).toBe('PASSWORD_SAME_AS_OLD');
      expect(await page.locator('[data-testid=form-failure]').textContent()).toContain(
        'The new password you entered cannot be the same as the original password',
      );
      await page.locator('#password').fill('Texted#2026');
      await page.locator('#confirmPassword').fill('Texted#2026');
      await page.locator('[data-testid=reset-submit]').click();
      await page.waitForURL('**/view/login/successPage?kind=reset');
    });
  });
});

describe('bind user (English)', () => {
  it('without a pending external sign-in, and none configured, says it is not configured and leads to login', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await page.goto(`${server.url}/view/login/bindUserPage`);
      await page.locator('[data-testid=bind-not-configured]').waitFor();
      expect(await page.locator('[data-testid=bind-not-configured]').textContent()).toBe('External sign-in is not configured');
      await screenshot(page, 'bind-en-expired');
      await page.locator('[data-testid=bind-to-login]').click();
      await page.waitForURL((u) => u.pathname === '/login');
    });
  });

  it('binds a pending external sign-in to an account and opens the console', async () => {
    const openid = 'pending-e2e-1';
    await server.app.database.db.insert(ssoFlows).values({
      idHash: createHash('sha256').update(openid).digest('hex'),
      kind: 'pending',
      issuer: 'https://idp.example.com',
      subject: 'ext-user-1',
      expiresAt: new Date(Date.now() + 5 * 60_000),
    });
    await withBrowser('en-US', async ({ page }) => {
      await page.goto(`${server.url}/view/login/bindUserPage?openid=${openid}`);
      await page.locator('[data-testid=bind-page]').waitFor();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('account');
      await page.locator('[data-testid=bind-submit]').click();
      await page.getByText('Account cannot be empty').first().waitFor();
      await page.getByText('Password cannot be empty').first().waitFor();
      await screenshot(page, 'bind-en');

      await page.locator('#account').fill('demo');
      await page.locator('#password').fill('Wrong#2026');
      await page.locator('[data-testid=bind-submit]').click();
      await expect
        .poll(() => page.locator('[data-testid=form-failure]').getAttribute('data-errorcode'))
        .toBe('USERNAME_PASSWORD_ERROR');
      // The spec's text where it names the user name (userCode): the binding (issue 21, item 6).
      expect(await page.locator('[data-testid=form-failure]').textContent()).toContain('Username or password error, please re-enter');

      await page.locator('#password').fill('Demo@2026');
      await page.keyboard.press('Enter');
      await page.locator('[data-testid=bind-success]').waitFor();
      expect(await page.locator('[data-testid=bind-success]').textContent()).toBe('Bind successfully, about to jump to page');
      await page.waitForURL(`**${LANDING}`);
    });
  });

  it('the login page shows the text of an external sign-in failure', async () => {
    await withBrowser('en-US', async ({ page }) => {
      await page.goto(`${server.url}/login?ssoError=BIND_EXPIRED`);
      await expect
        .poll(() => page.locator('[data-testid=sso-error]').textContent())
        .toContain('The external sign-in has expired, please sign in with the external account again');
    });
  });
});

describe('external sign-in on the login page (Chinese)', () => {
  // A provider that cannot be reached: the start fails on the server, which sends the browser
  // back to the login page with the failure's code.
  let sso: Server;
  beforeAll(async () => {
    sso = await startServer({ oidc: { issuer: 'http://127.0.0.1:9/realms/test', clientId: 'console', name: 'Test IdP' } });
  });
  afterAll(async () => {
    await sso.close();
  });

  it('offers the provider by name; a failed start comes back as an inline error', async () => {
    await withBrowser('zh-CN', async ({ page }) => {
      await page.goto(`${sso.url}/login`);
      const button = page.locator('[data-testid=sso-login]');
      await button.waitFor();
      expect(await button.textContent()).toBe('使用 Test IdP 登录');
      await screenshot(page, 'login-sso-zh');
      await button.click();
      await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('ssoError') === 'SSO_FAILED');
      await expect.poll(() => page.locator('[data-testid=sso-error]').textContent()).toContain('第三方登录失败，请重试');
    });
  });
});
