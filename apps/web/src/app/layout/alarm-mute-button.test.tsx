import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18next from 'i18next';
import { click, render, setEnglish, type Rendered } from '../../test/dom.tsx';
import { AlarmMuteButton } from './alarm-mute-button.tsx';
import { AlarmSound, isAlarmSoundMuted, setAlarmSoundMuted } from './alarm-sound.ts';

/** A Web Audio context that counts the tones it was asked to play. */
function fakeContext() {
  const ctx = {
    tones: 0,
    state: 'running',
    currentTime: 0,
    destination: {},
    resume: () => Promise.resolve(),
    close: () => Promise.resolve(),
    createGain: () => ({ gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect() {} }),
    createOscillator: () => ({
      type: 'sine',
      frequency: { setValueAtTime() {} },
      connect() {},
      start: () => {
        ctx.tones += 1;
      },
      stop() {},
    }),
  };
  return ctx;
}

let mounted: Rendered | undefined;
const button = () => document.querySelector<HTMLButtonElement>('[data-testid=alarm-mute]')!;

beforeEach(async () => {
  await setEnglish();
  setAlarmSoundMuted(false);
  localStorage.clear();
});
afterEach(() => {
  mounted?.unmount();
  mounted = undefined;
  setAlarmSoundMuted(false);
  localStorage.clear();
  vi.resetModules();
});

describe('alarm sound mute button', () => {
  it('is a named toggle that silences the beep and is remembered', async () => {
    mounted = render(<AlarmMuteButton />);
    expect(button().getAttribute('aria-label')).toBe('Mute alarm sound');
    expect(button().getAttribute('aria-pressed')).toBe('false');
    let now = 0;
    const ctx = fakeContext();
    const sound = new AlarmSound(
      () => ctx as unknown as AudioContext,
      () => (now += 2000),
    );
    expect(sound.beep()).toBe(true);

    click(button());
    expect(button().getAttribute('aria-pressed')).toBe('true');
    expect(isAlarmSoundMuted()).toBe(true);
    expect(sound.beep()).toBe(false);
    expect(ctx.tones).toBe(1);
    // Remembered: a new page load reads it back from local storage.
    expect(JSON.parse(localStorage.getItem('alarmSoundMuted')!).content).toBe(true);
    vi.resetModules();
    const reloaded = await import('./alarm-sound.ts');
    expect(reloaded.isAlarmSoundMuted()).toBe(true);

    click(button());
    expect(button().getAttribute('aria-pressed')).toBe('false');
    expect(sound.beep()).toBe(true);
    expect(ctx.tones).toBe(2);
  });

  it('speaks Chinese', async () => {
    await i18next.changeLanguage('zh');
    mounted = render(<AlarmMuteButton />);
    expect(button().getAttribute('aria-label')).toBe('告警提示音静音');
  });
});
