// "After the frame that paints what was just committed": the next animation frame runs before that
// frame's paint, so the work goes in a task queued from it. Outside a browser (tests), a task.

/** Runs `fn` after the frame being drawn; answers a function that cancels it if it has not run. */
export function afterPaint(fn: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(fn, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => (timer = setTimeout(fn, 0)));
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
