// Delivery of the platform's messages: mail over SMTP (nodemailer) when SMTP_URL is set, texts
// through an HTTP SMS gateway when SMS_GATEWAY_URL is set. Without a transport a message goes to
// the outbox table, and the log says which row (never its text: it may hold a verification code),
// so a fresh install still shows its codes to whoever can read the database. Every message,
// delivered or not, is recorded in the outbox with its status.
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { outbox } from '../db/schema.ts';

export interface Message {
  orgId: string | null;
  channel: 'email' | 'sms';
  to: string;
  subject?: string;
  text: string;
  /** Files sent with an e-mail (the outbox keeps their names, not their content). */
  attachments?: MessageAttachment[];
}

export interface MessageAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export class DeliveryError extends Error {}

/** Sends one text through an SMS gateway; the adapter is the only piece that knows the vendor. */
export interface SmsGateway {
  send(to: string, text: string): Promise<void>;
}

/**
 * The generic HTTP adapter: POST `{ "to", "text" }` as JSON, optional bearer token, any 2xx is
 * accepted. Vendors with other shapes get an adapter of their own behind the same interface.
 */
export function httpSmsGateway(url: string, token?: string, timeoutMs = 10_000): SmsGateway {
  return {
    async send(to, text) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ to, text }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) throw new DeliveryError(`SMS gateway answered ${res.status}`);
    },
  };
}

export interface MessengerOptions {
  db: Db;
  log: FastifyBaseLogger;
  smtpUrl?: string;
  mailFrom: string;
  sms?: SmsGateway;
}

export function messenger(opts: MessengerOptions) {
  const mail: Transporter | undefined = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl, { from: opts.mailFrom })
    : undefined;

  async function record(m: Message, status: 'outbox' | 'sent' | 'failed', error?: string): Promise<number> {
    const [row] = await opts.db.insert(outbox).values({
      orgId: m.orgId,
      channel: m.channel,
      recipient: m.to,
      subject: m.subject ?? null,
      body: m.attachments?.length ? `${m.text}\n\n[attachments: ${m.attachments.map((a) => a.filename).join(', ')}]` : m.text,
      status,
      error: error ?? null,
    }).returning({ id: outbox.id });
    return row!.id;
  }

  return {
    /** Where mail and texts go, for the start banner and the README. */
    transports: { email: mail ? 'smtp' : 'outbox', sms: opts.sms ? 'gateway' : 'outbox' } as const,

    /** Delivers the message or throws DeliveryError (recorded as failed). */
    async send(m: Message): Promise<'sent' | 'outbox'> {
      const transport = m.channel === 'email' ? mail : opts.sms;
      if (!transport) {
        const id = await record(m, 'outbox');
        // The default delivery: the operator reads the message in the outbox table, at the row
        // named here. Its text stays out of the log (verification codes, anything personal).
        opts.log.info(
          { outbox: { id, table: 'outbox', channel: m.channel, to: m.to, subject: m.subject, attachments: m.attachments?.map((a) => a.filename) } },
          'message kept in the outbox',
        );
        return 'outbox';
      }
      try {
        if (m.channel === 'email') await mail!.sendMail({ to: m.to, subject: m.subject, text: m.text, attachments: m.attachments });
        else await opts.sms!.send(m.to, m.text);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await record(m, 'failed', reason.slice(0, 500));
        opts.log.warn({ channel: m.channel, to: m.to, err: reason }, 'message delivery failed');
        throw new DeliveryError(reason);
      }
      await record(m, 'sent');
      return 'sent';
    },

    close() {
      mail?.close();
    },
  };
}
export type Messenger = ReturnType<typeof messenger>;
