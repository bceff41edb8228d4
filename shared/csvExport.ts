import { z } from 'zod';

/** A CSV the core made for the window to save: the file name to offer, the text, and how many records it holds. */
export const CsvExport = z.object({ filename: z.string(), csv: z.string(), rows: z.number().int().nonnegative() });
export type CsvExport = z.infer<typeof CsvExport>;
