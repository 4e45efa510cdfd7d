// The system's "reduce motion" setting: with it, menus and dialogs appear at once, without
// Ant Design's zoom and slide; without it they animate as usual.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, launchBrowser, signInAs, startServer, type Server } from './harness.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

/** The motion classes the user menu's popup carried from the click until it settled. */
async function menuMotion(reducedMotion: 'reduce' | 'no-preference'): Promise<string[]> {
  const b = await launchBrowser({ reducedMotion });
  try {
    await signInAs(b.page, server, 'demo', DEMO_PASSWORD);
    await b.page.locator('[data-testid=user-menu]').waitFor();
    // Every class the popup takes, recorded from its first frame on.
    await b.page.evaluate(() => {
      const seen = new Set<string>();
      (window as unknown as { motionSeen: Set<string> }).motionSeen = seen;
      const record = () => {
        for (const el of Array.from(document.querySelectorAll('.ant-dropdown'))) for (const c of Array.from(el.classList)) if (c.includes('slide-up')) seen.add(c);
      };
      new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    });
    await b.page.locator('[data-testid=user-menu]').click();
    await b.page.locator('[data-testid=logout]').waitFor();
    // Settled: no motion class left on the popup.
    await expect.poll(() => b.page.locator('.ant-dropdown[class*=slide-up]').count()).toBe(0);
    return await b.page.evaluate(() => [...(window as unknown as { motionSeen: Set<string> }).motionSeen]);
  } finally {
    await b.close();
  }
}

describe('reduce motion', () => {
  it('opens the user menu without motion when the system asks for less, with it otherwise', async () => {
    // The popup may wait a frame at its place, unseen, while it is aligned ('-prepare'); what
    // must not happen is the slide from nothing ('-start', '-active') under a reduce setting.
    const reduced = await menuMotion('reduce');
    expect(reduced.filter((c) => c.endsWith('-start') || c.endsWith('-active'))).toEqual([]);
    const full = await menuMotion('no-preference');
    expect(full).toContain('ant-slide-up-appear-start');
    expect(full).toContain('ant-slide-up-appear-active');
  });
});
