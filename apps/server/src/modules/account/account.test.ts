// Registration and password retrieval through inject(), with real delivery: mail goes to an SMTP
// server started here (the code is read out of the received message), texts to an HTTP SMS
// gateway started here; a second app without transports keeps them in the outbox.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import type { LoginData, UserInfo } from '@iotc/shared/auth';
import type { SendCodeData, UserModelData, VerifyCodeData } from '@iotc/shared/account';
import { call, DEMO_PASSWORD, login, testApp, type TestApp } from '../../test/harness.ts';
import { auditLogs, orgs, outbox, users, verificationCodes } from '../../db/schema.ts';
import { addOrgUser } from '../../test/fixtures.ts';

const API = {
  register: '/api/iot/v2/registrations',
  model: '/iot-cloud-auth/auth/v1/sysUserModel',
  send: '/iot-cloud-auth/auth/v1/sendMail',
  verify: '/iot-cloud-auth/auth/v1/mailVerify',
  forgot: '/iot-cloud-auth/auth/v1/forgot',
};

interface Mail {
  to: string;
  subject: string;
  text: string;
}
const mails: Mail[] = [];
/** Recipients the SMTP server refuses, like a real server refusing an unknown mailbox. */
const refused = new Set<string>();
let smtp: SMTPServer;
const texts: { to: string; text: string }[] = [];
let gatewayStatus = 200;
let gateway: Server;
let t: TestApp;
let plain: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, cb) {
      cb(refused.has(address.address) ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : undefined);
    },
    onData(stream, _session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => void PostalMime.parse(Buffer.concat(chunks)).then(
        (m) => {
          mails.push({ to: m.to?.[0]?.address ?? '', subject: m.subject ?? '', text: m.text ?? '' });
          cb();
        },
        (err: Error) => cb(err),
      ));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  gateway = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (gatewayStatus === 200) texts.push(JSON.parse(body) as { to: string; text: string });
      res.writeHead(gatewayStatus, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const gatewayPort = (gateway.address() as AddressInfo).port;
  t = await testApp({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, smsGatewayUrl: `http://127.0.0.1:${gatewayPort}/send` });
  plain = await testApp();
});
afterAll(async () => {
  await Promise.all([t.close(), plain.close()]);
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await new Promise<void>((resolve) => gateway.close(() => resolve()));
});
beforeEach(() => {
  gatewayStatus = 200;
});

async function captcha(app = t) {
  const c = await app.app.captchaService.create();
  return { captchaId: c.id, captcha: c.answer };
}

let n = 0;
/** A fresh user of the demo organisation with a mailbox and a mobile number. */
async function person(app = t, opts: { email?: string | null; phone?: string | null } = {}) {
  n += 1;
  const account = `ret${n}`;
  const orgId = (await app.app.database.db.select().from(orgs).where(eq(orgs.code, 'demo')))[0]!.id;
  await addOrgUser(app.app.database.db, {
    orgId,
    account,
    password: 'Old#2026x',
    roleCodes: ['operator'],
    email: opts.email === null ? undefined : (opts.email ?? `${account}@example.com`),
    phone: opts.phone === null ? undefined : (opts.phone ?? `1380000${String(1000 + n)}`),
  });
  return { account, password: 'Old#2026x', email: `${account}@example.com`, phone: `1380000${String(1000 + n)}` };
}

const post = <T>(url: string, body: unknown, lang: 'zh-CN' | 'en-US' = 'en-US', app = t) => call<T>(app.app, { method: 'POST', url, body, lang });

/** The last code mailed to an address, read from the received message. */
function mailedCode(to: string): string {
  const mail = mails.filter((m) => m.to === to).at(-1);
  expect(mail, `a mail to ${to}`).toBeDefined();
  return /\b(\d{4})\b/.exec(mail!.text)![1]!;
}

/** Lets the next code be asked for at once (the one-a-minute rule is tested on its own). */
async function backdateCodes(app = t) {
  await app.app.database.db.update(verificationCodes).set({ createdAt: sql`created_at - interval '61 seconds'` });
}

describe('register', () => {
  const body = async (over: Record<string, unknown> = {}) => ({
    account: 'newco.admin',
    name: 'Li Lei',
    orgName: 'New Cold Chain Ltd.',
    email: 'lilei@newco.example',
    phone: '13912345678',
    password: 'Newco#2026',
    confirmPassword: 'Newco#2026',
    ...(await captcha()),
    ...over,
  });

  it('creates the account with its own organisation, whose administrator it is', async () => {
    const r = await post<{ account: string; orgName: string }>(API.register, await body());
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ account: 'newco.admin', orgName: 'New Cold Chain Ltd.' });
    const signedIn = await call<LoginData>(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/login', body: { account: 'newco.admin', password: 'Newco#2026' } });
    expect(signedIn.status).toBe(200);
    const info: UserInfo = signedIn.body.data!.user;
    expect(info).toMatchObject({ orgName: 'New Cold Chain Ltd.', roles: ['org_admin'], isPlatformAdmin: false, mustChangePassword: false });
    expect(info.permissions).toContain('user:write');
    const [org] = await t.app.database.db.select().from(orgs).where(eq(orgs.id, info.orgId));
    expect(org).toMatchObject({ kind: 'tenant', status: 'active' });
    // The new organisation sees its own users only.
    const list = await call<{ rows: { account: string }[] }>(t.app, { method: 'GET', url: '/api/iot/v2/users', token: signedIn.body.data!.token });
    expect(list.body.data!.rows.map((u) => u.account)).toEqual(['newco.admin']);
    const [audit] = await t.app.database.db.select().from(auditLogs).where(eq(auditLogs.action, 'register'));
    expect(audit).toMatchObject({ account: 'newco.admin', result: 'success', orgId: info.orgId });
  });

  it('refuses a taken account, a used or wrong captcha, and each broken field with the spec text', async () => {
    const taken = await post(API.register, await body({ account: 'DEMO' }), 'zh-CN');
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ errorcode: 'ACCOUNT_TAKEN', errormsg: '该账号已存在，请更换' });

    const c = await captcha();
    expect((await post(API.register, await body({ account: 'reg.one', ...c }))).status).toBe(200);
    const reused = await post(API.register, await body({ account: 'reg.two', ...c }));
    expect(reused.body.errorcode).toBe('CAPTCHA_ERROR');
    const wrong = await post(API.register, await body({ account: 'reg.two', captcha: 'zzzz' }));
    expect(wrong.body).toMatchObject({ errorcode: 'CAPTCHA_ERROR', errormsg: 'There is an error in the input of the verification code, please re-enter' });

    const cases: [Record<string, unknown>, string, string][] = [
      [{ password: 'short1', confirmPassword: 'short1' }, 'PASSWORD_FORMAT', 'The password you entered is in the wrong format, please re-enter it'],
      [{ password: 'onlyletters', confirmPassword: 'onlyletters' }, 'PASSWORD_FORMAT', 'The password you entered is in the wrong format, please re-enter it'],
      [{ confirmPassword: 'Other#2026' }, 'PASSWORD_CONFIRM_MISMATCH', 'The new password you entered is not the same as the confirmation password'],
      [{ email: 'not-a-mail' }, 'EMAIL_FORMAT', 'Please enter a valid e-mail address'],
      [{ phone: '12345' }, 'MOBILE_FORMAT', 'Please enter a valid mainland mobile number'],
      [{ account: 'a b' }, 'ACCOUNT_FORMAT', 'The account must be 4-32 letters, digits or the symbols _ . - @'],
      [{ account: '' }, 'ACCOUNT_REQUIRED', 'Account cannot be empty'],
      [{ orgName: ' ' }, 'ORG_NAME_REQUIRED', 'Organisation name cannot be empty'],
    ];
    for (const [over, code, text] of cases) {
      const r = await post(API.register, await body({ account: 'reg.bad', ...over }));
      expect(r.status, code).toBe(400);
      expect(r.body, code).toMatchObject({ errorcode: code, errormsg: text });
    }
    const zh = await post(API.register, await body({ account: 'reg.bad', password: '密码密码12345', confirmPassword: '密码密码12345' }), 'zh-CN');
    expect(zh.body.errormsg).toBe('您输入的密码格式有误，请重新输入');
    // Nothing of the refused attempts was created.
    expect(await t.app.database.db.select().from(users).where(eq(users.account, 'reg.bad'))).toHaveLength(0);
  });
});

describe('password retrieval', () => {
  it('goes account -> mailed code -> new password, over real SMTP, and ends every session', async () => {
    const p = await person();
    const session = await login(t.app, p.account, p.password);
    const model = await post<UserModelData>(API.model, { account: p.account });
    expect(model.body.data).toEqual({ account: p.account, email: `${p.account.slice(0, 2)}***@example.com`, phone: `138****${p.phone.slice(-4)}` });

    const sent = await post<SendCodeData>(API.send, { account: p.account, channel: 'email' }, 'zh-CN');
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ channel: 'email', to: model.body.data!.email, resendAfter: 60 });
    const mail = mails.filter((m) => m.to === p.email).at(-1)!;
    expect(mail.subject).toBe('物联网云平台验证码');
    expect(mail.text).toContain('10 分钟内有效');
    const code = mailedCode(p.email);

    const verified = await post<VerifyCodeData>(API.verify, { account: p.account, channel: 'email', code });
    expect(verified.status).toBe(200);
    const ticket = verified.body.data!.ticket;
    const done = await post(API.forgot, { account: p.account, ticket, password: 'New#2026y', confirmPassword: 'New#2026y' });
    expect(done.status).toBe(200);

    expect((await call(t.app, { method: 'POST', url: '/iot-cloud-auth/auth/v1/info', token: session })).status).toBe(401);
    expect(await login(t.app, p.account, 'New#2026y')).toBeTruthy();
    // The ticket and the code are both used up.
    expect((await post(API.forgot, { account: p.account, ticket, password: 'Next#2026z', confirmPassword: 'Next#2026z' })).body.errorcode).toBe('RESET_EXPIRED');
    const again = await post(API.verify, { account: p.account, channel: 'email', code });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ errorcode: 'CODE_EXPIRED', errormsg: 'The verification code has expired or has already been used, please get a new one' });
    const actions = (await t.app.database.db.select().from(auditLogs).where(eq(auditLogs.account, p.account))).map((a) => `${a.action}:${a.result}`);
    expect(actions).toEqual(expect.arrayContaining(['code_send:success', 'code_verify:success', 'password_reset:success']));
    expect(JSON.stringify(actions)).not.toContain(code);
  });

  it('texts the code through the SMS gateway', async () => {
    const p = await person();
    const sent = await post<SendCodeData>(API.send, { account: p.account, channel: 'sms' });
    expect(sent.body.data).toMatchObject({ channel: 'sms', to: `138****${p.phone.slice(-4)}` });
    const text = texts.filter((m) => m.to === p.phone).at(-1)!;
    expect(text.text).toMatch(/verification code is \d{4}/);
    const code = /(\d{4})/.exec(text.text)![1]!;
    // A code is bound to its channel.
    expect((await post(API.verify, { account: p.account, channel: 'email', code })).body.errorcode).toBe('CODE_EXPIRED');
    expect((await post(API.verify, { account: p.account, channel: 'sms', code })).status).toBe(200);
  });

  it('says why a code cannot be sent: unknown or deactivated account, no mailbox, no mobile, refused delivery', async () => {
    const unknown = await post(API.model, { account: 'nobody-here' }, 'zh-CN');
    expect(unknown.body).toMatchObject({ errorcode: 'ACCOUNT_DEACTIVATED', errormsg: '账号不存在或已停用，请重新输入' });
    const off = await person();
    await t.app.database.db.update(users).set({ status: 'disabled' }).where(eq(users.account, off.account));
    expect((await post(API.send, { account: off.account, channel: 'email' })).body).toMatchObject({
      errorcode: 'ACCOUNT_DEACTIVATED',
      errormsg: 'Account number does not exist or has been deactivated, please re-enter',
    });

    const bare = await person(t, { email: null, phone: null });
    expect((await post<UserModelData>(API.model, { account: bare.account })).body.data).toMatchObject({ email: null, phone: null });
    expect((await post(API.send, { account: bare.account, channel: 'email' })).body).toMatchObject({
      errorcode: 'EMAIL_UNBOUND',
      errormsg: 'The email address bound to the account is empty or incorrectly formatted',
    });
    expect((await post(API.send, { account: bare.account, channel: 'sms' })).body).toMatchObject({
      errorcode: 'SEND_SMS_FAILED',
      errormsg: 'Verification code failed to send, please bind the correct cell phone number!',
    });

    const bounced = await person();
    refused.add(bounced.email);
    const mailFail = await post(API.send, { account: bounced.account, channel: 'email' }, 'zh-CN');
    expect(mailFail.body).toMatchObject({ errorcode: 'SEND_MAIL_FAILED', errormsg: '验证码发送失败，请绑定正确的邮箱！' });
    gatewayStatus = 500;
    expect((await post(API.send, { account: bounced.account, channel: 'sms' })).body.errorcode).toBe('SEND_SMS_FAILED');
    const failed = await t.app.database.db.select().from(outbox).where(and(eq(outbox.recipient, bounced.email), eq(outbox.status, 'failed')));
    expect(failed).toHaveLength(1);
    // Undelivered codes do not use up the hourly allowance.
    const [bouncedUser] = await t.app.database.db.select().from(users).where(eq(users.account, bounced.account));
    expect(await t.app.database.db.select().from(verificationCodes).where(eq(verificationCodes.userId, bouncedUser!.id))).toHaveLength(0);
  });

  it('refuses a wrong code, then too many wrong codes, even with the right one after', async () => {
    const p = await person();
    await post(API.send, { account: p.account, channel: 'email' });
    const code = mailedCode(p.email);
    const wrongCode = code === '0000' ? '1111' : '0000';
    for (let i = 1; i <= 4; i++) {
      const r = await post(API.verify, { account: p.account, channel: 'email', code: wrongCode }, 'zh-CN');
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ errorcode: 'CODE_ERROR', errormsg: '验证码输入有误，请重新输入' });
    }
    const fifth = await post(API.verify, { account: p.account, channel: 'email', code: wrongCode });
    expect(fifth.status).toBe(429);
    expect(fifth.body).toMatchObject({ errorcode: 'CODE_TOO_MANY_ATTEMPTS', errormsg: 'Too many wrong verification codes, please get a new one' });
    const right = await post(API.verify, { account: p.account, channel: 'email', code });
    expect(right.status).toBe(429);
    // A new code starts afresh.
    await backdateCodes();
    await post(API.send, { account: p.account, channel: 'email' });
    expect((await post(API.verify, { account: p.account, channel: 'email', code: mailedCode(p.email) })).status).toBe(200);
  });

  it('refuses an expired code and a code replaced by a newer one', async () => {
    const p = await person();
    await post(API.send, { account: p.account, channel: 'email' });
    const first = mailedCode(p.email);
    await t.app.database.db.update(verificationCodes).set({ expiresAt: sql`now() - interval '1 second'` });
    expect((await post(API.verify, { account: p.account, channel: 'email', code: first })).body.errorcode).toBe('CODE_EXPIRED');
    await backdateCodes();
    await post(API.send, { account: p.account, channel: 'email' });
    const second = mailedCode(p.email);
    await backdateCodes();
    await post(API.send, { account: p.account, channel: 'email' });
    const third = mailedCode(p.email);
    if (second !== third) expect((await post(API.verify, { account: p.account, channel: 'email', code: second })).status).toBe(400);
    expect((await post(API.verify, { account: p.account, channel: 'email', code: third })).status).toBe(200);
  });

  it('sends one code a minute and five an hour', async () => {
    const p = await person();
    expect((await post(API.send, { account: p.account })).status).toBe(200);
    const soon = await post(API.send, { account: p.account }, 'zh-CN');
    expect(soon.status).toBe(429);
    expect(soon.body.errorcode).toBe('CODE_RESEND_WAIT');
    for (let i = 0; i < 4; i++) {
      await backdateCodes();
      expect((await post(API.send, { account: p.account })).status).toBe(200);
    }
    await backdateCodes();
    const sixth = await post(API.send, { account: p.account });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toMatchObject({ errorcode: 'CODE_SEND_LIMIT', errormsg: 'Too many verification codes have been sent, please try again in an hour' });
  });

  it('checks the code format and the new password: rule, confirmation, same as the old one', async () => {
    const p = await person();
    expect((await post(API.verify, { account: p.account, channel: 'email', code: '' }, 'en-US')).body).toMatchObject({
      errorcode: 'CODE_REQUIRED',
      errormsg: 'Please input the verification code',
    });
    expect((await post(API.verify, { account: p.account, channel: 'email', code: '12a4' })).body).toMatchObject({
      errorcode: 'CODE_FORMAT',
      errormsg: 'Please input a four-digit verification code',
    });
    await post(API.send, { account: p.account });
    const { ticket } = (await post<VerifyCodeData>(API.verify, { account: p.account, channel: 'email', code: mailedCode(p.email) })).body.data!;
    const attempt = (password: string, confirmPassword = password) => post(API.forgot, { account: p.account, ticket, password, confirmPassword }, 'zh-CN');
    expect((await attempt('weak')).body).toMatchObject({ errorcode: 'PASSWORD_FORMAT', errormsg: '您输入的密码格式有误，请重新输入' });
    expect((await attempt('Good#2026', 'Good#2027')).body).toMatchObject({ errorcode: 'PASSWORD_CONFIRM_MISMATCH', errormsg: '您输入的新密码与确认密码不一致' });
    expect((await attempt(p.password)).body).toMatchObject({ errorcode: 'PASSWORD_SAME_AS_OLD', errormsg: '您输入的新密码不能与原密码相同' });
    // The ticket survived the refusals and still works; another account cannot use it.
    expect((await post(API.forgot, { account: 'demo', ticket, password: 'Good#2026', confirmPassword: 'Good#2026' })).body.errorcode).toBe('RESET_EXPIRED');
    expect(await login(t.app, 'demo', DEMO_PASSWORD)).toBeTruthy();
    expect((await attempt('Good#2026')).status).toBe(200);
  });

  it('keeps mail in the outbox and the log when no SMTP server is configured', async () => {
    const p = await person(plain);
    const sent = await post<SendCodeData>(API.send, { account: p.account, channel: 'email' }, 'en-US', plain);
    expect(sent.status).toBe(200);
    const [kept] = await plain.app.database.db.select().from(outbox).where(eq(outbox.recipient, p.email));
    expect(kept).toMatchObject({ channel: 'email', status: 'outbox', subject: 'IoT Cloud Console verification code' });
    const code = /(\d{4})/.exec(kept!.body)![1]!;
    expect((await post(API.verify, { account: p.account, channel: 'email', code }, 'en-US', plain)).status).toBe(200);
  });
});
