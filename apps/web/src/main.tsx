import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { afterFirstFrame } from './lib/after-first-frame';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

function boot() {
  createRoot(root!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// Paint index.html's app shell first: rendering at once would hold the first paint until React's
// first render is done.
afterFirstFrame(boot);
