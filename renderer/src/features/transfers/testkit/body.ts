import { WriteRequest } from '../../../../../shared/api/writes.ts';
import type { WriteInput } from '../../../../../shared/api/writes.ts';

// The wire body the core builds from a form's write (electron/core/writes/inputs.ts buildBody), restated
// from the spec for the renderer's tests, which may not import the core: §4.1's fields, the signer left out.

export function buildBodyForTest(w: WriteInput, clientId = 'ID'): Record<string, string | number> {
  const p = WriteRequest.parse(w);
  switch (p.kind) {
    case 'main_sub_transfer':
      return { ...p.input, client_order_id: clientId };
    case 'sub_own_transfer': {
      const { sub_account: _s, ...body } = p.input;
      return body;
    }
    case 'withdrawal':
      return { withdraw_order_id: clientId, ...p.input };
    case 'sub_account_key_create':
      throw new Error('a key creation is not a transfer form');
    default:
      return { ...p.input };
  }
}
