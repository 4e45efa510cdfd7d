// Runs work once the browser has painted what is on screen: after the next animation frame, in a
// task of its own. A hidden page paints no frames, so there it runs in the next task.

/** Calls `run` after the next paint; answers a function that cancels it. */
export function afterPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const inATask = () => {
    timer = setTimeout(run, 0);
  };
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') {
    inATask();
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(inATask);
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
