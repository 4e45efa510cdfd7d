// Registration and password retrieval. Retrieval goes account -> four-digit code by e-mail or
// SMS -> new password: codes are single use, expire, allow a few wrong tries, and only a few
// may be sent an hour; a right code yields a short-lived ticket for the new password.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  CODE_MAX_ATTEMPTS,
  CODE_MAX_SENDS_PER_HOUR,
  CODE_RESEND_MS,
  CODE_TTL_MS,
  RESET_TICKET_TTL_MS,
  VERIFICATION_CODE_LENGTH,
} from '@iotc/shared/constants';
import type {
  ForgotBody,
  RegisterBody,
  RegisterData,
  SendCodeBody,
  SendCodeData,
  UserModelData,
  VerifyCodeBody,
  VerifyCodeData,
} from '@iotc/shared/account';
import { emailSchema } from '@iotc/shared/account';
import { PRODUCT_TITLE, type Lang } from '@iotc/shared/i18n';
import { PATTERNS } from '@iotc/shared/validation';
import type { ClientMeta } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import { DeliveryError, type Messenger } from '../../lib/messenger.ts';
import type { AuditWriter } from '../audit/repo.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import type { AccountRepo } from './repo.ts';
import type { Tx } from '../../db/client.ts';

interface Deps {
  messenger: Messenger;
  audit: AuditWriter;
  /** Runs work in one transaction with the repository on it: a change and its audit row commit together. */
  atomically: <T>(work: (repo: AccountRepo, tx: Tx) => Promise<T>) => Promise<T>;
  captchas: { consume(id: string, answer: string): Promise<boolean> };
  now?: () => Date;
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
/** The code's hash is bound to its row, so equal codes of two users never look alike. */
const codeHash = (userId: string, code: string) => sha256(`${userId}:${code}`);

export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, local.length > 2 ? 2 : 1)}***@${domain}`;
}

export function maskPhone(phone: string): string {
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '****';
}

const validEmail = (v: string | null): v is string => v !== null && emailSchema.safeParse(v).success;
const validPhone = (v: string | null): v is string => v !== null && PATTERNS.mobileCN.test(v);

function codeMessage(code: string, lang: Lang): { subject: string; text: string } {
  const minutes = CODE_TTL_MS / 60_000;
  return lang === 'zh'
    ? {
        subject: `${PRODUCT_TITLE.zh}验证码`,
        text: `您正在找回${PRODUCT_TITLE.zh}账号密码，验证码：${code}，${minutes} 分钟内有效。如非本人操作，请忽略本消息。`,
      }
    : {
        subject: `${PRODUCT_TITLE.en} verification code`,
        text: `Your ${PRODUCT_TITLE.en} verification code is ${code}. It is valid for ${minutes} minutes. If you did not ask to reset your password, ignore this message.`,
      };
}

export function accountService(repo: AccountRepo, deps: Deps) {
  const now = deps.now ?? (() => new Date());

  /** The account of a retrieval: it must exist and be active (with its organisation). */
  async function activeUser(account: string) {
    const user = await repo.userByAccount(account.trim());
    if (!user || user.status !== 'active' || user.orgStatus !== 'active') throw new AppError(400, 'ACCOUNT_DEACTIVATED');
    return user;
  }

  /** An audit row in `q`, the transaction of the change it records. */
  const recordIn = (q: Tx, user: { id: string; orgId: string; account: string }, action: string, result: 'success' | 'failure', detail: string | null, meta: ClientMeta) =>
    deps.audit(q, { orgId: user.orgId, userId: user.id, account: user.account, action, result, detail, ...meta });
  /** An audit row on its own: a refusal, or a message sent (nothing in the database to pair it with). */
  const record = (user: { id: string; orgId: string; account: string }, action: string, result: 'success' | 'failure', detail: string | null, meta: ClientMeta) =>
    deps.atomically((_r, tx) => recordIn(tx, user, action, result, detail, meta));

  return {
    async register(body: RegisterBody, meta: ClientMeta): Promise<RegisterData> {
      if (!(await deps.captchas.consume(body.captchaId, body.captcha))) throw new AppError(400, 'CAPTCHA_ERROR');
      if (await repo.accountTaken(body.account)) throw new AppError(409, 'ACCOUNT_TAKEN');
      const passwordHash = await hashPassword(body.password);
      try {
        await deps.atomically(async (r, tx) => {
          const created = await r.register({ account: body.account, name: body.name, email: body.email, phone: body.phone ?? null, passwordHash }, body.orgName);
          await recordIn(tx, { id: created.userId, orgId: created.orgId, account: body.account }, 'register', 'success', body.orgName, meta);
        });
      } catch (error) {
        // Two registrations of one account at the same moment: the unique index decides.
        if (await repo.accountTaken(body.account)) throw new AppError(409, 'ACCOUNT_TAKEN');
        throw error;
      }
      return { account: body.account, orgName: body.orgName };
    },

    async userModel(account: string): Promise<UserModelData> {
      const user = await activeUser(account);
      return {
        account: user.account,
        email: validEmail(user.email) ? maskEmail(user.email) : null,
        phone: validPhone(user.phone) ? maskPhone(user.phone) : null,
      };
    },

    async sendCode(body: SendCodeBody, lang: Lang, meta: ClientMeta): Promise<SendCodeData> {
      const user = await activeUser(body.account);
      const to = body.channel === 'email' ? user.email : user.phone;
      if (body.channel === 'email' && !validEmail(to)) throw new AppError(400, 'EMAIL_UNBOUND');
      if (body.channel === 'sms' && !validPhone(to)) throw new AppError(400, 'SEND_SMS_FAILED');
      const t = now();
      const sent = await repo.codesSentSince(user.id, new Date(t.getTime() - 3_600_000));
      if (sent.last && t.getTime() - sent.last.getTime() < CODE_RESEND_MS) throw new AppError(429, 'CODE_RESEND_WAIT');
      if (sent.n >= CODE_MAX_SENDS_PER_HOUR) {
        await record(user, 'code_send', 'failure', 'CODE_SEND_LIMIT', meta);
        throw new AppError(429, 'CODE_SEND_LIMIT');
      }
      const code = String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, '0');
      const expiresAt = new Date(t.getTime() + CODE_TTL_MS);
      const id = await repo.insertCode({ userId: user.id, channel: body.channel, codeHash: codeHash(user.id, code), expiresAt });
      try {
        await deps.messenger.send({ orgId: user.orgId, channel: body.channel, to: to!, ...codeMessage(code, lang) });
      } catch (error) {
        if (!(error instanceof DeliveryError)) throw error;
        // An undelivered code does not count against the hourly limit.
        await repo.dropCode(id);
        await record(user, 'code_send', 'failure', body.channel, meta);
        throw new AppError(400, body.channel === 'email' ? 'SEND_MAIL_FAILED' : 'SEND_SMS_FAILED');
      }
      await record(user, 'code_send', 'success', body.channel, meta);
      const masked = body.channel === 'email' ? maskEmail(to!) : maskPhone(to!);
      return { channel: body.channel, to: masked, expiresAt: expiresAt.toISOString(), resendAfter: CODE_RESEND_MS / 1000 };
    },

    async verifyCode(body: VerifyCodeBody, meta: ClientMeta): Promise<VerifyCodeData> {
      const user = await activeUser(body.account);
      const row = await repo.latestCode(user.id, body.channel);
      if (!row || row.usedAt || row.expiresAt.getTime() <= now().getTime()) throw new AppError(400, 'CODE_EXPIRED');
      if (row.attempts >= CODE_MAX_ATTEMPTS) throw new AppError(429, 'CODE_TOO_MANY_ATTEMPTS');
      if (row.codeHash !== codeHash(user.id, body.code)) {
        const attempts = await repo.countAttempt(row.id, CODE_MAX_ATTEMPTS);
        await record(user, 'code_verify', 'failure', 'CODE_ERROR', meta);
        if (attempts === null || attempts >= CODE_MAX_ATTEMPTS) throw new AppError(429, 'CODE_TOO_MANY_ATTEMPTS');
        throw new AppError(400, 'CODE_ERROR');
      }
      const ticket = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now().getTime() + RESET_TICKET_TTL_MS);
      await deps.atomically(async (r, tx) => {
        if (!(await r.useCode(row.id, sha256(ticket), expiresAt))) throw new AppError(400, 'CODE_EXPIRED');
        await recordIn(tx, user, 'code_verify', 'success', body.channel, meta);
      });
      return { ticket, expiresAt: expiresAt.toISOString() };
    },

    async forgot(body: ForgotBody, meta: ClientMeta): Promise<void> {
      const user = await activeUser(body.account);
      const ticketHash = sha256(body.ticket);
      if (!(await repo.ticketValid(user.id, ticketHash))) throw new AppError(400, 'RESET_EXPIRED');
      if (await verifyPassword(user.passwordHash, body.password)) throw new AppError(400, 'PASSWORD_SAME_AS_OLD');
      const passwordHash = await hashPassword(body.password);
      await deps.atomically(async (r, tx) => {
        if (!(await r.resetWithTicket(user.id, ticketHash, passwordHash, user.account))) throw new AppError(400, 'RESET_EXPIRED');
        await recordIn(tx, user, 'password_reset', 'success', null, meta);
      });
    },

    purge: () => repo.purge(new Date(now().getTime() - 86_400_000)),
  };
}
export type AccountService = ReturnType<typeof accountService>;
