// The playback's clock, apart from any screen: where the playhead is at a wall-clock instant, for
// a speed multiplier, with play, pause, seek and a stop at the end. The caller passes `now`
// (performance.now() in the screen, plain numbers in tests), so it holds no timer of its own.
//
// Speed: a real-time 1x would take a month to replay a month, so 1x is one minute of track per
// second of playback (TRACK_MS_PER_SECOND): an hour's trip plays in a minute at 1x and in about a
// second at 64x, a day in 24 minutes at 1x and 22 s at 64x, and a month in 12 minutes at 64x; the
// slider jumps anywhere at once for longer ranges. The bar says so next to the speed.

/** Track time per second of playback at 1x. */
export const TRACK_MS_PER_SECOND = 60_000;
export const PLAYBACK_SPEEDS = [1, 2, 4, 8, 16, 32, 64] as const;
export type PlaybackSpeed = (typeof PLAYBACK_SPEEDS)[number];

export class PlaybackClock {
  private start: number;
  private end: number;
  private anchorPos: number;
  /** Wall-clock instant at which the playhead was anchorPos (meaningful while playing). */
  private anchorWall = 0;
  private playingNow = false;
  private speedNow: PlaybackSpeed = 1;

  constructor(domain: readonly [number, number], speed: PlaybackSpeed = 1) {
    this.start = domain[0];
    this.end = Math.max(domain[0], domain[1]);
    this.anchorPos = this.start;
    this.speedNow = speed;
  }

  get playing(): boolean {
    return this.playingNow;
  }

  get speed(): PlaybackSpeed {
    return this.speedNow;
  }

  get domain(): [number, number] {
    return [this.start, this.end];
  }

  /** The playhead at `now`; reaching the end stops the clock there. */
  position(now: number): number {
    if (!this.playingNow) return this.anchorPos;
    const pos = this.anchorPos + ((now - this.anchorWall) / 1000) * TRACK_MS_PER_SECOND * this.speedNow;
    if (pos >= this.end) {
      this.playingNow = false;
      this.anchorPos = this.end;
      return this.end;
    }
    return pos;
  }

  /** Whether the playhead is at the end of the track. */
  atEnd(now: number): boolean {
    return this.position(now) >= this.end;
  }

  /** Plays from the playhead; from the start again when it is at the end. */
  play(now: number): void {
    if (this.playingNow) return;
    if (this.anchorPos >= this.end) this.anchorPos = this.start;
    if (this.end <= this.start) return;
    this.anchorWall = now;
    this.playingNow = true;
  }

  pause(now: number): void {
    if (!this.playingNow) return;
    this.anchorPos = this.position(now);
    this.playingNow = false;
  }

  /** Moves the playhead (within the track); playing goes on from there. */
  seek(t: number, now: number): void {
    this.anchorPos = Math.min(this.end, Math.max(this.start, t));
    this.anchorWall = now;
  }

  setSpeed(speed: PlaybackSpeed, now: number): void {
    if (this.playingNow) {
      this.anchorPos = this.position(now);
      this.anchorWall = now;
    }
    this.speedNow = speed;
  }

  /** A new track (a window fetched in full detail): the playhead stays where it was, within it. */
  setDomain(domain: readonly [number, number], now: number): void {
    const pos = this.position(now);
    this.start = domain[0];
    this.end = Math.max(domain[0], domain[1]);
    this.seek(pos, now);
  }
}
