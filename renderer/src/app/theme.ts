import { useEffect, useState } from 'react';
import { create } from 'zustand';

// The theme is a window preference (not the core's): kept in this browser's storage, following the
// system until the operator picks one.

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'desk-theme';

function stored(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

interface ThemeState {
  choice: ThemeChoice;
  choose: (c: ThemeChoice) => void;
}

export const useTheme = create<ThemeState>((set) => ({
  choice: stored(),
  choose: (choice) => {
    try {
      if (choice === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, choice);
    } catch {
      /* storage refused: the choice lasts for this window */
    }
    set({ choice });
  },
}));

const darkQuery = () => window.matchMedia?.('(prefers-color-scheme: dark)');

/** The theme in effect: the choice, or the system's when the choice is "system". */
export function useAppliedTheme(): 'light' | 'dark' {
  const choice = useTheme((s) => s.choice);
  const [systemDark, setSystemDark] = useState(() => darkQuery()?.matches ?? false);
  useEffect(() => {
    const q = darkQuery();
    if (!q) return;
    const on = (e: MediaQueryListEvent) => setSystemDark(e.matches);
    q.addEventListener('change', on);
    return () => q.removeEventListener('change', on);
  }, []);
  const applied = choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;
  useEffect(() => {
    document.documentElement.dataset.theme = applied;
  }, [applied]);
  return applied;
}

/** Colours for drawings (charts), read from the theme's CSS variables so that both themes stay readable. */
export function useThemeColours(): { bar: string; grid: string; axis: string } {
  const applied = useAppliedTheme();
  const [colours, setColours] = useState({ bar: '#0369a1', grid: '#cbd5e1', axis: '#334155' });
  useEffect(() => {
    const css = getComputedStyle(document.documentElement);
    const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
    setColours({ bar: v('--chart-bar', '#0369a1'), grid: v('--chart-grid', '#cbd5e1'), axis: v('--chart-axis', '#334155') });
  }, [applied]);
  return colours;
}
