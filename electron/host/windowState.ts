import Store from 'electron-store';
import { z } from 'zod';
import { ROUTE } from './windowRoute.ts';
export { routeOf } from './windowRoute.ts';

// What only the window has, kept by electron-store in the desk's data folder (window.json, mode 0600):
// its bounds, whether it was maximized, and the page it showed. The core's settings are not here.

const WindowState = z.object({
  bounds: z
    .object({
      x: z.number().int(),
      y: z.number().int(),
      width: z.number().int().min(400).max(20_000),
      height: z.number().int().min(300).max(20_000),
    })
    .optional(),
  maximized: z.boolean(),
  /** The page's full location: the address fragment without '#/', its path and parameters (windowRoute.ts). */
  route: z.string().regex(ROUTE).optional(),
});
export type WindowState = z.infer<typeof WindowState>;

const DEFAULT: WindowState = { maximized: false };

export interface WindowStateStore {
  load(): WindowState;
  save(state: WindowState): void;
}

/** A file that cannot be read or checked gives the default window and is left as it was (clearInvalidConfig: false). */
export function windowStateStore(cwd: string, log: (line: string) => void = () => {}): WindowStateStore {
  let store: Store<{ window?: unknown }> | null = null;
  const open = () => (store ??= new Store<{ window?: unknown }>({ cwd, name: 'window', clearInvalidConfig: false, configFileMode: 0o600 }));
  return {
    load() {
      try {
        const parsed = WindowState.safeParse(open().get('window') ?? DEFAULT);
        if (parsed.success) return parsed.data;
        log(`[host] window.json does not have the expected shape (${parsed.error.issues[0]?.path.join('.')}); opening the default window`);
      } catch (e) {
        log(`[host] window.json cannot be read (${(e as Error).message}); opening the default window`);
      }
      return DEFAULT;
    },
    save(state) {
      try {
        open().set('window', WindowState.parse(state));
      } catch (e) {
        log(`[host] cannot keep the window's state: ${(e as Error).message}`);
      }
    },
  };
}
