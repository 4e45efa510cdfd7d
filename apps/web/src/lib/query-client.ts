// The one TanStack Query client, shared by the providers and by login/logout, which reset it.
import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The HTTP client already reports failures; a silent retry would start a second batch
      // and a second notification for the same fault.
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 60_000,
    },
    mutations: { retry: false },
  },
});
