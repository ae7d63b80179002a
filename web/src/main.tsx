// The console's entry: the token from a sign-in link first, then the app.
// First of all, a tab that starts in the editor asks for the editor's code.
import './editor/route';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { takeTokenFromAddress } from './auth/token';
import { ApiError } from './api/client';
import { warnBeforeLeavingDrafts } from './editor/drafts';
import { startEditorEarly } from './editor/opening';
import './styles.css';

takeTokenFromAddress();
warnBeforeLeavingDrafts();

const queries = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});
startEditorEarly(queries);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queries}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
}
