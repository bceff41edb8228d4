import type { ChannelRequest } from '../../../../shared/ipc.ts';
import { MAX_PAYOUT_FILE_BYTES } from '../../../../shared/payouts.ts';

/**
 * The picked file as the core takes it: its exact bytes in base64, so that the SHA-256 the batch records
 * is the one `sha256sum` prints for the file. The core checks the size again and parses; nothing here does.
 */
export async function readPayoutFile(f: File): Promise<ChannelRequest<'payoutsImport'>> {
  if (f.size > MAX_PAYOUT_FILE_BYTES)
    throw new Error(`${f.name} is ${f.size} bytes; a payout file may hold at most ${MAX_PAYOUT_FILE_BYTES} bytes.`);
  const bytes = new Uint8Array(await bytesOf(f));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { file: f.name, content_base64: btoa(binary) };
}

function bytesOf(f: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result as ArrayBuffer);
    r.onerror = () => reject(new Error(`The file could not be read: ${r.error?.message ?? 'unknown error'}.`));
    r.readAsArrayBuffer(f);
  });
}
