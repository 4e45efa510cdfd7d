// Sign-in does not tell which accounts exist by its timing: a wrong password of a real account
// and any password of an unknown account each cost exactly one argon2 verification, in sign-in
// and in the password change alike (the verification is counted, not timed: a timed test would
// fail on a busy machine). A wall-clock comparison lives in the bench, not here.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../../test/harness.ts';
import { loginFailures } from '../../db/schema.ts';
import type * as Password from '../../lib/password.ts';
import type * as Harness from '../../test/harness.ts';

const verified = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../lib/password.ts', async (importOriginal) => {
  const real = await importOriginal<typeof Password>();
  return {
    ...real,
    verifyPassword: async (stored: string, plain: string) => {
      verified.count++;
      return real.verifyPassword(stored, plain);
    },
  };
});

let t: TestApp;
let call: typeof Harness.call;
let DEMO_PASSWORD: string;
beforeAll(async () => {
  // The server's test files share a worker's loaded modules (vitest.config.ts): the app is loaded
  // afresh here so that it takes the counting password module.
  vi.resetModules();
  const harness = await import('../../test/harness.ts');
  ({ call, DEMO_PASSWORD } = harness);
  t = await harness.testApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.app.database.db.delete(loginFailures);
  verified.count = 0;
});

const LOGIN = '/iot-cloud-auth/auth/v1/login';
const CHANGE = '/iot-cloud-auth/user/v1/resetPassword';

describe('one password verification whether the account exists or not', () => {
  it('in sign-in', async () => {
    const unknown = await call(t.app, { method: 'POST', url: LOGIN, body: { account: 'nobody-here', password: 'Wrong#2026' } });
    expect(unknown.status).toBe(401);
    expect(verified.count).toBe(1);

    const wrong = await call(t.app, { method: 'POST', url: LOGIN, body: { account: 'demo', password: 'Wrong#2026' } });
    expect(wrong.status).toBe(401);
    expect(verified.count).toBe(2);
    // The same answer for both.
    expect(wrong.body).toEqual(unknown.body);

    const right = await call(t.app, { method: 'POST', url: LOGIN, body: { account: 'demo', password: DEMO_PASSWORD } });
    expect(right.status).toBe(200);
    expect(verified.count).toBe(3);
  });

  it('in the password change', async () => {
    const captcha = async () => {
      const c = await t.app.captchaService.create();
      return { captchaId: c.id, captcha: c.answer };
    };
    const body = { oldPassword: 'Wrong#2026', newPassword: 'Newer#2026', confirmPassword: 'Newer#2026' };
    const unknown = await call(t.app, { method: 'POST', url: CHANGE, body: { account: 'nobody-here', ...body, ...(await captcha()) } });
    expect(unknown.status).toBe(400);
    expect(verified.count).toBe(1);
    const wrong = await call(t.app, { method: 'POST', url: CHANGE, body: { account: 'demo', ...body, ...(await captcha()) } });
    expect(wrong.status).toBe(400);
    expect(verified.count).toBe(2);
    expect(wrong.body).toEqual(unknown.body);
  });
});
