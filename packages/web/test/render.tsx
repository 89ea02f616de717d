import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ConfirmHost } from '../src/components/confirm';

/**
 * Renders a component of the app as a page would have it: the theme, a router at `/`, and a query cache that holds
 * `data` (by query key) and never asks the network, so a test states what the service answered.
 */
export async function renderPage(ui: () => ReactNode, data: [readonly unknown[], unknown][] = []) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  for (const [key, value] of data) queryClient.setQueryData(key, value);
  const root = createRootRoute({
    component: () => (
      <>
        {ui()}
        <ConfirmHost />
      </>
    ),
  });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) });
  await router.load();
  return render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}
