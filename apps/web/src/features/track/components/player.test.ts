import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TRACK_MS_PER_SECOND } from './playback-clock.ts';
import { Player } from './player.ts';

let now = 0;
let frames: FrameRequestCallback[] = [];

beforeEach(() => {
  now = 0;
  frames = [];
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
  vi.stubGlobal('cancelAnimationFrame', () => {
    frames = [];
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** Runs `n` frames 16 ms apart. */
function run(n: number) {
  for (let i = 0; i < n; i += 1) {
    now += 16;
    const due = frames;
    frames = [];
    due.forEach((cb) => cb(now));
  }
}

describe('player', () => {
  it('draws every frame but tells React at most ten times a second', () => {
    const drawn: number[] = [];
    const player = new Player([0, 3_600_000], (t) => drawn.push(t));
    const heard: number[] = [];
    player.subscribe((s) => heard.push(s.t));
    player.setSpeed(4);
    player.play();
    drawn.length = 0;
    heard.length = 0;
    run(62); // about a second
    expect(drawn).toHaveLength(62);
    expect(heard.length).toBeGreaterThanOrEqual(7);
    expect(heard.length).toBeLessThanOrEqual(11);
    expect(drawn.at(-1)).toBe(Math.round((62 * 16 * 4 * TRACK_MS_PER_SECOND) / 1000));
  });

  it('stops the frames on pause and at the end, telling React at once', () => {
    const player = new Player([0, 60_000], () => {});
    const states: boolean[] = [];
    player.subscribe((s) => states.push(s.playing));
    player.setSpeed(64);
    player.play();
    run(2);
    player.pause();
    expect(states.at(-1)).toBe(false);
    expect(frames).toHaveLength(0);
    player.play();
    run(100);
    expect(player.state.playing).toBe(false);
    expect(player.state.t).toBe(60_000);
    expect(frames).toHaveLength(0);
  });

  it('seeks and draws there while paused', () => {
    const drawn: number[] = [];
    const player = new Player([1000, 5000], (t) => drawn.push(t));
    player.seek(2500.4);
    expect(drawn.at(-1)).toBe(2500);
    expect(player.state.t).toBe(2500);
    player.load([0, 9000], true);
    expect(player.state.t).toBe(2500);
    player.load([7000, 9000], false);
    expect(player.state.t).toBe(7000);
  });
});
