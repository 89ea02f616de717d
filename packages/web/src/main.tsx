import { CloseButton, createTheme, MantineProvider, type CloseButtonProps, type CSSVariablesResolver } from '@mantine/core';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError, onUnauthorized } from './api/client';
import { ToastHost } from './components/toast';
import { makeRouter } from './router';
import './styles/first-load.css';
import './app.css';
import { sessionKeys } from './api/hooks';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A 4xx will not get better by asking again.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
  queryCache: new QueryCache(),
  mutationCache: new MutationCache(),
});

const router = makeRouter(queryClient);

// A lost session (401 from any API call): to the login page, and back to this very page afterwards.
onUnauthorized(() => {
  const { pathname, href } = router.state.location;
  if (pathname === '/login' || pathname === '/signup' || pathname.startsWith('/invite/')) return;
  queryClient.removeQueries({ queryKey: sessionKeys.me });
  void router.navigate({ to: '/login', search: { next: href }, replace: true });
});

const theme = createTheme({
  primaryColor: 'indigo',
  // White on indigo 6 (Mantine's default light shade) is 4.3:1; on 7, 5:1 (WCAG AA wants 4.5:1 for text).
  primaryShade: { light: 7, dark: 8 },
  components: {
    // The ✕ of modals and toasts: Mantine gives it no name, so a screen reader says "button" (axe: button-name).
    CloseButton: CloseButton.extend({ defaultProps: { 'aria-label': 'Close' } as Partial<CloseButtonProps> }),
  },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
});

/**
 * Colours that Mantine's defaults give too little contrast (axe's color-contrast, e2e/web-app-a11y.test.ts): dimmed text
 * (3.3:1 on white, 4.0:1 on dark), errors (3.3:1, 3.4:1), links on a hovered row (3.8:1 dark) and light badges in
 * green, orange and yellow (3.8:1, 3.6:1, 2.7:1). These reach 4.5:1 on the body, on cards and on hovered rows.
 */
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-red-text': 'var(--mantine-color-red-9)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-8)',
    '--mantine-color-green-text': '#237032',
    '--mantine-color-green-light-color': '#237032',
    '--mantine-color-orange-light-color': '#a63a0a',
    '--mantine-color-yellow-light-color': '#7a4a00',
    // The hover of indigo's light variant (the current page's link in the navigation, light buttons) under its text:
    // Mantine's indigo 2 gives 4.1:1; this keeps a visible change from the resting indigo 1 at 4.8:1.
    '--mantine-color-indigo-light-hover': '#ccd7ff',
  },
  dark: {
    '--mantine-color-dimmed': '#b0b0b0',
    '--mantine-color-error': 'var(--mantine-color-red-4)',
    '--mantine-color-anchor': 'var(--mantine-color-indigo-3)',
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="auto" cssVariablesResolver={cssVariablesResolver}>
      <ToastHost />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
