// A bench's targets are strings such as '>= 0.75' beside the figure they judge, printed in its JSON line
// (`targets`) and here, one line per figure on stderr, so that a run says what it met and what it missed.

const TARGET = /^(>=|<=|>|<) (-?\d+(?:\.\d+)?)$/;

/** Whether `value` meets `target` ('>= 0.75', '<= 5', '< 50', '> 0'); throws on a target it cannot read. */
export function meets(value: number, target: string): boolean {
  const m = TARGET.exec(target);
  if (!m) throw new Error(`unreadable target "${target}": expected an operator (>=, <=, >, <), a space and a number`);
  const bound = Number(m[2]);
  if (m[1] === '>=') return value >= bound;
  if (m[1] === '<=') return value <= bound;
  return m[1] === '>' ? value > bound : value < bound;
}

/** Prints each targeted figure beside its target, met or MISSED; answers whether all were met. */
export function reportTargets(figures: Record<string, unknown>, targets: Record<string, string>): boolean {
  let all = true;
  for (const [key, target] of Object.entries(targets)) {
    const value = figures[key];
    if (typeof value !== 'number') throw new Error(`target for ${key}, a figure the bench does not report`);
    const met = meets(value, target);
    all &&= met;
    process.stderr.write(`${met ? 'met   ' : 'MISSED'} ${key} ${value} (target ${target})\n`);
  }
  return all;
}
