import { z } from 'zod';

// What the desk told the operator (a withdrawal that ended, a batch that finished, a signature needed),
// kept in the core until read, so that a notification missed on the desktop, or told while the window
// was reloading, is still there to read.

export const Notice = z.object({
  id: z.number().int().nonnegative(),
  /** When it was told (Unix ms). */
  at: z.number(),
  title: z.string(),
  body: z.string(),
  /** What it is about: a newer notice of the same tag (the same withdrawal, moving on) replaces it. */
  tag: z.string(),
  read: z.boolean(),
});
export type Notice = z.infer<typeof Notice>;

export const Notices = z.object({ unread: z.number().int().nonnegative(), items: z.array(Notice) });
export type Notices = z.infer<typeof Notices>;
