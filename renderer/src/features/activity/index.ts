// The activity feature as other features see it: how a write and its state are named in words.
export { capitalised, KIND_NAMES, outcomeWords, STATE_NAMES, summary, TROUBLE_STATES } from './intentText.ts';
