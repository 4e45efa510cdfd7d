import { describe, expect, it } from 'vitest';
import i18next, { i18nReady, loadAllMessages } from '../../../app/i18n.ts';
import { fault } from '../test-fixtures.ts';
import { seenText, toFaultView } from './fault-model.ts';

await i18nReady;
// The fault texts are the console's part of the messages.
await loadAllMessages();
await i18next.loadLanguages(['en', 'zh']);
const en = i18next.getFixedT('en');
const zh = i18next.getFixedT('zh');

describe('what a fault saw, in words', () => {
  it('says which sensor reading failed and how often, from the detector detail', () => {
    expect(seenText({ kind: 'sensor_failure', detail: { reason: 'x', temperature: null, reports: 3 } }, en)).toBe('The temperature sensor gave no reading in 3 reports running');
    expect(seenText({ kind: 'sensor_failure', detail: { reason: 'x', humidity: 104.5, reports: 5 } }, en)).toBe('Humidity read 104.5%, above 100%, in 5 reports running');
    expect(seenText({ kind: 'sensor_failure', detail: { reason: 'x', humidity: 104.5, reports: 5 } }, zh)).toBe('连续 5 次上报湿度为 104.5%，超过 100%');
    // No numbers in the detail: the detector's own threshold.
    expect(seenText({ kind: 'sensor_failure', detail: { reason: 'x' } }, en)).toBe('No valid temperature or humidity reading in 3 reports running');
    expect(seenText({ kind: 'gps_failure', detail: { reason: 'x', lat: 0, lon: 0, reports: 4 } }, zh)).toBe('连续 4 次上报无有效 GPS 定位');
  });

  it('gives the battery level, the offline count and the refused reports with their windows', () => {
    expect(seenText({ kind: 'low_battery', detail: { reason: 'x', value: 7, limit: 15 } }, en)).toBe('Battery at 7%, below 15%');
    expect(seenText({ kind: 'low_battery', detail: { reason: 'x' } }, zh)).toBe('电量低于 20%');
    expect(seenText({ kind: 'offline_repeatedly', detail: { reason: 'x', times: 3, hours: 24 } }, en)).toBe('Offline 3 times within 24 hours');
    expect(seenText({ kind: 'bad_reports', detail: { reason: 'x', times: 5, minutes: 60, lastRefusal: 'bad json' } }, zh)).toBe('60 分钟内 5 条上报被拒收');
  });

  it('never shows the English log reason for a known kind', () => {
    const view = toFaultView(fault(1, { detail: { reason: 'temperature sensor gives no reading', temperature: null, reports: 3 } }), zh);
    expect(view.seen).not.toContain('temperature sensor');
    expect(view.asset).toBe('Reefer 1 (沪A00001)');
  });
});
