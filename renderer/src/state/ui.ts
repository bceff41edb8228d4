import { create } from 'zustand';
import type { ValuationCurrency } from '../../../shared/api/records.ts';

// UI state only; everything that comes from the core lives in TanStack Query.
interface UiState {
  valuationCurrency: ValuationCurrency;
  setValuationCurrency: (c: ValuationCurrency) => void;
}

export const useUi = create<UiState>((set) => ({
  valuationCurrency: 'USDT',
  setValuationCurrency: (valuationCurrency) => set({ valuationCurrency }),
}));
