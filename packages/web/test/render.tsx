import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { ConfirmHost } from '../src/components/confirm';
import { searchOf } from '../src/routes';

/**
 * Renders a component of the app as a page would have it: the theme, a router at `/` (or at `at.url`, matched by the
 * route `at.path`, for components that read the address's params and search), and a query cache that holds `data` (by
 * query key) and never asks the network, so a test states what the service answered.
 */
export async function renderPage(ui: () => ReactNode, data: [readonly unknown[], unknown][] = [], at?: { path: string; url: string }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  for (const [key, value] of data) queryClient.setQueryData(key, value);
  const page = () => (
    <>
      {ui()}
      <ConfirmHost />
    </>
  );
  const root = createRootRoute({ component: at ? Outlet : page });
  const routeTree = at ? root.addChildren([createRoute({ getParentRoute: () => root, path: at.path, validateSearch: searchOf(), component: page })]) : root;
  const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: [at?.url ?? '/'] }) });
  await router.load();
  return render(
    <MantineProvider env="test">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}
