// The alarm beep: a short tone made by an OscillatorNode of the Web Audio API (no audio files),
// at most one a second. Browsers keep audio blocked until the user has interacted with the
// page; until then a beep is skipped without a word, and the first click or key press lets
// later ones play. The user can mute it from the header; the choice stays in local storage.
import { storedValue } from '../../lib/storage.ts';

export const BEEP_GAP_MS = 1000;
const mutedSetting = storedValue('alarmSoundMuted', (saved) => saved === true);

export const isAlarmSoundMuted = mutedSetting.get;
export const setAlarmSoundMuted = mutedSetting.set;
/** Whether alarms are silent, re-rendering the caller when that changes. */
export const useAlarmSoundMuted = mutedSetting.use;
const FREQUENCY_HZ = 880;
const LENGTH_S = 0.25;
const VOLUME = 0.2;

type ContextFactory = () => AudioContext | null;

function browserContext(): AudioContext | null {
  const Ctor = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Ctor) return null;
  // Made before any interaction, a context starts suspended and the browser warns about it.
  const activation = (globalThis.navigator as { userActivation?: { hasBeenActive: boolean } } | undefined)?.userActivation;
  if (activation && !activation.hasBeenActive) return null;
  try {
    return new Ctor();
  } catch {
    return null;
  }
}

export class AlarmSound {
  private ctx: AudioContext | null = null;
  private last = -Infinity;

  constructor(
    private readonly create: ContextFactory = browserContext,
    private readonly now: () => number = () => performance.now(),
  ) {}

  private context(): AudioContext | null {
    if (!this.ctx) this.ctx = this.create();
    return this.ctx;
  }

  /** For the page's user gestures: a context made or resumed inside one may play from then on. */
  unlock = (): void => {
    const ctx = this.context();
    if (ctx && ctx.state === 'suspended') ctx.resume().catch(() => undefined);
  };

  /** Plays the beep unless muted, one played within BEEP_GAP_MS or audio is still blocked; whether it played. */
  beep(): boolean {
    if (isAlarmSoundMuted()) return false;
    const at = this.now();
    if (at - this.last < BEEP_GAP_MS) return false;
    const ctx = this.context();
    if (!ctx) return false;
    if (ctx.state !== 'running') {
      ctx.resume().catch(() => undefined);
      return false;
    }
    try {
      const start = ctx.currentTime;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.setValueAtTime(FREQUENCY_HZ, start);
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(VOLUME, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + LENGTH_S);
      osc.connect(gain);
      gain.connect(ctx.destination);
      osc.start(start);
      osc.stop(start + LENGTH_S + 0.05);
      this.last = at;
      return true;
    } catch {
      return false;
    }
  }

  dispose(): void {
    const ctx = this.ctx;
    this.ctx = null;
    ctx?.close().catch(() => undefined);
  }
}
