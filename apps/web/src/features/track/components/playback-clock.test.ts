import { describe, expect, it } from 'vitest';
import { PlaybackClock, TRACK_MS_PER_SECOND } from './playback-clock.ts';

const START = 1_000_000;
const HOUR = 3_600_000;

describe('playback clock', () => {
  it('stands still until played, then runs a minute of track per second at 1x', () => {
    const c = new PlaybackClock([START, START + HOUR]);
    expect(c.position(5000)).toBe(START);
    c.play(1000);
    expect(c.playing).toBe(true);
    expect(c.position(2000)).toBe(START + TRACK_MS_PER_SECOND);
    expect(c.position(3500)).toBe(START + 2.5 * TRACK_MS_PER_SECOND);
  });

  it('multiplies by the speed, also when changed while playing', () => {
    const c = new PlaybackClock([START, START + 10 * HOUR], 8);
    c.play(0);
    expect(c.position(1000)).toBe(START + 8 * TRACK_MS_PER_SECOND);
    c.setSpeed(64, 1000);
    expect(c.speed).toBe(64);
    expect(c.position(2000)).toBe(START + 72 * TRACK_MS_PER_SECOND);
  });

  it('pauses where it is and resumes from there', () => {
    const c = new PlaybackClock([START, START + HOUR], 2);
    c.play(0);
    c.pause(1000);
    expect(c.playing).toBe(false);
    expect(c.position(60_000)).toBe(START + 2 * TRACK_MS_PER_SECOND);
    c.play(60_000);
    expect(c.position(61_000)).toBe(START + 4 * TRACK_MS_PER_SECOND);
  });

  it('seeks within the track, playing on from there', () => {
    const c = new PlaybackClock([START, START + HOUR]);
    c.seek(START + 1000, 0);
    expect(c.position(0)).toBe(START + 1000);
    c.seek(START - 50, 0);
    expect(c.position(0)).toBe(START);
    c.seek(START + 2 * HOUR, 0);
    expect(c.position(0)).toBe(START + HOUR);
    c.seek(START + 600_000, 0);
    c.play(100);
    c.seek(START + 1_200_000, 500);
    expect(c.position(1500)).toBe(START + 1_200_000 + TRACK_MS_PER_SECOND);
  });

  it('stops at the end, and plays from the start when played again', () => {
    const c = new PlaybackClock([START, START + HOUR], 64);
    c.play(0);
    // An hour at 64 minutes a second: over within the second.
    expect(c.position(900)).toBeLessThan(START + HOUR);
    expect(c.position(1000)).toBe(START + HOUR);
    expect(c.playing).toBe(false);
    expect(c.atEnd(5000)).toBe(true);
    c.play(5000);
    expect(c.position(5000)).toBe(START);
    expect(c.playing).toBe(true);
  });

  it('keeps the playhead when the track is replaced', () => {
    const c = new PlaybackClock([START, START + HOUR]);
    c.seek(START + 1000, 0);
    c.setDomain([START + 500, START + HOUR], 0);
    expect(c.position(0)).toBe(START + 1000);
    c.setDomain([START + 5000, START + HOUR], 0);
    expect(c.position(0)).toBe(START + 5000);
  });
});
