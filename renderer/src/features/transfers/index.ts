// The transfers feature as other features see it: the new-transfer form the Transfers page opens, and
// the form kinds and values its address can pre-fill.
export { NewTransfer } from './NewTransfer.tsx';
export { FORMS, type TransferFormKind, type Values } from './transferWrite.ts';
