import { afterFirstFrame } from '../lib/after-first-frame';

// landing.html's script: no React, router, query client or MUI here (issue 15's 150 KB budget).
// The page is HTML and CSS and paints without it: its work (choosing the variant's buttons, the
// theme toggle, tracking) starts after the first frame, in a chunk of its own, so neither loading
// nor running it holds that paint. The buttons' space is kept meanwhile (landing.html).
afterFirstFrame(() => {
  import('./static-landing').then(
    ({ startLanding }) => startLanding(),
    (error: unknown) => console.warn('Loading the landing page script failed', error),
  );
});
