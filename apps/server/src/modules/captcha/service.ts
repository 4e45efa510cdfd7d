// Image captchas: an SVG drawn by svg-captcha, its answer kept server-side for five minutes,
// consumed by its first check whatever the outcome, so one image allows one guess.
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import svgCaptcha from 'svg-captcha';
import type { Captcha } from '@iotc/shared/auth';
import type { Db } from '../../db/client.ts';
import { captchas } from '../../db/schema.ts';

export const CAPTCHA_TTL_MS = 5 * 60_000;

export function captchaService(db: Db, opts: { now?: () => Date } = {}) {
  const now = opts.now ?? (() => new Date());
  return {
    async create(): Promise<Captcha & { answer: string }> {
      // Characters that are easy to confuse are left out; grey on the page's light box reads
      // better than svg-captcha's random pale colours (a background option would force those).
      const drawn = svgCaptcha.create({ size: 4, noise: 2, ignoreChars: '0oO1iIlL', color: false });
      const expiresAt = new Date(now().getTime() + CAPTCHA_TTL_MS);
      const [row] = await db.insert(captchas).values({ answer: drawn.text.toLowerCase(), expiresAt }).returning({ id: captchas.id });
      return {
        id: row!.id,
        image: `data:image/svg+xml;base64,${Buffer.from(drawn.data).toString('base64')}`,
        expiresAt: expiresAt.toISOString(),
        answer: drawn.text,
      };
    },

    /** True when the answer matches an unused, unexpired captcha; the captcha is used up either way. */
    async consume(id: string, answer: string): Promise<boolean> {
      if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
      const [row] = await db
        .update(captchas)
        .set({ usedAt: now() })
        .where(and(eq(captchas.id, id), isNull(captchas.usedAt), gt(captchas.expiresAt, now())))
        .returning({ answer: captchas.answer });
      return !!row && row.answer === answer.trim().toLowerCase();
    },

    async purge(): Promise<void> {
      await db.delete(captchas).where(lt(captchas.expiresAt, sql`now() - interval '1 hour'`));
    },
  };
}
export type CaptchaService = ReturnType<typeof captchaService>;
