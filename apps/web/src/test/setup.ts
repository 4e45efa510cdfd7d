// Setup of the web project's jsdom tests.
//
// jsdom is torn down when a test file ends, but nprogress keeps timers of its own (the trickle
// loop while a request is in flight, the fade-out after `done`) that touch `document`. One that
// fired after the teardown threw "document is not defined" as an unhandled error, which fails
// the whole run. Without the trickle and with the bar settled before the teardown, no such timer
// outlives its file. The bar itself stays real: the browser tests watch it in Chromium.
import NProgress from 'nprogress';
import { afterAll } from 'vitest';

NProgress.configure({ trickle: false });

const SETTLE_LIMIT_MS = 3000;

afterAll(async () => {
  const busy = () => NProgress.status !== null || document.getElementById('nprogress') !== null;
  const until = Date.now() + SETTLE_LIMIT_MS;
  while (busy() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  // A request that never answered keeps the bar started: stop it without any further timer.
  NProgress.status = null;
  NProgress.remove();
});
