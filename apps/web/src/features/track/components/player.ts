// Drives the playback: a requestAnimationFrame loop, running only while playing, that asks the
// clock where the playhead is and hands it to `render` (the screen moves the marker and the curve
// cursor itself, without React). React hears of the playhead through `subscribe`, at most
// LABEL_HZ times a second while playing (the time label and the slider), and at once on a user's
// action (play, pause, seek, speed).
import { PlaybackClock, type PlaybackSpeed } from './playback-clock.ts';

export const LABEL_HZ = 10;

export interface PlayerSnapshot {
  t: number;
  playing: boolean;
  speed: PlaybackSpeed;
  domain: [number, number];
}

type Listener = (s: PlayerSnapshot) => void;

export class Player {
  private clock: PlaybackClock;
  private raf = 0;
  private lastEmit = -Infinity;
  private readonly listeners = new Set<Listener>();
  private snapshot: PlayerSnapshot;
  private render: (t: number) => void;

  constructor(domain: [number, number], render: (t: number) => void) {
    this.clock = new PlaybackClock(domain);
    this.render = render;
    this.snapshot = { t: domain[0], playing: false, speed: 1, domain };
  }

  get state(): PlayerSnapshot {
    return this.snapshot;
  }

  setRender(render: (t: number) => void): void {
    this.render = render;
  }

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** A new track; `keep` keeps the playhead (a window in full detail), else it goes to the start. */
  load(domain: [number, number], keep: boolean): void {
    const now = performance.now();
    if (keep) this.clock.setDomain(domain, now);
    else {
      this.stop();
      const speed = this.clock.speed;
      this.clock = new PlaybackClock(domain, speed);
    }
    this.draw(true);
  }

  toggle(): void {
    if (this.clock.playing) this.pause();
    else this.play();
  }

  play(): void {
    this.clock.play(performance.now());
    this.draw(true);
    this.loop();
  }

  pause(): void {
    this.clock.pause(performance.now());
    this.stop();
    this.draw(true);
  }

  seek(t: number): void {
    this.clock.seek(t, performance.now());
    this.draw(true);
  }

  setSpeed(speed: PlaybackSpeed): void {
    this.clock.setSpeed(speed, performance.now());
    this.draw(true);
  }

  /** Draws the playhead again (after the map or the chart changed under it). */
  redraw(): void {
    this.draw(true);
  }

  destroy(): void {
    this.stop();
    this.listeners.clear();
  }

  private stop(): void {
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
  }

  private loop(): void {
    if (this.raf || !this.clock.playing) return;
    const frame = () => {
      this.raf = 0;
      this.draw(false);
      if (this.clock.playing) this.raf = requestAnimationFrame(frame);
    };
    this.raf = requestAnimationFrame(frame);
  }

  private draw(force: boolean): void {
    const now = performance.now();
    // Whole milliseconds: the marker is drawn for exactly the instant the page reports.
    const t = Math.round(this.clock.position(now));
    this.render(t);
    const playing = this.clock.playing;
    if (!force && playing && now - this.lastEmit < 1000 / LABEL_HZ) return;
    this.lastEmit = now;
    this.snapshot = { t, playing, speed: this.clock.speed, domain: this.clock.domain };
    for (const fn of this.listeners) fn(this.snapshot);
  }
}
