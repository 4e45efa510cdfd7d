// Charts drawn by the server: a signed-in user's bar, line and pie options come back as SVG at
// the asked size, with the option's texts and colours, in the light theme or the dark one (on a
// transparent background); nobody signed out gets one; a size out of range, a series of another
// kind, an option ECharts cannot draw and an oversized one are refused with the reason in the
// user's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHART_API, CHART_OPTION_MAX_BYTES, type ChartSvg } from '@iotc/shared/chart';
import { errorText } from '@iotc/shared/errors';
import { ADMIN_PASSWORD, call, login, testApp, type TestApp } from '../../test/harness.ts';

const BARS = {
  xAxis: { type: 'category', data: ['Temperature high', 'Humidity low'] },
  yAxis: { type: 'value', minInterval: 1 },
  series: [{ type: 'bar', name: 'Alarms', data: [8, 4], itemStyle: { color: '#1677ff' } }],
};
const RING = {
  legend: { bottom: 0 },
  series: [{ type: 'pie', radius: ['34%', '56%'], label: { formatter: '{c}' }, data: [{ name: '紧急', value: 3, itemStyle: { color: '#f5222d' } }, { name: 'Minor', value: 1, itemStyle: { color: '#fadb14' } }] }],
};

describe('charts drawn by the server', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await testApp();
    token = await login(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await t.close();
  });

  const draw = (body: unknown, lang: 'en-US' | 'zh-CN' = 'en-US', signedIn = true) => call<ChartSvg>(t.app, { method: 'POST', url: CHART_API.svg, token: signedIn ? token : undefined, lang, body });

  it('draws bars and a ring to SVG at the asked size, with their texts and colours', async () => {
    const bars = await draw({ width: 400, height: 260, option: BARS });
    expect(bars.status).toBe(200);
    const svg = bars.body.data!.svg;
    expect(svg).toMatch(/^<svg[^>]*width="400"[^>]*height="260"/);
    expect(svg).toContain('Temperature high');
    expect(svg.toLowerCase()).toContain('#1677ff');
    // Two bars of 8 and 4 alarms: two filled paths in the bar colour.
    expect(svg.match(/fill="#1677ff"/gi)?.length).toBeGreaterThanOrEqual(2);

    const ring = await draw({ width: 260, height: 260, option: RING });
    expect(ring.status).toBe(200);
    expect(ring.body.data!.svg).toContain('紧急');
    expect(ring.body.data!.svg.toLowerCase()).toContain('#f5222d');
  });

  it('draws in the dark theme on a transparent background', async () => {
    const light = (await draw({ width: 400, height: 260, option: BARS })).body.data!.svg;
    const dark = (await draw({ width: 400, height: 260, dark: true, option: BARS })).body.data!.svg;
    expect(dark).not.toEqual(light);
    // The light theme paints no background either; the dark one's axis labels are light.
    expect(dark).not.toMatch(/<rect[^>]*width="400"[^>]*height="260"[^>]*fill="#(?!fff)/i);
    const labelFill = (svg: string) => /<text[^>]*fill="([^"]+)"[^>]*>Temperature high</.exec(svg)?.[1];
    expect(labelFill(light)).toBeDefined();
    expect(labelFill(dark)).not.toEqual(labelFill(light));
  });

  it('is for signed-in users only', async () => {
    const r = await draw({ width: 400, height: 260, option: BARS }, 'en-US', false);
    expect(r.status).toBe(401);
  });

  it('refuses a size out of range, another kind of series, an option it cannot draw and an oversized one, in the language of the user', async () => {
    const small = await draw({ width: 20, height: 260, option: BARS }, 'zh-CN');
    expect(small.status).toBe(400);
    expect(small.body.errormsg).toContain(errorText('CHART_SIZE', 'zh'));

    const map = await draw({ width: 400, height: 260, option: { series: [{ type: 'map', map: 'china' }] } });
    expect(map.status).toBe(400);
    expect(map.body.errormsg).toContain(errorText('CHART_OPTION_INVALID', 'en'));

    const none = await draw({ width: 400, height: 260, option: { series: [] } });
    expect(none.status).toBe(400);

    const broken = await draw({ width: 400, height: 260, option: { xAxis: { type: 'nonsense' }, yAxis: {}, series: [{ type: 'bar', data: [1] }] } });
    expect(broken.status).toBe(400);
    expect(broken.body.errormsg).toContain(errorText('CHART_OPTION_INVALID', 'en'));

    const big = await draw({ width: 400, height: 260, option: { ...BARS, series: [{ type: 'bar', data: Array.from({ length: CHART_OPTION_MAX_BYTES / 4 }, (_, i) => i) }] } });
    expect(big.status).toBe(413);
  });
});
