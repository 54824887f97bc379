import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient, router } from './router';
import { startEarlyLoads } from './shell/early-loads';
import { applyTheme, currentTheme } from './shell/theme';
import './styles/tokens.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/parts.css';

applyTheme(currentTheme());
startEarlyLoads(router, queryClient);

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
