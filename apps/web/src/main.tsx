import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

function boot() {
  createRoot(root!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// Paint index.html's app shell first: on a fast connection the scripts are ready before the first
// frame, and rendering at once would hold the first paint until React's first render is done.
// rAF runs just before the frame is painted; the timeout runs just after it.
if (typeof requestAnimationFrame === 'function' && document.visibilityState === 'visible')
  requestAnimationFrame(() => setTimeout(boot, 0));
else boot();
