import { fileBase64 } from '../../components/fileBase64.ts';
import type { ChannelRequest } from '../../../../shared/ipc.ts';
import { MAX_PAYOUT_FILE_BYTES } from '../../../../shared/payouts.ts';

/**
 * The picked file as the core takes it: its exact bytes in base64, so that the SHA-256 the batch records
 * is the one `sha256sum` prints for the file. The core checks the size again and parses; nothing here does.
 */
export async function readPayoutFile(f: File): Promise<ChannelRequest<'payoutsImport'>> {
  return { file: f.name, content_base64: await fileBase64(f, MAX_PAYOUT_FILE_BYTES, 'a payout file') };
}
