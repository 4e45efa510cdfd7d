// Forms keep what was typed (issue 22 item 6), with a real keyboard in both languages:
// a planned start typed with seconds and Enter stays in the field (the picker read it) and does
// not submit the form; Esc on a filled drawer asks before the input is lost, and only "Discard"
// closes it. An untouched drawer or dialog closes at once (the policy drawer asked: filling a form
// marks its fields touched in antd), and the guard is on the forms of every feature: the device
// dialog, the push rule drawer and the user dialog here besides the task and policy drawers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, signInAs, startServer, type Browser, type Server } from './harness.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.close());

const TEXT = {
  'en-US': { keep: 'Keep editing', discard: 'Discard', title: 'Discard your changes?' },
  'zh-CN': { keep: '继续编辑', discard: '放弃', title: '放弃修改？' },
} as const;

/** Forms of other features: where they open, the button, a text field in them. */
const FORMS = [
  { name: 'device dialog', path: '/view/deviceManage/devices', open: '[data-testid=device-new]', field: '#device-form_name' },
  { name: 'push rule drawer', path: '/view/alarm/push', open: '[data-testid=push-rule-new]', field: '#push_name' },
  { name: 'user dialog', path: '/view/system/users', open: '[data-testid=user-new]', field: '.user-form-modal #name' },
  { name: 'policy drawer', path: '/view/alarm/policy?type=102', open: '[data-testid=policy-new]', field: '#policy_name' },
] as const;

describe('forms keep what was typed', () => {
  for (const locale of ['en-US', 'zh-CN'] as const) {
    it(`reads a typed date with seconds on Enter and asks before Esc loses the input (${locale})`, async () => {
      const b: Browser = await launchBrowser({ locale });
      const text = TEXT[locale];
      try {
        const { page } = b;
        await signInAs(page, server);

        // The new-task form: a planned start typed as people write it.
        await page.goto(`${server.url}/view/transport/tasks?type=101`);
        await page.locator('[data-testid=tt-new]').click();
        const start = page.locator('#ttNew_plannedStart');
        await start.click();
        await page.keyboard.type('2026-11-26 21:34:00');
        await page.keyboard.press('Enter');
        // Kept once the field is left (shown in the form's format): the picker took it.
        await page.locator('#ttNew_goodsName').click();
        await expect.poll(() => start.inputValue()).toBe('2026-11-26 21:34');
        // Enter worked the picker: no submission, so no "please enter the goods" on the form.
        expect(await page.locator('#ttNew .ant-form-item-explain-error').count()).toBe(0);
        await page.keyboard.press('Escape');
        const confirm = page.locator('.discard-confirm');
        await confirm.waitFor();
        expect(await confirm.textContent()).toContain(text.title);
        await confirm.getByRole('button', { name: text.keep }).click();
        await expect.poll(() => confirm.count()).toBe(0);
        expect(await start.inputValue()).toBe('2026-11-26 21:34');
        await page.locator('[data-testid=ttNew-cancel]').click();
        await page.locator('.discard-confirm').getByRole('button', { name: text.discard }).click();
        await expect.poll(() => start.isVisible()).toBe(false);

        // A policy drawer with a name typed: Esc asks; "Keep editing" keeps the name, "Discard" closes.
        await page.goto(`${server.url}/view/alarm/policy?type=102`);
        await page.locator('[data-testid=policy-new]').click();
        await page.locator('#policy_name').fill('Night shift reefers');
        await page.keyboard.press('Escape');
        await page.locator('.discard-confirm').waitFor();
        await page.locator('.discard-confirm').getByRole('button', { name: text.keep }).click();
        await expect.poll(() => page.locator('.discard-confirm').count()).toBe(0);
        expect(await page.locator('#policy_name').inputValue()).toBe('Night shift reefers');
        await page.keyboard.press('Escape');
        await page.locator('.discard-confirm').getByRole('button', { name: text.discard }).click();
        await expect.poll(() => page.locator('#policy_name').isVisible()).toBe(false);
      } finally {
        await b.close();
      }
    });

    it(`closes an untouched form at once and asks before a changed one closes, in every feature (${locale})`, async () => {
      const b: Browser = await launchBrowser({ locale });
      const text = TEXT[locale];
      try {
        const { page } = b;
        await signInAs(page, server);
        const confirm = page.locator('.discard-confirm');
        for (const form of FORMS) {
          await page.goto(`${server.url}${form.path}`);
          const field = page.locator(form.field);
          // Untouched: Esc closes it, nothing asked.
          await page.locator(form.open).click();
          await field.waitFor();
          await page.keyboard.press('Escape');
          await expect.poll(() => field.isVisible(), { message: `${form.name} closes untouched` }).toBe(false);
          expect(await confirm.count(), form.name).toBe(0);
          // Clicked into but not changed: still closes at once.
          await page.locator(form.open).click();
          await field.click();
          await page.keyboard.press('Escape');
          await expect.poll(() => field.isVisible(), { message: `${form.name} closes unchanged` }).toBe(false);
          expect(await confirm.count(), form.name).toBe(0);
          // Changed: Esc asks in the language; "Keep editing" keeps the text, "Discard" closes.
          await page.locator(form.open).click();
          await field.fill('Typed before Esc');
          await page.keyboard.press('Escape');
          await confirm.waitFor();
          expect(await confirm.textContent(), form.name).toContain(text.title);
          await confirm.getByRole('button', { name: text.keep }).click();
          await expect.poll(() => confirm.count()).toBe(0);
          expect(await field.inputValue(), form.name).toBe('Typed before Esc');
          await page.keyboard.press('Escape');
          await confirm.getByRole('button', { name: text.discard }).click();
          await expect.poll(() => field.isVisible(), { message: `${form.name} closes on Discard` }).toBe(false);
          if (form.name === 'device dialog') await screenshot(page, `form-keeps-closed-${locale}`);
        }
        // The confirmation itself, over a changed push rule drawer.
        await page.goto(`${server.url}/view/alarm/push`);
        await page.locator('[data-testid=push-rule-new]').click();
        await page.locator('#push_name').fill('Night shift');
        await page.keyboard.press('Escape');
        await confirm.waitFor();
        await screenshot(page, `form-keeps-confirm-${locale}`);
      } finally {
        await b.close();
      }
    });
  }
});
