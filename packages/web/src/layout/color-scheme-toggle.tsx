import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';

/**
 * Light or dark: the app follows the system until the user picks one here; Mantine keeps the pick in localStorage
 * (`mantine-color-scheme-value`), so it lasts across visits.
 */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const dark = useComputedColorScheme('light') === 'dark';
  const label = dark ? 'Use the light theme' : 'Use the dark theme';
  return (
    <ActionIcon variant="default" size="lg" onClick={() => setColorScheme(dark ? 'light' : 'dark')} aria-label={label} title={label}>
      {dark ? (
        <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
          <circle cx="12" cy="12" r="4" />
          <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
        </svg>
      ) : (
        <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" aria-hidden="true">
          <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8z" />
        </svg>
      )}
    </ActionIcon>
  );
}
